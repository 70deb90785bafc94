package main

import (
	"strings"
	"unicode/utf8"
)

// A table fits its rows to a width instead of letting the terminal wrap
// them: it gives up detail in the order its steps say (a column first
// shortens, e.g. a progress bar to its count, then goes), and only when
// no step is left does it cut the first column's values with "…".

// cell is one value of a table: its renderings from the most detailed to
// the shortest (at least one), and its colour.
type cell struct {
	variants []string
	style    style
}

// column is a heading per level of detail (the last one serves the
// levels past it) and one cell per row.
type column struct {
	heads []string
	cells []cell
}

// step gives up detail in one column: its next shorter rendering, or,
// with drop, the whole column.
type step struct {
	col  int
	drop bool
}

type table struct {
	cols  []column
	steps []step
}

const tableGap = 2

// layout is how a table is shown: each column's level of detail, which
// columns are kept, and how wide the first column may be (0: as wide as
// its values).
type layout struct {
	level []int
	kept  []bool
	cut   int
}

// fit chooses the most detailed layout whose rows are at most width
// characters wide.
func (t table) fit(width int) layout {
	l := layout{level: make([]int, len(t.cols)), kept: make([]bool, len(t.cols))}
	for i := range l.kept {
		l.kept[i] = true
	}
	for _, s := range t.steps {
		if t.width(l) <= width {
			return l
		}
		if s.drop {
			l.kept[s.col] = false
		} else {
			l.level[s.col]++
		}
	}
	if over := t.width(l) - width; over > 0 && len(t.cols) > 0 {
		l.cut = max(t.colWidth(0, l.level[0])-over, 4)
	}
	return l
}

// width is how wide the rows are in layout l.
func (t table) width(l layout) int {
	total, n := 0, 0
	for i := range t.cols {
		if !l.kept[i] {
			continue
		}
		w := t.colWidth(i, l.level[i])
		if i == 0 && l.cut > 0 {
			w = min(w, l.cut)
		}
		total += w
		n++
	}
	return total + tableGap*max(n-1, 0)
}

func (t table) colWidth(i, level int) int {
	c := t.cols[i]
	w := textWidth(pick(c.heads, level))
	for _, v := range c.cells {
		w = max(w, textWidth(pick(v.variants, level)))
	}
	return w
}

// render writes the heading and the rows in layout l, colouring cells
// when color is on. No line ends in spaces.
func (t table) render(l layout, color bool) string {
	var b strings.Builder
	rows := 0
	if len(t.cols) > 0 {
		rows = len(t.cols[0].cells)
	}
	for r := -1; r < rows; r++ {
		var line strings.Builder
		for i, c := range t.cols {
			if !l.kept[i] {
				continue
			}
			w := t.colWidth(i, l.level[i])
			if i == 0 && l.cut > 0 {
				w = min(w, l.cut)
			}
			text, st := pick(c.heads, l.level[i]), plain
			if r >= 0 {
				text, st = pick(c.cells[r].variants, l.level[i]), c.cells[r].style
			}
			text = cut(text, w)
			if line.Len() > 0 {
				line.WriteString(strings.Repeat(" ", tableGap))
			}
			line.WriteString(paint(color, st, text))
			line.WriteString(strings.Repeat(" ", w-textWidth(text)))
		}
		b.WriteString(strings.TrimRight(line.String(), " "))
		b.WriteString("\n")
	}
	return b.String()
}

// pick is the rendering at level, or the shortest there is.
func pick(variants []string, level int) string {
	if len(variants) == 0 {
		return ""
	}
	return variants[min(level, len(variants)-1)]
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
