package review

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/specdev/specdev/protocol"
)

// overviewItem is one review in the read-only view of specdev check.
type overviewItem struct {
	Assignment string `json:"assignment"`
	Status     string `json:"status"`
	Round      string `json:"round"`
	Files      int    `json:"files"`
	Session    string `json:"session,omitempty"`
}

// Overview is what a reviewer poll shows without a session: the reviews
// there are and who may act on them. It claims nothing.
func (s *Service) Overview() Result {
	entries, err := s.Store.Scan()
	if err != nil {
		return Result{State: "overview", Text: "Cannot read the assignments: " + err.Error(), Code: Failure, Next: "fix what the message names, then: specdev check"}
	}
	pending, active, awaiting := []overviewItem{}, []overviewItem{}, []overviewItem{} // --json lists them even when empty
	var problems []string
	for _, e := range entries {
		if e.Err != nil {
			problems = append(problems, e.Err.Error())
			continue
		}
		r := e.Request
		if r == nil {
			continue
		}
		item := overviewItem{Assignment: e.Name, Status: string(r.Status), Round: r.RoundText()}
		if e.Progress != nil {
			item.Files, item.Session = e.Progress.FilesTotal, e.Progress.SessionID
		}
		switch r.Status {
		case protocol.StatusPending:
			pending = append(pending, item)
		case protocol.StatusInProgress:
			active = append(active, item)
		case protocol.StatusAwaitingApproval:
			awaiting = append(awaiting, item)
		}
	}
	var b strings.Builder
	b.WriteString("Reviews (a look only: claiming needs your session id):\n")
	writeItems(&b, "Waiting for a reviewer", pending, func(it overviewItem) string { return "round " + it.Round })
	writeItems(&b, "In progress", active, func(it overviewItem) string {
		return fmt.Sprintf("round %s, session %s", it.Round, holderName(it.Session))
	})
	writeItems(&b, "Awaiting a human's decision", awaiting, func(it overviewItem) string {
		return "decide with: specdev decide --assignment " + it.Assignment
	})
	if len(pending)+len(active)+len(awaiting) == 0 {
		b.WriteString("  nothing is waiting for a reviewer or a human\n")
	}
	for _, p := range problems {
		fmt.Fprintf(&b, "Unreadable: %s\n", p)
	}
	res := Result{State: "overview", Text: b.String(),
		Data: overviewData{Pending: pending, InProgress: active, AwaitingApproval: awaiting, Problems: orEmpty(problems)},
		Next: "to review, claim under your session id: specdev check --session ID (or --new-session)"}
	if len(pending) == 0 {
		res.Next = "to wait for a review to claim: specdev check --session ID --timeout 10m"
	}
	if len(problems) > 0 {
		res.Code = Invalid
		res.Next = "fix or restore the file named above (specdev never overwrites a malformed file), then: specdev check"
	}
	return res
}

// overviewData is the data of a read-only look.
type overviewData struct {
	AwaitingApproval []overviewItem `json:"awaiting_approval"`
	Claimed          bool           `json:"claimed"`
	InProgress       []overviewItem `json:"in_progress"`
	Pending          []overviewItem `json:"pending"`
	Problems         []string       `json:"problems"`
}

func writeItems(b *strings.Builder, title string, items []overviewItem, detail func(overviewItem) string) {
	if len(items) == 0 {
		return
	}
	fmt.Fprintf(b, "%s (%d):\n", title, len(items))
	for _, it := range items {
		fmt.Fprintf(b, "  %s  (%s)\n", it.Assignment, detail(it))
	}
}

// holderName is a review's session as shown: a progress file written by
// hand or by another tool may name none.
func holderName(session string) string { return cmp.Or(oneLine(session), "(none recorded)") }
