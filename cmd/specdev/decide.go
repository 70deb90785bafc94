package main

import (
	"bufio"
	"fmt"
	"strings"

	"github.com/specdev/specdev/checkpoint"
	"github.com/specdev/specdev/protocol"
)

// DecideCmd is the human's command: decide the reviews that await a
// decision. It never claims a review.
type DecideCmd struct{}

// Run asks a person on a terminal about each review awaiting approval (or
// the one --assignment names); elsewhere it lists them with the commands
// that decide them.
func (c *DecideCmd) Run(app *App) error {
	st, err := app.Store()
	if err != nil {
		return err
	}
	names, unreadable, err := awaitingNames(st)
	if err != nil {
		return err
	}
	if unreadable != nil && len(names) == 0 && app.Assignment == "" {
		return unreadable // it may be one that awaits a decision
	}
	if app.Assignment != "" {
		a, err := st.Resolve(app.Assignment)
		if err != nil {
			return err
		}
		names = []string{a.Name}
	}
	if len(names) == 0 {
		return app.emit(Result{State: "nothing_to_decide", Code: exitWaiting,
			Text: "No review is awaiting a human's decision.",
			Next: "nothing for you now; see everything with: specdev status",
			Data: map[string]any{"awaiting": []string{}}})
	}
	if !app.terminal {
		return app.emit(awaitingList(names))
	}
	res, err := askApprovals(app, st, names)
	if err != nil {
		return err
	}
	return app.emit(res)
}

// awaitingList is decide's answer where nobody can be asked (no
// terminal): what awaits, and the commands that decide it.
func awaitingList(names []string) Result {
	var b strings.Builder
	fmt.Fprintf(&b, "Awaiting a human's decision (%d):\n", len(names))
	for _, n := range names {
		fmt.Fprintf(&b, "  %s\n", n)
	}
	b.WriteString("Decide on a terminal with specdev decide, or with:\n")
	fmt.Fprintf(&b, "  specdev check approve --assignment %s [--notes \"…\"]\n", names[0])
	fmt.Fprintf(&b, "  specdev check reject --assignment %s --reason \"…\"\n", names[0])
	return Result{State: "awaiting_approval", Code: exitBlocked, Text: b.String(),
		Data: map[string]any{"awaiting": names},
		Next: "a human decides: specdev decide (on a terminal), or specdev check approve|reject --assignment " + names[0]}
}

// askApprovals shows a person at a terminal each of the reviews and asks
// for the decision.
func askApprovals(app *App, st *checkpoint.Store, names []string) (Result, error) {
	in := bufio.NewReader(app.stdin)
	var lines []string
	for _, name := range names {
		a, err := st.Assignment(name)
		if err != nil {
			return Result{}, err
		}
		line, err := askOne(app, in, a)
		if err != nil {
			return Result{}, err
		}
		lines = append(lines, line)
	}
	return Result{State: "decided", Text: strings.Join(lines, "\n"), Data: map[string]any{"decisions": lines},
		Next: "nothing more for you; the implementers see the decisions with specdev work"}, nil
}

// askOne frames the question around the reviewer's proposal: follow it,
// or override it (confirmed); a rejection needs a reason.
func askOne(app *App, in *bufio.Reader, a *checkpoint.Assignment) (string, error) {
	snap, err := a.Snapshot()
	if err != nil {
		return "", err
	}
	if snap.Request == nil || snap.Request.Status != protocol.StatusAwaitingApproval {
		return a.Name + ": not awaiting a decision", nil
	}
	showProposal(app, a, snap)
	proposedPass := snap.Request.ProposedVerdict == protocol.VerdictPass
	follow, other := "fail it as proposed", "pass it instead"
	if proposedPass {
		follow, other = "pass it as proposed", "fail it instead"
	}
	for {
		fmt.Fprintf(app.stderr, "Your decision: [y] %s, [o] %s (override), [s] skip? ", follow, other)
		answer, err := in.ReadString('\n')
		var pass bool
		switch strings.ToLower(strings.TrimSpace(answer)) {
		case "y", "yes":
			pass = proposedPass
		case "o", "override":
			if !confirm(app, in, proposedPass) {
				continue
			}
			pass = !proposedPass
		case "s", "skip":
			return a.Name + ": skipped, still awaiting a decision", nil
		default:
			if err != nil {
				return a.Name + ": no answer, still awaiting a decision", nil
			}
			continue
		}
		reason := ""
		if !pass {
			if reason = askReason(app, in); reason == "" {
				return a.Name + ": no reason given, still awaiting a decision", nil
			}
		}
		snap, err := a.Decide(app.ctx, pass, reason)
		if err != nil {
			return "", err
		}
		return decisionResult(a, snap, pass).Text, nil
	}
}

func showProposal(app *App, a *checkpoint.Assignment, snap checkpoint.Snapshot) {
	r := snap.Request
	var b strings.Builder
	findings := findingsOf(snap)
	fmt.Fprintf(&b, "\n%s (gate %s, round %s): the reviewer proposes %s (%s)\n", a.Name, r.Gate, r.RoundText(),
		strings.ToUpper(r.ProposedVerdict), plural(len(findings), "finding"))
	if r.ReviewerNotes != "" {
		fmt.Fprintf(&b, "Summary: %s\n", oneLine(r.ReviewerNotes))
	}
	writeFindings(&b, findings)
	fmt.Fprintf(&b, "Report: %s/%s\n", a.RelDir(), checkpoint.ReportFile)
	fmt.Fprint(app.stderr, b.String())
}

// confirm asks a person to confirm overriding the reviewer.
func confirm(app *App, in *bufio.Reader, proposedPass bool) bool {
	proposed, word := "FAIL", "pass"
	if proposedPass {
		proposed, word = "PASS", "fail"
	}
	fmt.Fprintf(app.stderr, "The reviewer proposed %s. Type %q to %s the change against that proposal: ", proposed, word, word)
	answer, _ := in.ReadString('\n')
	return strings.TrimSpace(strings.ToLower(answer)) == word
}

// askReason asks for the reason of a rejection until one is given; ""
// when the input ends first.
func askReason(app *App, in *bufio.Reader) string {
	for {
		fmt.Fprint(app.stderr, "Reason for the implementer (required): ")
		reason, err := in.ReadString('\n')
		if r := strings.TrimSpace(reason); r != "" {
			return r
		}
		if err != nil {
			return ""
		}
	}
}
