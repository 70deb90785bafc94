package review

import (
	"fmt"
	"os"
	"strings"

	"github.com/specdev/specdev/checkpoint"
	"github.com/specdev/specdev/protocol"
)

// NeedItem is an assignment that waits for a human, and the exact
// command that lets it go on.
type NeedItem struct {
	Assignment string `json:"assignment"`
	Status     string `json:"status"`
	Reason     string `json:"reason"`  // in plain words: "blocked at round 2 of 2"
	Command    string `json:"command"` // what the human runs
}

// needOf says whether row's assignment waits for a human, and for what:
// a loop stuck or blocked at its round limit, a manual-mode implementer paused
// after a rejection, or a proposed verdict awaiting a decision.
func needOf(row StatusRow) (NeedItem, bool) {
	n := NeedItem{Assignment: row.Assignment, Status: row.Status}
	switch {
	case row.Stuck:
		n.Reason = "stuck at round " + RoundWords(row) + ": its findings repeat the round before's"
		n.Command = "specdev work unblock --assignment " + row.Assignment
	case row.Status == string(protocol.StatusBlocked):
		n.Reason = "blocked at round " + RoundWords(row)
		n.Command = "specdev work unblock --assignment " + row.Assignment + " --rounds 1"
	case row.Paused:
		n.Reason = "paused for a human after round " + RoundWords(row) + " was rejected"
		n.Command = "specdev work continue --assignment " + row.Assignment
	case row.Status == string(protocol.StatusAwaitingApproval):
		n.Reason = "awaiting a human's decision on the reviewer's verdict"
		n.Command = "specdev decide --assignment " + row.Assignment
	default:
		return n, false
	}
	return n, true
}

// ShownRound is the round a row is at in plain terms: a blocked loop is
// at the last round it used (its request already counts the next one).
func ShownRound(row StatusRow) int {
	if row.Status == string(protocol.StatusBlocked) && row.MaxRounds > 0 && row.Round > row.MaxRounds {
		return row.Round - 1
	}
	return row.Round
}

// RoundWords is "2 of 3", or "2" when the request names no limit.
func RoundWords(row StatusRow) string {
	return roundOf(ShownRound(row), row.MaxRounds)
}

// workContext adds to the implementer's view where the review's report
// is, and which other assignments wait for a human: someone who creates
// a new assignment folder (which work then shows) still learns that an
// older one awaits a decision.
func (s *Service) workContext(a *checkpoint.Assignment, view Result) Result {
	view.Text = strings.TrimRight(view.Text, "\n")
	report := "" // the report's path from the project root, once there is one
	if _, err := os.Lstat(a.Dir + "/" + checkpoint.ReportFile); err == nil {
		report = a.RelDir() + "/" + checkpoint.ReportFile
		view.Text += "\nReport: " + report
	}
	others := s.othersNeedingHuman(a.Name)
	for _, n := range others { // "Also: 00003_x awaits a human's decision (specdev decide --assignment 00003_x)"
		what := "is " + n.Reason
		if n.Status == string(protocol.StatusAwaitingApproval) {
			what = "awaits a human's decision"
		}
		view.Text += fmt.Sprintf("\nAlso: %s %s (%s)", n.Assignment, what, n.Command)
	}
	if d, ok := view.Data.(workData); ok {
		d.Report, d.OthersNeed = report, others
		view.Data = d
	}
	return view
}

// othersNeedingHuman lists the assignments other than name that wait for
// a human (as specdev status's "Needs a human"). It only peeks; one that
// cannot be read is left to status to report.
func (s *Service) othersNeedingHuman(name string) []NeedItem {
	entries, err := s.Store.Scan()
	if err != nil {
		return nil
	}
	var out []NeedItem
	for _, e := range entries {
		if e.Name == name || e.Err != nil {
			continue
		}
		if n, ok := needOf(rowOf(e, s.now(), s.Store.StaleAfter())); ok {
			out = append(out, n)
		}
	}
	return out
}
