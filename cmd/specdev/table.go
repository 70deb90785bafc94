package main

import (
	"strings"
	"unicode/utf8"
)

// A table fits its rows to a width instead of letting the terminal wrap
// them: it drops columns in the order it is given, and only when none is
// left to drop does it cut the first column's values with "…".

// table is a table's rows, its heading first, one text a cell; styles
// colours each row's cell in column styled. drops lists the columns that
// may go, the first to go first; the first column is the one cut last.
type table struct {
	rows   [][]string
	styles []style
	styled int
	drops  []int
}

const tableGap = 2

// fit is how wide each column is shown so that no row is wider than
// width (0: dropped). Every cell is measured once: a status of thousands
// of rows fits in time linear in its rows.
func (t table) fit(width int) []int {
	widths := make([]int, len(t.rows[0]))
	for _, row := range t.rows {
		for i, cell := range row {
			widths[i] = max(widths[i], textWidth(cell))
		}
	}
	total := -tableGap
	for _, w := range widths {
		total += w + tableGap
	}
	for _, col := range t.drops {
		if total <= width {
			break
		}
		total -= widths[col] + tableGap
		widths[col] = 0
	}
	if over := total - width; over > 0 {
		widths[0] = min(widths[0], max(widths[0]-over, 4))
	}
	return widths
}

// render writes the heading and the rows in the widths fit chose,
// colouring cells when color is on. No line ends in spaces.
func (t table) render(widths []int, color bool) string {
	var b, line strings.Builder
	for r, row := range t.rows {
		line.Reset()
		for i, cell := range row {
			if widths[i] == 0 {
				continue
			}
			if line.Len() > 0 {
				line.WriteString(strings.Repeat(" ", tableGap))
			}
			text, st := cut(cell, widths[i]), plain
			if i == t.styled {
				st = t.styles[r]
			}
			line.WriteString(paint(color, st, text))
			line.WriteString(strings.Repeat(" ", widths[i]-textWidth(text)))
		}
		b.WriteString(strings.TrimRight(line.String(), " "))
		b.WriteString("\n")
	}
	return b.String()
}

// textWidth counts characters: what a terminal shows of the (ASCII or
// SafeText-made) text of a table.
func textWidth(s string) int { return utf8.RuneCountInString(s) }

// cut shortens s to w characters, ending in "…" when it cut.
func cut(s string, w int) string {
	if textWidth(s) <= w {
		return s
	}
	r := []rune(s)
	return string(r[:max(w-1, 0)]) + "…"
}
