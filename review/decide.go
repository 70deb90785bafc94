package review

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/specdev/specdev/checkpoint"
	"github.com/specdev/specdev/protocol"
)

// Decision is what a person decided about a proposed verdict.
type Decision struct {
	Approve  bool
	Notes    string // the reason, for a rejection (required)
	Override bool   // confirmed: passing a change the reviewer proposed to fail
}

// check applies the rules of the request's fields to the decision.
func (d Decision) check() error {
	if err := CheckFlagText(map[bool]string{true: "--notes", false: "--reason"}[d.Approve], d.Notes, protocol.MaxTextLength); err != nil {
		return err
	}
	if !d.Approve && strings.TrimSpace(d.Notes) == "" {
		return usage(`say what must change: specdev check reject --reason "…"`,
			"a rejection needs a --reason: the implementer reads it to know what to fix")
	}
	return nil
}

// Decide is a human's approval or rejection of the one review awaiting
// approval, or the one the caller names. It never claims.
func (s *Service) Decide(ctx context.Context, d Decision) (Result, error) {
	if err := d.check(); err != nil {
		return Result{}, err
	}
	if _, _, err := s.Store.Sync(ctx); err != nil { // a proposal made on another machine
		return Result{}, err
	}
	a, err := s.awaitingApproval()
	if err != nil {
		return Result{}, err
	}
	snap, err := a.Snapshot()
	if err != nil {
		return Result{}, err
	}
	if r := snap.Request; r != nil && d.Approve && r.ProposedVerdict == protocol.VerdictFail && !d.Override {
		return Result{}, usage("to pass it anyway, confirm: specdev check approve --override --assignment "+a.Name+
			"; to agree with the reviewer: specdev check reject --reason \"…\" --assignment "+a.Name,
			fmt.Sprintf("the reviewer proposed to FAIL %s: approving passes the change against that proposal", a.Name))
	}
	snap, err = a.Decide(ctx, d.Approve, d.Notes)
	if err != nil {
		return Result{}, err
	}
	r := snap.Request
	word, outcome := "Rejected", "failed"
	if d.Approve {
		word, outcome = "Approved", "passed"
	}
	text := fmt.Sprintf("%s: %s %s (round %s).", word, a.Name, outcome, r.RoundText())
	if proposed := r.ProposedVerdict; (proposed == protocol.VerdictPass) != d.Approve {
		text += fmt.Sprintf(" The reviewer had proposed %s; your decision overrides it.", strings.ToUpper(proposed))
	}
	if r.BlockedReason == protocol.BlockedStuck {
		text += "\n" + stuckNote
	}
	return Result{State: string(r.Status), Text: text,
		Data: decided{Assignment: a.Name, Approved: d.Approve, Request: r},
		Next: "nothing more for you; the implementer sees it with specdev work"}, nil
}

// decided is the data of a human's decision.
type decided struct {
	Approved   bool              `json:"approved"`
	Assignment string            `json:"assignment"`
	Request    *protocol.Request `json:"request"`
}

// awaitingApproval is the caller's assignment, or the only review
// awaiting approval.
func (s *Service) awaitingApproval() (*checkpoint.Assignment, error) {
	if s.Assignment != "" {
		return s.Store.Resolve(s.Assignment)
	}
	names, unreadable, err := s.AwaitingNames()
	switch {
	case err != nil:
		return nil, err
	case unreadable != nil:
		return nil, fmt.Errorf("cannot tell which reviews await approval: %w", unreadable)
	case len(names) == 0:
		return nil, &checkpoint.StateError{Msg: "no review is awaiting approval", Hint: "see specdev status"}
	case len(names) > 1:
		return nil, usage("name one: --assignment "+names[0], "several reviews await approval: "+strings.Join(names, ", "))
	}
	return s.Store.Assignment(names[0])
}

// AwaitingNames lists the reviews awaiting approval. unreadable is the
// error of the first assignment that could not be read: it may await
// approval too.
func (s *Service) AwaitingNames() (names []string, unreadable, err error) {
	entries, err := s.Store.Scan()
	if err != nil {
		return nil, nil, err
	}
	for _, e := range entries {
		if e.Request != nil && e.Request.Status == protocol.StatusAwaitingApproval {
			names = append(names, e.Name)
		}
		if e.Err != nil && unreadable == nil {
			unreadable = e.Err
		}
	}
	return names, unreadable, nil
}

