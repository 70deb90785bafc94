package main

import (
	"time"

	"github.com/specdev/specdev/protocol"
	"github.com/specdev/specdev/review"
)

// CheckPollCmd is one reviewer poll: claim a review and print the briefing.
// Claiming is explicit: without a session id it only shows what there is.
type CheckPollCmd struct {
	Mode       string   `help:"Reviewer mode: auto (decide alone) or manual (a human approves the verdict). Switches a review you hold." placeholder:"auto|manual" predictor:"mode"`
	Timeout    Duration `help:"Wait up to this long for a review to claim (Go syntax or seconds: 120 = 2m)." placeholder:"D"`
	Force      bool     `help:"Take over a review another session holds even if it is not stale."`
	NewSession bool     `help:"Claim under a newly generated session id (instead of --session)."`
	Agent      string   `help:"Have this agent review what you claim (specdev agents lists them): specdev starts it, keeps its lease, resumes its session in later rounds." placeholder:"NAME"`
	Parallel   int      `help:"With --agent: up to N agents at once, each on its own review, claiming until --timeout." placeholder:"N"`
}

// Run claims the session's own review, a stale one, or the oldest
// pending. A person at a terminal in manual mode decides what awaits a
// decision first.
func (c *CheckPollCmd) Run(app *App) error {
	mode, err := parseMode(c.Mode)
	if err != nil {
		return err
	}
	if c.Agent != "" {
		return c.runAgent(app, mode)
	}
	if c.Parallel != 0 {
		return usage("add --agent NAME: --parallel is for agents specdev starts", "--parallel needs --agent")
	}
	return app.run(func(s *review.Service) (review.Result, error) {
		if app.terminal && mode == protocol.ModeManual {
			// an unreadable one (left out of names) is the poll's to report
			if names, _, err := s.AwaitingNames(); err != nil {
				return review.Result{}, err
			} else if len(names) > 0 {
				return askApprovals(app, s, names)
			}
		}
		return s.Claim(app.ctx, review.ClaimOptions{Mode: mode, Timeout: time.Duration(c.Timeout), Force: c.Force, NewSession: c.NewSession})
	})
}

// CheckReleaseCmd gives a review back with its progress kept.
type CheckReleaseCmd struct{}

// Run releases the session's review.
func (c *CheckReleaseCmd) Run(app *App) error {
	return app.run(func(s *review.Service) (review.Result, error) { return s.Release(app.ctx) })
}

// CheckApproveCmd is a human's approval: the review passes.
type CheckApproveCmd struct {
	Notes    string `help:"Notes for the implementer." placeholder:"TEXT"`
	Override bool   `help:"Pass the change although the reviewer proposed to fail it."`
}

// Run approves the one review awaiting approval (or --assignment).
func (c *CheckApproveCmd) Run(app *App) error {
	return app.run(func(s *review.Service) (review.Result, error) {
		return s.Decide(app.ctx, review.Decision{Approve: true, Notes: c.Notes, Override: c.Override})
	})
}

// CheckRejectCmd is a human's rejection: the review fails.
type CheckRejectCmd struct {
	Reason string `help:"Why, for the implementer (required)." placeholder:"TEXT"`
}

// Run rejects the one review awaiting approval (or --assignment).
func (c *CheckRejectCmd) Run(app *App) error {
	return app.run(func(s *review.Service) (review.Result, error) {
		return s.Decide(app.ctx, review.Decision{Notes: c.Reason})
	})
}

// GateCmd is the commit review gate: it passes only if every file a
// commit, a push or the branch carries is, content for content, what a
// passed review saw, in whichever loop.
type GateCmd struct {
	Gate    string `help:"The review gate to check (default: each loop's current request's gate, else review)." placeholder:"NAME"`
	Staged  bool   `help:"Check exactly what git commit would commit (the index), as the pre-commit hook does."`
	Group   string `help:"Only this group's loops count; without --staged or --pre-push, check that every assignment of it passed its gate and still matches its review." placeholder:"NAME"`
	PrePush string `name:"pre-push" help:"Check what git pushes to REMOTE: the refs git gives the pre-push hook, read from stdin (the installed hook passes them)." placeholder:"REMOTE"`
	Remote  string `help:"Judge by the passes this git remote holds (what reviewers pushed), not by the state files here: for CI." placeholder:"REMOTE"`
	Signers string `name:"allowed-signers" help:"With --remote: trust only passes whose commit a key in this ssh allowed-signers file signed (sign_verdicts)." placeholder:"FILE" type:"path"`
}

// Run judges what the gate covers now.
func (c *GateCmd) Run(app *App) error {
	return app.run(func(s *review.Service) (review.Result, error) {
		if c.PrePush != "" && app.terminal {
			return review.Result{}, usage("run it from the pre-push hook (specdev hook install pre-push), or pipe the lines in",
				"--pre-push reads the refs git pushes from stdin (\"<local ref> <local sha> <remote ref> <remote sha>\" lines)")
		}
		return groupWins(s, c.Group).Gate(app.ctx, review.GateOptions{Gate: c.Gate, Staged: c.Staged, Group: c.Group, PrePush: c.PrePush, Refs: app.stdin,
			Remote: c.Remote, AllowedSigners: c.Signers})
	})
}

// DoctorCmd checks the set-up and says, for each problem, the command
// that fixes it. It changes nothing.
type DoctorCmd struct{}

// Run runs every check.
func (c *DoctorCmd) Run(app *App) error {
	return app.emit(review.Doctor(app.ctx, review.Options{Dir: app.Dir}))
}

// AllowCmd is a person's consent to run the project's pre-flight gate on
// this machine: a gate is code from the branch under review.
type AllowCmd struct {
	Revoke bool `help:"Withdraw every consent to run a gate of this project on this machine."`
}

// Run records (or withdraws) the consent.
func (c *AllowCmd) Run(app *App) error {
	return app.run(func(s *review.Service) (review.Result, error) { return s.Allow(c.Revoke) })
}
