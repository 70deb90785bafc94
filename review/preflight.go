package review

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/specdev/specdev/checkpoint"
	"github.com/specdev/specdev/internal/preflight"
	"github.com/specdev/specdev/protocol"
)

// preflightFailed is the data of a claim whose pre-flight gate failed.
type preflightFailed struct {
	Assignment string                   `json:"assignment"`
	Preflight  protocol.PreflightResult `json:"preflight"`
	Request    *protocol.Request        `json:"request"`
	Session    string                   `json:"session"`
}

// preflightArgv is the configured gate, or .specdev/verify-gates.sh when
// it exists, as the user wrote it (runPreflight resolves a relative
// program from the project root).
func preflightArgv(st *checkpoint.Store) []string {
	if len(st.Config.Preflight) > 0 {
		return slices.Clone(st.Config.Preflight)
	}
	if !fileExists(filepath.Join(st.Dir, protocol.DefaultPreflightScript)) {
		return nil
	}
	return []string{filepath.ToSlash(filepath.Join(protocol.StateDir, protocol.DefaultPreflightScript))}
}

func (s *Service) runPreflight(ctx context.Context, a *checkpoint.Assignment, claim *checkpoint.Claim, generated bool) (Result, error) {
	st := s.Store
	argv := preflightArgv(st)
	h := checkpoint.Holder{Session: claim.Progress.SessionID, Lease: claim.Lease}
	if err := s.gateAllowed(argv); err != nil { // nothing ran: no round is used
		return Result{}, giveBack(ctx, a, h, "gate_not_allowed", err)
	}
	run := append([]string{}, argv...)
	if strings.Contains(run[0], "/") && !filepath.IsAbs(run[0]) {
		run[0] = filepath.Join(st.Root, run[0]) // the gate a person allowed, whichever worktree it runs in
	}
	dir, err := st.CheckoutOf(claim.Request)
	if err != nil {
		return Result{}, giveBack(ctx, a, h, "worktree_gone", err)
	}
	var ran preflight.Result
	var record []byte
	// The lease is renewed while the gate runs; if the review is taken
	// over anyway (--force), the gate is stopped at once.
	lost := a.KeepAlive(ctx, h, func(ctx context.Context) {
		ran = preflight.Run(ctx, dir, run, time.Duration(st.Config.PreflightTimeout), func(g preflight.Group) {
			record = s.recordGate(a, g)
		})
	})
	a.ClearGateRun(record)
	if lost != nil {
		return Result{}, fmt.Errorf("the pre-flight gate was stopped: %w", lost)
	}
	if ctx.Err() != nil {
		return Result{}, releaseInterrupted(ctx, a, h)
	}
	if ran.NotStarted() { // set-up, not the change: no round is used
		return Result{}, giveBack(ctx, a, h, "setup", &protocol.InvalidError{File: "pre-flight gate " + gateName(argv),
			Problem: "cannot start: " + oneLine(ran.Error), Hint: gateFix(argv, ran.Setup)})
	}
	res := ran.PreflightResult
	res.Command, res.At = argv, protocol.At(s.now())
	snap, err := a.PreflightDone(ctx, h, res)
	if err != nil {
		return Result{}, err
	}
	claim.Request, claim.Progress = snap.Request, snap.Progress
	if res.Passed {
		return briefing(a, claim, generated, s.workingDir()), nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Pre-flight gate failed for %s (round %s): handed back to the implementer at once, no reviewer effort or round spent.\n",
		a.Name, snap.Request.RoundText())
	writePreflightFailure(&b, &res)
	return Result{State: "preflight_failed", Text: b.String(),
		Data: preflightFailed{Assignment: a.Name, Session: claim.Progress.SessionID, Preflight: res, Request: snap.Request},
		Next: "pick up the next review: " + checkpoint.ClaimCommand(claim.Progress.SessionID)}, nil
}

// recordGate records the running gate's process group in the assignment
// folder and returns the record, for endOrphanGate should this process be
// killed; a record that cannot be written is logged, and the gate runs.
func (s *Service) recordGate(a *checkpoint.Assignment, g preflight.Group) []byte {
	data, _ := json.Marshal(g)
	if err := a.SetGateRun(data); err != nil {
		s.Log.Warnf("record the running gate of %s: %v", a.Name, err)
		return nil
	}
	return data
}

// endOrphanGate ends what is left of a gate that a killed specdev ran for
// this review (its process group), so that the gate the claim runs next
// is the only one.
func (s *Service) endOrphanGate(a *checkpoint.Assignment) {
	data, err := a.GateRun()
	if err != nil || data == nil {
		return
	}
	var g preflight.Group
	if json.Unmarshal(data, &g) != nil || preflight.Reap(g) {
		a.ClearGateRun(data)
	}
}

// releaseInterrupted gives back a review whose gate a signal stopped: an
// interrupted gate is neither a pass nor a failure, and the review must
// not stay stuck in its preflight phase. The next claim runs it again.
func releaseInterrupted(ctx context.Context, a *checkpoint.Assignment, h checkpoint.Holder) error {
	if _, err := a.Release(context.WithoutCancel(ctx), h, "interrupted"); err != nil {
		return err
	}
	return &StoppedError{"the pre-flight gate was stopped and the review given back (pending); the next specdev check runs the gate again"}
}

// A gate that cannot even start (not found, not executable, its
// interpreter missing) says nothing about the change: it is a set-up
// problem. The review is given back instead of failed, so no round is
// used, and check exits INVALID naming the gate and the fix; the next
// check after the fix runs the gate again.

// gateName is the gate's program as the user wrote it, safe to print
// (preflightArgv is never empty when there is a gate).
func gateName(argv []string) string { return oneLine(argv[0]) }

// gateFix is the fix for a gate that cannot start, where the message
// does not say it already ("check the #! line"). The default gate,
// verify-gates.sh, is used only when it exists: one not found is the
// configured gate.
func gateFix(argv []string, problem preflight.Problem) string {
	const config = `"preflight" in .specdev/config.json`
	switch gate := gateName(argv); problem {
	case preflight.NotExecutable:
		return "make it executable: chmod +x " + gate
	case preflight.NotFound:
		return "fix " + config + ": " + gate + " does not exist (a relative path is read from the project root)"
	case preflight.NotInPath:
		return "install " + gate + ", or name the program by its path in " + config
	}
	return "make the gate start"
}

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
	if err != nil || ok {
		return err
	}
	why := "is not allowed to run on this machine"
	if last != nil {
		why = "changed since a person allowed it on this machine (" + gateChange(*last, g) + ")"
	}
	return &checkpoint.BlockedError{Msg: "pre-flight gate " + gateCommand(argv) + " " + why, Hint: allowHint}
}

// gateCommand is the gate's argv, safe to print.
func gateCommand(argv []string) string { return oneLine(strings.Join(argv, " ")) }

// gateChange says how gate now differs from the one allowed before: its
// command, or the files it names (changed, new or gone alike: the person
// reads the gate again either way).
func gateChange(before, now checkpoint.Gate) string {
	if !slices.Equal(before.Argv, now.Argv) {
		return "its command was: " + gateCommand(before.Argv)
	}
	files := maps.Clone(before.Files)
	maps.Copy(files, now.Files)
	var differ []string
	for _, f := range slices.Sorted(maps.Keys(files)) {
		if before.Files[f] != now.Files[f] {
			differ = append(differ, oneLine(f))
		}
	}
	return "files that differ: " + strings.Join(differ, ", ")
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
