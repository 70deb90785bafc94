package main

import (
	"fmt"
	"strings"

	"github.com/specdev/specdev/checkpoint"
	"github.com/specdev/specdev/protocol"
)

// CheckApproveCmd is a human's approval: the review passes.
type CheckApproveCmd struct {
	Notes    string `help:"Notes for the implementer." placeholder:"TEXT"`
	Override bool   `help:"Pass the change although the reviewer proposed to fail it."`
}

// Run approves the one review awaiting approval (or --assignment).
func (c *CheckApproveCmd) Run(app *App) error {
	if err := checkText("--notes", c.Notes, protocol.MaxTextLength); err != nil {
		return err
	}
	return decide(app, humanDecision{pass: true, notes: c.Notes, override: c.Override})
}

// CheckRejectCmd is a human's rejection: the review fails.
type CheckRejectCmd struct {
	Reason string `help:"Why, for the implementer (required)." placeholder:"TEXT"`
}

// Run rejects the one review awaiting approval (or --assignment).
func (c *CheckRejectCmd) Run(app *App) error {
	if err := checkText("--reason", c.Reason, protocol.MaxTextLength); err != nil {
		return err
	}
	if strings.TrimSpace(c.Reason) == "" {
		return usage(`say what must change: specdev check reject --reason "…"`,
			"a rejection needs a --reason: the implementer reads it to know what to fix")
	}
	return decide(app, humanDecision{pass: false, notes: c.Reason})
}

// humanDecision is what a person decided about a proposed verdict.
type humanDecision struct {
	pass     bool
	notes    string
	override bool // confirmed: passing a change the reviewer proposed to fail
}

func decide(app *App, d humanDecision) error {
	a, err := awaitingApproval(app)
	if err != nil {
		return err
	}
	snap, err := a.Snapshot()
	if err != nil {
		return err
	}
	if r := snap.Request; r != nil && d.pass && r.ProposedVerdict == protocol.VerdictFail && !d.override {
		return usage("to pass it anyway, confirm: specdev check approve --override --assignment "+a.Name+
			"; to agree with the reviewer: specdev check reject --reason \"…\" --assignment "+a.Name,
			fmt.Sprintf("the reviewer proposed to FAIL %s: approving passes the change against that proposal", a.Name))
	}
	snap, err = a.Decide(app.ctx, d.pass, d.notes)
	if err != nil {
		return err
	}
	return app.emit(decisionResult(a, snap, d.pass))
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
	names, unreadable, err := awaitingNames(st)
	if err != nil {
		return nil, err
	}
	if unreadable != nil {
		return nil, fmt.Errorf("cannot tell which reviews await approval: %w", unreadable)
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

// awaitingNames lists the reviews awaiting approval. unreadable is the
// error of the first assignment that could not be read: it may await
// approval too.
func awaitingNames(st *checkpoint.Store) (names []string, unreadable, err error) {
	entries, err := st.Scan()
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
