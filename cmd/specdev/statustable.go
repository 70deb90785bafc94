package main

import (
	"strconv"

	"github.com/specdev/specdev/protocol"
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

func statusTable(rows []statusRow) table {
	cols := []column{
		{heads: []string{"ASSIGNMENT"}},
		{heads: []string{"STATUS"}},
		{heads: []string{"ROUND"}},
		{heads: []string{"REVIEWER"}},
		{heads: []string{"PROGRESS", "FILES"}},
		{heads: []string{"LAST ACTIVITY", "IDLE"}},
	}
	for i := range cols {
		cols[i].cells = make([]cell, 0, len(rows))
	}
	for _, r := range rows {
		cols[colAssignment].cells = append(cols[colAssignment].cells, cell{variants: []string{r.Assignment}})
		cols[colStatus].cells = append(cols[colStatus].cells, cell{variants: statusWords(r), style: statusStyle(r)})
		cols[colRound].cells = append(cols[colRound].cells, cell{variants: roundCell(r)})
		cols[colReviewer].cells = append(cols[colReviewer].cells, cell{variants: []string{dash(oneLine(r.Reviewer))}})
		cols[colProgress].cells = append(cols[colProgress].cells, cell{variants: progressCell(r)})
		cols[colActivity].cells = append(cols[colActivity].cells, cell{variants: activityCell(r)})
	}
	return table{cols: cols, steps: statusSteps}
}

// statusWords is the status in plain words, then shorter; a checkpoint
// review says so.
func statusWords(r statusRow) []string {
	words := baseStatusWords(r)
	if r.Checkpoint {
		for i := range words {
			words[i] = "checkpoint " + words[i]
		}
	}
	return words
}

func baseStatusWords(r statusRow) []string {
	switch {
	case r.Error != "":
		return []string{"invalid file", "invalid"}
	case r.Stale:
		return []string{"in review, STALE", "STALE"}
	case r.Paused:
		return []string{"paused for a human", "paused"}
	}
	switch protocol.Status(r.Status) {
	case protocol.StatusNone, "none":
		return []string{"not requested", "none"}
	case protocol.StatusPending:
		return []string{"waiting for a reviewer", "pending"}
	case protocol.StatusInProgress:
		return []string{"in review"}
	case protocol.StatusAwaitingApproval:
		return []string{"awaiting a human's decision", "awaiting human"}
	case protocol.StatusBlocked:
		return []string{"blocked at round " + roundWords(r), "blocked"}
	}
	return []string{r.Status}
}

// statusStyle colours what needs attention: red for a failure, a block
// or an unreadable file, yellow for a stale review or a human's turn.
func statusStyle(r statusRow) style {
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

func roundCell(r statusRow) []string {
	switch {
	case r.Round > 0 && r.MaxRounds > 0:
		round, limit := strconv.Itoa(shownRound(r)), strconv.Itoa(r.MaxRounds)
		return []string{round + " of " + limit, round + "/" + limit}
	case r.Round > 0: // a hand-written request names no limit
		return []string{strconv.Itoa(r.Round)}
	}
	return []string{"-"}
}

func progressCell(r statusRow) []string {
	if r.FilesTotal == 0 {
		return []string{"-"}
	}
	count := strconv.Itoa(r.FilesReviewed) + "/" + strconv.Itoa(r.FilesTotal)
	return []string{barOf(r.FilesReviewed, r.FilesTotal, count), count}
}

func activityCell(r statusRow) []string {
	if r.LastActivity == "" {
		return []string{"-"}
	}
	short := human(r.idle)
	if r.ClockSkew {
		short += "?"
	}
	return []string{activityAgo(r.idle, r.ClockSkew), short}
}

// bar is a ten-cell progress bar with the count: [###-------] 3/10. Any
// counts draw a bar (a full one past the total), never a panic.
func bar(done, total int) string {
	return barOf(done, total, strconv.Itoa(done)+"/"+strconv.Itoa(total))
}

// barOf is bar with its count already written.
func barOf(done, total int, count string) string {
	const width = 10
	filled := 0
	if total > 0 {
		filled = min(max(done, 0), total) * width / total
	}
	return "[" + "##########"[:filled] + "----------"[:width-filled] + "] " + count
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
