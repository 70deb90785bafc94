package review

import (
	"fmt"
	"strings"

	"github.com/specdev/specdev/checkpoint"
	"github.com/specdev/specdev/protocol"
)

// listing is the one listing of the reviews a reviewer's look shows,
// whether it had no session (Overview) or a poll found nothing to claim
// (nothingToDo): heading, a line for each review someone is waiting on
// (those waiting for a reviewer only with pending: a poll that claimed
// none found them locked or taken), the candidates locked during the
// poll, why a named one is not claimable yet, and the assignments
// skipped as unreadable, which make the outcome INVALID (then the step is
// to fix the file and look again); next is the step when all could be
// read.
func (p *poller) listing(heading, next string, pending bool) Result {
	var b strings.Builder
	b.WriteString(heading + "\n")
	for _, e := range p.entries {
		switch r := e.Request; {
		case r == nil || e.Err != nil:
		case r.Status == protocol.StatusPending && pending:
			fmt.Fprintf(&b, "Waiting for a reviewer: %s (round %s)\n", e.Name, r.RoundText())
		case r.Status == protocol.StatusInProgress && e.Progress != nil:
			fmt.Fprintf(&b, "In progress: %s (session %s, %d/%d files, last activity %s; stale after %s)\n",
				e.Name, holderName(e.Progress.SessionID), len(e.Progress.FilesReviewed), e.Progress.FilesTotal,
				ActivityAgo(e.Idle(p.s.now())), Human(p.s.Store.StaleAfter()))
		case r.Status == protocol.StatusAwaitingApproval:
			fmt.Fprintf(&b, "Awaiting a human's approval: %s (run: specdev check approve|reject --assignment %s)\n", e.Name, e.Name)
		}
	}
	for _, g := range lockedByHolder(p.locked) {
		fmt.Fprintf(&b, "Locked by %s: %s (skipped; a poll does not wait for locks)\n", g.Holder, strings.Join(g.Assignments, ", "))
	}
	if p.refused != nil {
		fmt.Fprintf(&b, "Still not claimable: %v\n", p.refused)
	}
	for _, err := range p.skipped {
		fmt.Fprintf(&b, "Skipped: %v\n", err)
	}
	res := Result{Text: b.String(), Next: next}
	if len(p.skipped) > 0 {
		res.Code, res.Next = Invalid, "fix or restore the file named above (specdev never overwrites a malformed file), then: "+checkpoint.ClaimCommand(p.opt.Session)
	}
	return res
}

// overviewItem is one review in the read-only view of specdev check.
type overviewItem struct {
	Assignment string `json:"assignment"`
	Status     string `json:"status"`
	Round      string `json:"round"`
	Files      int    `json:"files"`
	Session    string `json:"session,omitempty"`
}

// overviewData is the data of a read-only look.
type overviewData struct {
	AwaitingApproval []overviewItem `json:"awaiting_approval"`
	Claimed          bool           `json:"claimed"`
	InProgress       []overviewItem `json:"in_progress"`
	Pending          []overviewItem `json:"pending"`
	Problems         []string       `json:"problems"`
}

// Overview is what a reviewer poll shows without a session: the reviews
// there are and who may act on them. It claims nothing.
func (s *Service) Overview() Result {
	entries, err := s.Store.Scan()
	if err != nil {
		return Result{State: "overview", Text: "Cannot read the assignments: " + err.Error(), Code: Failure, Next: "fix what the message names, then: specdev check"}
	}
	p := &poller{s: s, entries: entries}
	lists := map[protocol.Status][]overviewItem{} // --json lists them even when empty
	for _, e := range entries {
		if e.Err != nil {
			p.skipped = append(p.skipped, e.Err)
		} else if r := e.Request; r != nil {
			item := overviewItem{Assignment: e.Name, Status: string(r.Status), Round: r.RoundText()}
			if e.Progress != nil {
				item.Files, item.Session = e.Progress.FilesTotal, e.Progress.SessionID
			}
			lists[r.Status] = append(lists[r.Status], item)
		}
	}
	pending, active, awaiting := orEmpty(lists[protocol.StatusPending]), orEmpty(lists[protocol.StatusInProgress]), orEmpty(lists[protocol.StatusAwaitingApproval])
	heading, next := "Reviews (a look only: claiming needs your session id):", "to review, claim under your session id: specdev check --session ID (or --new-session)"
	if len(pending)+len(active)+len(awaiting) == 0 {
		heading = "No review is waiting for a reviewer or a human (a look only: claiming needs your session id)."
	}
	if len(pending) == 0 {
		next = "to wait for a review to claim: specdev check --session ID --timeout 10m"
	}
	res := p.listing(heading, next, true)
	res.State = "overview"
	res.Data = overviewData{Pending: pending, InProgress: active, AwaitingApproval: awaiting, Problems: orEmpty(errorTexts(p.skipped))}
	return res
}

// nothingToDo says why a poll claimed nothing.
func (p *poller) nothingToDo() Result {
	res := p.listing("No review is waiting for a reviewer.", "poll again in 30-60 s, or wait: "+checkpoint.ClaimCommand(p.opt.Session, "--timeout 10m"), false)
	res.State, res.Data = "idle", map[string]any{"claimed": false, "problems": errorTexts(p.skipped), "locked": lockedByHolder(p.locked)}
	if res.Code == Invalid {
		res.State = "invalid"
	} else {
		res.Code = Waiting
	}
	return res
}

// errorTexts are the errors' messages (nil for none).
func errorTexts(errs []error) []string {
	var texts []string
	for _, err := range errs {
		texts = append(texts, err.Error())
	}
	return texts
}
