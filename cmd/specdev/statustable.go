package main

import (
	"cmp"
	"strconv"

	"github.com/specdev/specdev/protocol"
	"github.com/specdev/specdev/review"
)

// The columns of specdev status, each from its most detailed rendering to
// its shortest. Every run shows the same columns (a "-" where a row has
// no value), so a script or an eye finds each in its place; only a
// narrow terminal takes detail away, in this order: the progress bar and
// the idle time shorten, the mode goes, the round shortens, the reviewer
// and then the group go, the status words shorten, then the idle time,
// the progress and the round go. The assignment and its status always stay.
const (
	colAssignment = iota
	colGroup
	colStatus
	colRound
	colReviewer
	colProgress
	colActivity
	colMode
)

var statusSteps = []step{
	{col: colProgress}, {col: colActivity}, {col: colMode, drop: true}, {col: colRound}, {col: colReviewer, drop: true},
	{col: colGroup, drop: true}, {col: colStatus}, {col: colActivity, drop: true}, {col: colProgress, drop: true},
	{col: colRound, drop: true},
}

func statusTable(rows []review.StatusRow) table {
	t := table{styles: []style{plain}, styled: colStatus, steps: statusSteps, rows: [][][]string{{{"ASSIGNMENT"}, {"GROUP"}, {"STATUS"},
		{"ROUND"}, {"REVIEWER"}, {"PROGRESS", "FILES"}, {"LAST ACTIVITY", "IDLE"}, {"MODE"}}}}
	for _, r := range rows {
		t.rows = append(t.rows, [][]string{{r.Assignment}, {orDash(r.Group)}, review.StatusWords(r), roundCell(r),
			{orDash(r.Reviewer)}, progressCell(r), activityCell(r), {orDash(r.Mode)}})
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

func roundCell(r review.StatusRow) []string {
	switch {
	case r.Round > 0 && r.MaxRounds > 0:
		round, limit := strconv.Itoa(review.ShownRound(r)), strconv.Itoa(r.MaxRounds)
		return []string{round + " of " + limit, round + "/" + limit}
	case r.Round > 0: // a hand-written request names no limit
		return []string{strconv.Itoa(r.Round)}
	}
	return []string{"-"}
}

func progressCell(r review.StatusRow) []string {
	if r.FilesTotal == 0 {
		return []string{"-"}
	}
	return []string{bar(r.FilesReviewed, r.FilesTotal), strconv.Itoa(r.FilesReviewed) + "/" + strconv.Itoa(r.FilesTotal)}
}

func activityCell(r review.StatusRow) []string {
	if r.LastActivity == "" {
		return []string{"-"}
	}
	short := review.Human(r.Idle)
	if r.ClockSkew {
		short += "?"
	}
	return []string{review.ActivityAgo(r.Idle, r.ClockSkew), short}
}

// bar is a ten-cell progress bar with the count: [###-------] 3/10. Any
// counts draw a bar (a full one past the total), never a panic.
func bar(done, total int) string {
	const width = 10
	filled := 0
	if total > 0 {
		filled = min(max(done, 0), total) * width / total
	}
	return "[" + "##########"[:filled] + "----------"[:width-filled] + "] " + strconv.Itoa(done) + "/" + strconv.Itoa(total)
}

// orDash is s made safe to show, or "-" for no value.
func orDash(s string) string { return cmp.Or(protocol.SafeText(s), "-") }
