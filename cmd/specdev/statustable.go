package main

import (
	"cmp"
	"strconv"

	"github.com/specdev/specdev/protocol"
	"github.com/specdev/specdev/review"
)

// The columns of specdev status, one text a cell. Every run shows the
// same columns (a "-" where a row has no value), so a script or an eye
// finds each in its place; only a narrow terminal drops columns, in this
// order: the mode, the reviewer, the group, the idle time, the files and
// the round. The assignment and its status always stay.
const (
	colAssignment = iota
	colGroup
	colStatus
	colRound
	colReviewer
	colFiles
	colIdle
	colMode
)

var statusDrops = []int{colMode, colReviewer, colGroup, colIdle, colFiles, colRound}

func statusTable(rows []review.StatusRow) table {
	t := table{styles: []style{plain}, styled: colStatus, drops: statusDrops,
		rows: [][]string{{"ASSIGNMENT", "GROUP", "STATUS", "ROUND", "REVIEWER", "FILES", "IDLE", "MODE"}}}
	for _, r := range rows {
		t.rows = append(t.rows, []string{r.Assignment, orDash(r.Group), r.Description, roundCell(r),
			orDash(r.Reviewer), filesCell(r), idleCell(r), orDash(r.Mode)})
		t.styles = append(t.styles, statusStyle(r))
	}
	return t
}

// statusStyle colours what needs attention: red for a failure, a block
// or an unreadable file, yellow for a stale review or a human's turn.
func statusStyle(r review.StatusRow) style {
	switch {
	case r.Error != "":
		return red
	case r.Stale, r.Paused, r.Status == string(protocol.StatusAwaitingApproval):
		return yellow
	case r.Status == string(protocol.StatusBlocked):
		return bold
	case r.Status == string(protocol.StatusFailed):
		return red
	case r.Status == string(protocol.StatusPassed):
		return green
	}
	return plain
}

func roundCell(r review.StatusRow) string {
	if r.Round < 1 {
		return "-"
	}
	return review.RoundWords(r)
}

func filesCell(r review.StatusRow) string {
	if r.FilesTotal == 0 {
		return "-"
	}
	return strconv.Itoa(r.FilesReviewed) + "/" + strconv.Itoa(r.FilesTotal)
}

// idleCell is the time since the last activity, with a "?" where the
// clock looks skewed (a note under the table says more).
func idleCell(r review.StatusRow) string {
	switch {
	case r.LastActivity == "":
		return "-"
	case r.ClockSkew:
		return review.Human(r.Idle) + "?"
	}
	return review.Human(r.Idle)
}

// orDash is s made safe to show, or "-" for no value.
func orDash(s string) string { return cmp.Or(protocol.SafeText(s), "-") }
