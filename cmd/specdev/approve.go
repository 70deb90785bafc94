package main

import (
	"bufio"
	"fmt"
	"strings"

	"github.com/specdev/specdev/checkpoint"
	"github.com/specdev/specdev/protocol"
)

// CheckApproveCmd is a human's approval: the review passes.
type CheckApproveCmd struct {
	Notes string `help:"Notes for the implementer." placeholder:"TEXT"`
}

// Run approves the one review awaiting approval (or --assignment).
func (c *CheckApproveCmd) Run(app *App) error {
	if err := checkText("--notes", c.Notes, protocol.MaxTextLength); err != nil {
		return err
	}
	return decide(app, true, c.Notes)
}

// CheckRejectCmd is a human's rejection: the review fails.
type CheckRejectCmd struct {
	Reason string `help:"Why, for the implementer." placeholder:"TEXT"`
}

// Run rejects the one review awaiting approval (or --assignment).
func (c *CheckRejectCmd) Run(app *App) error {
	if err := checkText("--reason", c.Reason, protocol.MaxTextLength); err != nil {
		return err
	}
	return decide(app, false, c.Reason)
}

func decide(app *App, approve bool, notes string) error {
	a, err := awaitingApproval(app)
	if err != nil {
		return err
	}
	snap, err := a.Decide(app.ctx, approve, notes)
	if err != nil {
		return err
	}
	return app.emit(decisionResult(a, snap, approve))
}

func decisionResult(a *checkpoint.Assignment, snap checkpoint.Snapshot, approve bool) Result {
	r := snap.Request
	word, outcome := "Rejected", "failed"
	if approve {
		word, outcome = "Approved", "passed"
	}
	text := fmt.Sprintf("%s: %s %s (round %s).", word, a.Name, outcome, r.RoundText())
	if proposed := r.ProposedVerdict; (proposed == protocol.VerdictPass) != approve {
		text += fmt.Sprintf(" The reviewer had proposed %s; your decision overrides it.", strings.ToUpper(proposed))
	}
	return Result{State: string(r.Status), Text: text,
		Data: map[string]any{"assignment": a.Name, "approved": approve, "request": r},
		Next: "nothing more for you; the implementer sees it with specdev work"}
}

// awaitingApproval is --assignment, or the only review awaiting approval.
func awaitingApproval(app *App) (*checkpoint.Assignment, error) {
	st, err := app.Store()
	if err != nil {
		return nil, err
	}
	if app.Assignment != "" {
		return st.Resolve(app.Assignment)
	}
	names, err := awaitingNames(st)
	if err != nil {
		return nil, err
	}
	switch len(names) {
	case 0:
		return nil, &checkpoint.StateError{Msg: "no review is awaiting approval", Hint: "see specdev status"}
	case 1:
		return st.Assignment(names[0])
	}
	return nil, usage("name one: --assignment "+names[0],
		"several reviews await approval: "+strings.Join(names, ", "))
}

func awaitingNames(st *checkpoint.Store) ([]string, error) {
	entries, err := st.Scan()
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		if e.Request != nil && e.Request.Status == protocol.StatusAwaitingApproval {
			names = append(names, e.Name)
		}
	}
	return names, nil
}

// askApprovals shows a person at a terminal each review awaiting approval
// and asks for the decision. asked is false when none awaits.
func askApprovals(app *App, st *checkpoint.Store) (res Result, asked bool, err error) {
	names, err := awaitingNames(st)
	if err != nil || len(names) == 0 {
		return Result{}, false, err
	}
	in := bufio.NewReader(app.stdin)
	var lines []string
	for _, name := range names {
		a, err := st.Assignment(name)
		if err != nil {
			return Result{}, true, err
		}
		line, err := askOne(app, in, a)
		if err != nil {
			return Result{}, true, err
		}
		lines = append(lines, line)
	}
	return Result{State: "decided", Text: strings.Join(lines, "\n"), Data: map[string]any{"decisions": lines},
		Next: "poll for reviews to do: specdev check mode=manual"}, true, nil
}

func askOne(app *App, in *bufio.Reader, a *checkpoint.Assignment) (string, error) {
	snap, err := a.Snapshot()
	if err != nil {
		return "", err
	}
	if snap.Request == nil || snap.Request.Status != protocol.StatusAwaitingApproval {
		return a.Name + ": no longer awaiting approval", nil
	}
	r := snap.Request
	var b strings.Builder
	fmt.Fprintf(&b, "\n%s (gate %s, round %s): the reviewer proposes %s\n", a.Name, r.Gate, r.RoundText(), strings.ToUpper(r.ProposedVerdict))
	if r.ReviewerNotes != "" {
		fmt.Fprintf(&b, "Summary: %s\n", oneLine(r.ReviewerNotes))
	}
	writeFindings(&b, findingsOf(snap))
	fmt.Fprintf(&b, "Report: %s/%s\n", a.RelDir(), checkpoint.ReportFile)
	fmt.Fprint(app.stderr, b.String())
	for {
		fmt.Fprint(app.stderr, "Approve (the change passes), reject (it fails), or skip? [a/r/s] ")
		answer, err := in.ReadString('\n')
		switch strings.ToLower(strings.TrimSpace(answer)) {
		case "a", "approve":
			snap, err := a.Decide(app.ctx, true, "")
			return decisionResult(a, snap, true).Text, err
		case "r", "reject":
			fmt.Fprint(app.stderr, "Reason for the implementer: ")
			reason, _ := in.ReadString('\n')
			snap, err := a.Decide(app.ctx, false, strings.TrimSpace(reason))
			return decisionResult(a, snap, false).Text, err
		case "s", "skip":
			return a.Name + ": skipped, still awaiting approval", nil
		}
		if err != nil {
			return a.Name + ": no answer, still awaiting approval", nil
		}
	}
}
