package review

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/specdev/specdev/checkpoint"
	"github.com/specdev/specdev/protocol"
)

// A pre-flight gate is code from the branch under review, and the claim
// runs it on the reviewer's machine: it runs only once a person on that
// machine allowed it (Allow), as the gate is now: its command and the
// content of the project files the command names. Until then a claim
// gives the review back (pending, no round used) and exits BLOCKED: the
// review waits for a person, and nothing is malformed that an agent
// could fix. Agents are told not to run specdev allow themselves.

// allowData is the data of specdev allow.
type allowData struct {
	Project string            `json:"project"`
	Argv    []string          `json:"argv,omitempty"`
	Files   map[string]string `json:"files,omitempty"`
	Allowed bool              `json:"allowed"`
	Already bool              `json:"already,omitempty"`
	Revoked int               `json:"revoked,omitempty"`
}

// allowHint is what to do about a gate not allowed yet.
const allowHint = "a person (not an agent) reads the gate, then runs: specdev allow. An agent must never run specdev allow itself: stop and ask a person"

// Allow records this machine's consent to run the project's pre-flight
// gate as it is now; with revoke it removes every consent of the project.
func (s *Service) Allow(revoke bool) (Result, error) {
	argv := preflightArgv(s.Store)
	c, g, err := s.gateConsent(argv)
	if err != nil {
		return Result{}, err
	}
	if revoke {
		n, err := c.Revoke(g.Project)
		if err != nil {
			return Result{}, err
		}
		return Result{State: "revoked", Data: allowData{Project: g.Project, Revoked: n},
			Text: fmt.Sprintf("Revoked %s to run a pre-flight gate of %s on this machine: until a person allows it again, a claim here gives its review back.\n",
				protocol.Plural(n, "consent"), oneLine(g.Project)),
			Next: "to allow the gate again, a person reads it, then runs: specdev allow"}, nil
	}
	if len(argv) == 0 {
		return Result{}, &checkpoint.StateError{Msg: "no pre-flight gate is configured in " + oneLine(g.Project) + ": nothing to allow",
			Hint: `a gate is .specdev/verify-gates.sh, or "preflight" in .specdev/config.json`}
	}
	ok, _, _ := c.Allowed(g) // an unreadable consent is replaced
	head := "Already allowed"
	if !ok {
		if err := c.Allow(g, s.now()); err != nil {
			return Result{}, err
		}
		head = "Allowed"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s on this machine: the pre-flight gate of %s\n  command: %s\n", head, oneLine(g.Project), gateCommand(argv))
	for _, f := range slices.Sorted(maps.Keys(g.Files)) {
		fmt.Fprintf(&b, "  file:    %s (%s…)\n", oneLine(f), g.Files[f][:len("sha256:")+12])
	}
	b.WriteString("A change to its command or to the files above needs a person's consent again (specdev allow --revoke withdraws it).\n")
	return Result{State: "allowed", Text: b.String(),
		Data: allowData{Project: g.Project, Argv: argv, Files: g.Files, Allowed: true, Already: ok},
		Next: "the next claim runs the gate: specdev check --session ID"}, nil
}

// gateConsent is this machine's consent store and the gate argv as it is
// now.
func (s *Service) gateConsent(argv []string) (checkpoint.Consent, checkpoint.Gate, error) {
	dir, err := checkpoint.ConsentDir()
	if err != nil {
		return checkpoint.Consent{}, checkpoint.Gate{}, err
	}
	g, err := checkpoint.NewGate(s.Store.Root, argv)
	return checkpoint.Consent{Dir: dir}, g, err
}

// gateAllowed returns nil when a person allowed the gate argv here, else
// the *checkpoint.BlockedError that says so (without the hint's claim
// command), or why the consent could not be read.
func (s *Service) gateAllowed(argv []string) error {
	c, g, err := s.gateConsent(argv)
	if err != nil {
		return err
	}
	ok, last, err := c.Allowed(g)
	switch {
	case err != nil:
		return err
	case ok:
		return nil
	case last != nil:
		return &checkpoint.BlockedError{Msg: "pre-flight gate " + gateCommand(argv) + " changed since a person allowed it on this machine (" + gateChange(*last, g) + ")", Hint: allowHint}
	}
	return &checkpoint.BlockedError{Msg: "pre-flight gate " + gateCommand(argv) + " is not allowed to run on this machine", Hint: allowHint}
}

// gateCommand is the gate's argv, safe to print.
func gateCommand(argv []string) string { return oneLine(strings.Join(argv, " ")) }

// gateChange says how gate now differs from the one allowed before.
func gateChange(before, now checkpoint.Gate) string {
	if !slices.Equal(before.Argv, now.Argv) {
		return "its command was: " + gateCommand(before.Argv)
	}
	files := map[string]string{}
	maps.Copy(files, before.Files)
	maps.Copy(files, now.Files)
	var what []string
	for _, f := range slices.Sorted(maps.Keys(files)) {
		switch {
		case before.Files[f] == "":
			what = append(what, oneLine(f)+" is new")
		case now.Files[f] == "":
			what = append(what, oneLine(f)+" is gone")
		case before.Files[f] != now.Files[f]:
			what = append(what, "new content of "+oneLine(f))
		}
	}
	return strings.Join(what, ", ")
}

// giveBack releases a review whose gate may not or cannot run here
// (why), and returns the error that says so and what a person does.
func giveBack(ctx context.Context, a *checkpoint.Assignment, h checkpoint.Holder, reason string, why error) error {
	if _, err := a.Release(context.WithoutCancel(ctx), h, reason); err != nil {
		return err
	}
	given := "review " + a.Name + " was given back (pending) and no round was used"
	again := "claim it again: " + checkpoint.ClaimCommand(h.Session)
	var blocked *checkpoint.BlockedError
	var invalid *protocol.InvalidError
	switch {
	case errors.As(why, &blocked):
		return &checkpoint.BlockedError{Msg: blocked.Msg + "; " + given, Hint: blocked.Hint + ". Then " + again}
	case errors.As(why, &invalid):
		return &protocol.InvalidError{File: invalid.File, Field: invalid.Field, Problem: invalid.Problem + "; " + given, Hint: invalid.Hint + ", then " + again}
	}
	return fmt.Errorf("%s: %w", given, why)
}