// Awaiting lists the reviews that await a human's decision (or the one
// the caller names) with the commands that decide them; names is empty
// when nothing awaits. It never claims.
func (s *Service) Awaiting() (res Result, names []string, err error) {
	names, unreadable, err := s.AwaitingNames()
	switch {
	case err != nil:
		return Result{}, nil, err
	case s.Assignment != "":
		a, err := s.Store.Resolve(s.Assignment)
		if err != nil {
			return Result{}, nil, err
		}
		names = []string{a.Name}
	case unreadable != nil && len(names) == 0:
		return Result{}, nil, unreadable // it may be one that awaits a decision
	}
	if len(names) == 0 {
		return Result{State: "nothing_to_decide", Code: Waiting,
			Text: "No review is awaiting a human's decision.",
			Next: "nothing for you now; see everything with: specdev status",
			Data: awaitingData{Awaiting: []string{}}}, nil, nil
	}
	text := fmt.Sprintf("Awaiting a human's decision (%d):\n  %s\nDecide on a terminal with specdev decide, or with:\n"+
		"  specdev check approve --assignment %[3]s [--notes \"…\"]\n  specdev check reject --assignment %[3]s --reason \"…\"\n",
		len(names), strings.Join(names, "\n  "), names[0])
	return Result{State: "awaiting_approval", Code: Blocked, Text: text, Data: awaitingData{Awaiting: names},
		Next: "a human decides: specdev decide (on a terminal), or specdev check approve|reject --assignment " + names[0]}, names, nil
}

type awaitingData struct {
	Awaiting []string `json:"awaiting"`
}

// Proposal is a review awaiting a human's decision as a person reads it
// before deciding: the reviewer's proposal, summary and findings.
type Proposal struct {
	Assignment string
	Awaiting   bool   // false: it no longer awaits a decision
	Pass       bool   // the reviewer proposes to pass
	Text       string // for a person at a terminal
}

// Proposal reads the proposal of review name.
func (s *Service) Proposal(name string) (Proposal, error) {
	a, err := s.Store.Assignment(name)
	if err != nil {
		return Proposal{}, err
	}
	snap, err := a.Snapshot()
	if err != nil {
		return Proposal{}, err
	}
	r := snap.Request
	p := Proposal{Assignment: a.Name}
	if r == nil || r.Status != protocol.StatusAwaitingApproval {
		return p, nil
	}
	p.Awaiting, p.Pass = true, r.ProposedVerdict == protocol.VerdictPass
	var b strings.Builder
	findings := findingsOf(snap)
	fmt.Fprintf(&b, "\n%s (gate %s, round %s): the reviewer proposes %s (%s)\n", a.Name, r.Gate, r.RoundText(),
		strings.ToUpper(r.ProposedVerdict), protocol.Plural(len(findings), "finding"))
	writeLabelled(&b, "Summary", r.ReviewerNotes)
	writeFindings(&b, "  ", findings)
	fmt.Fprintf(&b, "Report: %s/%s\n", a.RelDir(), checkpoint.ReportFile)
	p.Text = b.String()
	return p, nil
}

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
	switch round := RoundWords(row); {
	case row.Stuck:
		n.Reason, n.Command = "stuck at round "+round+": its findings repeat the round before's", "work unblock"
	case row.Status == string(protocol.StatusBlocked):
		n.Reason, n.Command = "blocked at round "+round, "work unblock --rounds 1"
	case row.Paused:
		n.Reason, n.Command = "paused for a human after round "+round+" was rejected", "work continue"
	case row.Status == string(protocol.StatusAwaitingApproval):
		n.Reason, n.Command = "awaiting a human's decision on the reviewer's verdict", "decide"
	default:
		return n, false
	}
	n.Command = "specdev " + n.Command + " --assignment " + row.Assignment
	return n, true
}

// shownRound is the round a row is at in plain terms: a blocked loop is
// at the last round it used (its request already counts the next one).
func shownRound(row StatusRow) int {
	if row.Status == string(protocol.StatusBlocked) && row.MaxRounds > 0 && row.Round > row.MaxRounds {
		return row.Round - 1
	}
	return row.Round
}

// RoundWords is "2 of 3", or "2" when the request names no limit.
func RoundWords(row StatusRow) string {
	return roundOf(shownRound(row), row.MaxRounds)
}

// workContext adds to the implementer's view where the review's report
// is, and which other assignments wait for a human: someone who creates
// a new assignment folder (which work then shows) still learns that an
// older one awaits a decision.
func (s *Service) workContext(a *checkpoint.Assignment, view *Result, d *workData) {
	if _, err := os.Lstat(a.Dir + "/" + checkpoint.ReportFile); err == nil {
		d.Report = a.RelDir() + "/" + checkpoint.ReportFile
		addLine(view, "Report: "+d.Report)
	}
	d.OthersNeed = s.othersNeedingHuman(a.Name)
	for _, n := range d.OthersNeed { // "Also: 00003_x is awaiting a human's decision on the reviewer's verdict (specdev decide --assignment 00003_x)"
		addLine(view, fmt.Sprintf("Also: %s is %s (%s)", n.Assignment, n.Reason, n.Command))
	}
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
