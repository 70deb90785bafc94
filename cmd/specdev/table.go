package main

import (
	"strings"
	"unicode/utf8"
)

// A table fits its rows to a width instead of letting the terminal wrap
// them: it gives up detail in the order its steps say (a column first
// shortens, e.g. a progress bar to its count, then goes), and only when
// no step is left does it cut the first column's values with "…".

// table is a table's rows, its heading first. A cell is its renderings
// from the most detailed to the shortest (at least one); styles colours
// each row's cell in column styled. The first column is the one cut last.
type table struct {
	rows   [][][]string
	styles []style
	styled int
	steps  []step
}

// step gives up detail in one column: its next shorter rendering, or,
// with drop, the whole column.
type step struct {
	col  int
	drop bool
}

const tableGap = 2

// layout is how a table is shown: each column's level of detail (-1:
// dropped) and how wide it is shown.
type layout struct {
	level, width []int
}

// fit chooses the most detailed layout whose rows are at most width
// characters wide. Every cell is measured once, whatever the number of
// steps: a status of thousands of rows fits in time linear in its rows.
func (t table) fit(width int) layout {
	measured := t.measure()
	l := layout{level: make([]int, len(measured)), width: make([]int, len(measured))}
	for steps := t.steps; ; steps = steps[1:] {
		total := -tableGap
		for i, w := range measured {
			if l.level[i] >= 0 {
				l.width[i] = pick(w, l.level[i])
				total += l.width[i] + tableGap
			}
		}
		if over := total - width; over <= 0 || len(steps) == 0 {
			if over > 0 {
				l.width[0] = min(l.width[0], max(l.width[0]-over, 4))
			}
			return l
		}
		switch s := steps[0]; {
		case s.drop:
			l.level[s.col] = -1
		case l.level[s.col] >= 0:
			l.level[s.col]++
		}
	}
}

// measure is, per column, its width at each level of detail it has (the
// last level serves the levels past it).
func (t table) measure() [][]int {
	widths := make([][]int, len(t.rows[0]))
	for i := range widths {
		levels := 1
		for _, row := range t.rows {
			levels = max(levels, len(row[i]))
		}
		widths[i] = make([]int, levels)
		for _, row := range t.rows {
			for level := range widths[i] {
				widths[i][level] = max(widths[i][level], textWidth(pick(row[i], level)))
			}
		}
	}
	return widths
}

// render writes the heading and the rows in layout l (made by fit),
// colouring cells when color is on. No line ends in spaces.
func (t table) render(l layout, color bool) string {
	var b, line strings.Builder
	for r, row := range t.rows {
		line.Reset()
		for i, variants := range row {
			if l.level[i] < 0 {
				continue
			}
			if line.Len() > 0 {
				line.WriteString(strings.Repeat(" ", tableGap))
			}
			text, st := cut(pick(variants, l.level[i]), l.width[i]), plain
			if i == t.styled {
				st = t.styles[r]
			}
			line.WriteString(paint(color, st, text))
			line.WriteString(strings.Repeat(" ", l.width[i]-textWidth(text)))
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
