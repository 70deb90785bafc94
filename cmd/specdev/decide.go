package main

import (
	"bufio"
	"fmt"
	"strings"

	"github.com/specdev/specdev/review"
)

// DecideCmd is the human's command: decide the reviews that await a
// decision. It never claims a review.
type DecideCmd struct{}

// Run asks a person on a terminal about each review awaiting approval (or
// the one --assignment names); elsewhere it lists them with the commands
// that decide them.
func (c *DecideCmd) Run(app *App) error {
	return app.run(func(s *review.Service) (review.Result, error) {
		res, names, err := s.Awaiting()
		if err != nil || len(names) == 0 || !app.terminal {
			return res, err
		}
		return askApprovals(app, s, names)
	})
}

// askApprovals shows a person at a terminal each of the reviews and asks
// for the decision.
func askApprovals(app *App, s *review.Service, names []string) (review.Result, error) {
	in := bufio.NewReader(app.stdin)
	var lines []string
	for _, name := range names {
		line, err := askOne(app, in, s, name)
		if err != nil {
			return review.Result{}, err
		}
		lines = append(lines, line)
	}
	return review.Result{State: "decided", Text: strings.Join(lines, "\n"), Data: map[string]any{"decisions": lines},
		Next: "nothing more for you; the implementers see the decisions with specdev work"}, nil
}

// askOne frames the question around the reviewer's proposal: follow it,
// or override it (confirmed); a rejection needs a reason. Any other
// answer decides nothing: the review still awaits, and a rerun asks again.
func askOne(app *App, in *bufio.Reader, s *review.Service, name string) (string, error) {
	p, err := s.Proposal(name)
	if err != nil {
		return "", err
	}
	if !p.Awaiting {
		return p.Assignment + ": not awaiting a decision", nil
	}
	fmt.Fprint(app.stderr, p.Text)
	proposed, other := "fail", "pass"
	if p.Pass {
		proposed, other = "pass", "fail"
	}
	answer, _ := ask(app, in, "Your decision: [y] %s it as proposed, [o] %s it instead (override), [s] skip? ", proposed, other)
	pass := p.Pass
	switch strings.ToLower(answer) {
	case "y", "yes":
	case "o", "override": // confirmed, by typing the other word
		sure, _ := ask(app, in, "The reviewer proposed %s. Type %q to %s the change against that proposal: ", strings.ToUpper(proposed), other, other)
		if strings.ToLower(sure) != other {
			return p.Assignment + ": not confirmed, still awaiting a decision", nil
		}
		pass = !p.Pass
	default: // skip, no answer (the input ended) or one not understood: nothing is decided
		return p.Assignment + ": skipped, still awaiting a decision", nil
	}
	reason := "" // a rejection needs one: asked until it is given, or the input ends
	for !pass && reason == "" {
		var err error
		if reason, err = ask(app, in, "Reason for the implementer (required): "); reason == "" && err != nil {
			return p.Assignment + ": no reason given, still awaiting a decision", nil
		}
	}
	res, err := s.With(s.Session, s.Lease, p.Assignment).Decide(app.ctx, review.Decision{Approve: pass, Notes: reason, Override: true})
	if err != nil {
		return "", err
	}
	return res.Text, nil
}

// ask puts a question to the person on stderr and reads the answer,
// trimmed; err is set once the input has ended.
func ask(app *App, in *bufio.Reader, format string, args ...any) (string, error) {
	fmt.Fprintf(app.stderr, format, args...)
	answer, err := in.ReadString('\n')
	return strings.TrimSpace(answer), err
}
