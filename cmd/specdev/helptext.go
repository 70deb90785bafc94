package main

import (
	"strings"
	"unicode/utf8"
)

// helpWidth is the width help pages are wrapped to. It is fixed: asking
// the terminal its size is a query specdev never makes, and a fixed width
// keeps pages the same in a pipe, a file and a test.
const helpWidth = 80

// maxLeft is the widest first column of a two-column list; a longer entry
// puts its text on the next line.
const maxLeft = 30

// rows prints two columns indented by two spaces, the second wrapped.
func (p *page) rows(rows [][2]string) {
	left := 0
	for _, r := range rows {
		if n := utf8.RuneCountInString(r[0]); n > left && n <= maxLeft {
			left = n
		}
	}
	indent := strings.Repeat(" ", 2+left+3)
	for _, r := range rows {
		lines := wrap(r[1], helpWidth-len(indent))
		n := utf8.RuneCountInString(r[0])
		if n > left {
			p.WriteString("  " + r[0] + "\n")
		} else if len(lines) > 0 {
			p.WriteString("  " + r[0] + strings.Repeat(" ", left-n+3) + lines[0] + "\n")
			lines = lines[1:]
		} else {
			p.WriteString("  " + r[0] + "\n")
		}
		for _, l := range lines {
			p.WriteString(indent + l + "\n")
		}
	}
}

// nbsp joins words that must stay on one line ("env: SPECDEV_DIR"); the
// page turns it back into a space.
const nbsp = "\u00a0"

// wrap breaks text into lines of at most width runes at spaces (a longer
// word gets a line of its own).
func wrap(text string, width int) []string {
	var lines []string
	var line strings.Builder
	n := 0
	words := strings.FieldsFunc(text, func(r rune) bool { return r == ' ' || r == '\n' || r == '\t' })
	for _, word := range words {
		w := utf8.RuneCountInString(word)
		if n > 0 && n+1+w > width {
			lines = append(lines, line.String())
			line.Reset()
			n = 0
		}
		if n > 0 {
			line.WriteByte(' ')
			n++
		}
		line.WriteString(word)
		n += w
	}
	if n > 0 {
		lines = append(lines, line.String())
	}
	return lines
}
