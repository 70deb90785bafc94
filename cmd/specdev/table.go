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

// column is a column's cells, its heading first: a heading has
// renderings per level of detail as every cell does.
type column []cell

// step gives up detail in one column: its next shorter rendering, or,
// with drop, the whole column.
type step struct {
	col  int
	drop bool
}

// table is at least one column, the first the one cut last.
type table struct {
	cols  []column
	steps []step
}

const tableGap = 2

// layout is how a table is shown: each column's widths at each level of
// detail (measured once), its level of detail (-1: dropped), and how wide
// the first column may be (0: as wide as its values).
type layout struct {
	widths [][]int
	level  []int
	cut    int
}

// fit chooses the most detailed layout whose rows are at most width
// characters wide. Every cell is measured once, whatever the number of
// steps: a status of thousands of rows fits in time linear in its rows.
func (t table) fit(width int) layout {
	l := layout{widths: t.measure(), level: make([]int, len(t.cols))}
	for _, s := range t.steps {
		if l.total() <= width {
			break
		}
		switch {
		case s.drop:
			l.level[s.col] = -1
		case l.level[s.col] >= 0:
			l.level[s.col]++
		}
	}
	if over := l.total() - width; over > 0 {
		l.cut = max(pick(l.widths[0], l.level[0])-over, 4)
	}
	return l
}

// measure is, per column, its width at each level of detail it has (the
// last level serves the levels past it).
func (t table) measure() [][]int {
	widths := make([][]int, len(t.cols))
	for i, c := range t.cols {
		levels := 1
		for _, v := range c {
			levels = max(levels, len(v.variants))
		}
		w := make([]int, levels)
		for _, v := range c {
			for level := range w {
				w[level] = max(w[level], textWidth(pick(v.variants, level)))
			}
		}
		widths[i] = w
	}
	return widths
}

// colWidth is how wide column i is shown in l.
func (l layout) colWidth(i int) int {
	w := pick(l.widths[i], l.level[i])
	if i == 0 && l.cut > 0 {
		w = min(w, l.cut)
	}
	return w
}

// total is how wide the rows are in l.
func (l layout) total() int {
	total, n := 0, 0
	for i := range l.widths {
		if l.level[i] >= 0 {
			total += l.colWidth(i)
			n++
		}
	}
	return total + tableGap*max(n-1, 0)
}

// render writes the heading and the rows in layout l (made by fit),
// colouring cells when color is on. No line ends in spaces.
func (t table) render(l layout, color bool) string {
	var b, line strings.Builder
	for r := range t.cols[0] {
		line.Reset()
		for i, c := range t.cols {
			if l.level[i] < 0 {
				continue
			}
			w := l.colWidth(i)
			text := cut(pick(c[r].variants, l.level[i]), w)
			if line.Len() > 0 {
				line.WriteString(strings.Repeat(" ", tableGap))
			}
			line.WriteString(paint(color, c[r].style, text))
			line.WriteString(strings.Repeat(" ", w-textWidth(text)))
		}
		b.WriteString(strings.TrimRight(line.String(), " "))
		b.WriteString("\n")
	}
	return b.String()
}

// pick is the rendering (or the measured width) at level, or the
// shortest there is; the zero value of an empty list.
func pick[T any](variants []T, level int) (v T) {
	if len(variants) > 0 {
		v = variants[min(level, len(variants)-1)]
	}
	return v
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
