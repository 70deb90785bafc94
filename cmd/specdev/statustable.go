package main

import (
	"cmp"
	"strconv"

	"github.com/specdev/specdev/protocol"
	"github.com/specdev/specdev/review"
)

// The columns of specdev status, each from its most detailed rendering to
// its shortest, and the order in which they give up detail to fit a
// narrow terminal: the progress bar, the idle time and the round
// shorten, the reviewer goes, the status words shorten, then the idle
// time, the progress and the round go. The assignment and its status
// always stay.
const (
	colAssignment = iota
	colStatus
	colRound
	colReviewer
	colProgress
	colActivity
)

var statusSteps = []step{
	{col: colProgress}, {col: colActivity}, {col: colRound}, {col: colReviewer, drop: true},
	{col: colStatus}, {col: colActivity, drop: true}, {col: colProgress, drop: true}, {col: colRound, drop: true},
}

func statusTable(rows []review.StatusRow) table {
	cols := []column{
		{heads: []string{"ASSIGNMENT"}},
		{heads: []string{"STATUS"}},
		{heads: []string{"ROUND"}},
		{heads: []string{"REVIEWER"}},
		{heads: []string{"PROGRESS", "FILES"}},
		{heads: []string{"LAST ACTIVITY", "IDLE"}},
	}
	for _, r := range rows {
		cells := [][]string{{r.Assignment}, review.StatusWords(r), roundCell(r), {cmp.Or(protocol.SafeText(r.Reviewer), "-")}, progressCell(r), activityCell(r)}
		for i, variants := range cells {
			cols[i].cells = append(cols[i].cells, cell{variants: variants})
		}
		cols[colStatus].cells[len(cols[colStatus].cells)-1].style = statusStyle(r)
	}
	return table{cols: cols, steps: statusSteps}
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
