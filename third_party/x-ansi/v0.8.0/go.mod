module github.com/charmbracelet/x/ansi

go 1.18

require (
	github.com/lucasb-eyer/go-colorful v1.2.0
	github.com/mattn/go-runewidth v0.0.16
	github.com/rivo/uniseg v0.4.7
)
