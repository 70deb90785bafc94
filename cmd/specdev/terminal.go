package main

import (
	"io"
	"os"
	"strconv"
	"strings"

	"golang.org/x/term"
)

// What a view may assume about where its text goes. Colour and the
// terminal's width are for people at a terminal: in a pipe, a file or
// with --json there is never an escape code, and NO_COLOR (any non-empty
// value, see no-color.org) or TERM=dumb turns colour off on a terminal
// too. The width is COLUMNS when set, else what the terminal says, else
// 80, so that a table never wraps.

// defaultWidth is the width assumed when neither COLUMNS nor the
// terminal says; minWidth the narrowest a view fits itself to.
const (
	defaultWidth = 80
	minWidth     = 20
)

// isTerminal reports whether stream (a reader or a writer) is a terminal,
// not merely a character device: an agent's stdin is often /dev/null.
func isTerminal(stream any) bool {
	f, ok := stream.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// colorOn reports whether text written to w may carry colour (never
// asked with --json, which prints no text).
func colorOn(w io.Writer) bool {
	if os.Getenv("NO_COLOR") != "" || os.Getenv("TERM") == "dumb" {
		return false
	}
	return isTerminal(w)
}

// outWidth is the width text written to w must fit: COLUMNS, the
// terminal's width, or 80.
func outWidth(w io.Writer) int {
	if n, err := strconv.Atoi(strings.TrimSpace(os.Getenv("COLUMNS"))); err == nil && n > 0 {
		return max(n, minWidth)
	}
	if f, ok := w.(*os.File); ok {
		if n, _, err := term.GetSize(int(f.Fd())); err == nil && n > 0 {
			return max(n, minWidth)
		}
	}
	return defaultWidth
}

// style is an SGR colour for a piece of text.
type style string

const (
	plain  style = ""
	red    style = "31"
	bold   style = "1;31"
	yellow style = "33"
	green  style = "32"
)

// paint wraps s in the style's escape codes when colour is on.
func paint(on bool, st style, s string) string {
	if !on || st == plain || s == "" {
		return s
	}
	return "\x1b[" + string(st) + "m" + s + "\x1b[0m"
}
