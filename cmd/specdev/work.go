package main

import (
	"os"
	"time"

	"github.com/specdev/specdev/protocol"
	"github.com/specdev/specdev/review"
)

// WorkShowCmd shows the review state and the one next step.
type WorkShowCmd struct {
	Mode    string   `help:"Switch the implementer's mode: auto (fix and re-request) or manual (pause for a human after a rejection)." placeholder:"auto|manual" predictor:"mode"`
	Timeout Duration `help:"Wait up to this long for a verdict or a human decision (Go syntax or seconds: 120 = 2m)." placeholder:"D"`
	Group   string   `help:"Show every loop of this group; with --timeout wait until every loop passed or one needs a human." placeholder:"NAME"`
}

// Run shows the state, after switching the mode and waiting if asked.
func (c *WorkShowCmd) Run(app *App) error {
	mode, err := parseMode(c.Mode)
	if err != nil {
		return err
	}
	return app.run(func(s *review.Service) (review.Result, error) {
		return groupWins(s, c.Group).Work(app.ctx, review.WorkOptions{Mode: mode, Timeout: time.Duration(c.Timeout), Group: c.Group})
	})
}

// WorkRequestCmd asks for a review.
type WorkRequestCmd struct {
	Notes string   `help:"Notes for the reviewer." placeholder:"TEXT"`
	Gate  string   `help:"Review gate name (default: the previous request's gate, else review)." placeholder:"NAME"`
	Base  string   `help:"Also review the commits since this revision (default: what the branch adds over its upstream or the default branch; in a later round, the range of the loop's previous request, so every round covers the whole change)." placeholder:"REV"`
	Files []string `help:"Review exactly these files (relative to the current folder, or absolute inside the project) instead of the changed ones; the loop keeps them as its own for its later requests." sep:"none" placeholder:"PATH" predictor:"file"`
	Mode  string   `help:"Implementer mode for this request: auto or manual (default: keep)." placeholder:"auto|manual" predictor:"mode"`

	// Staged reviews the index instead of the work tree (the per-commit flow).
	Staged bool `help:"Review exactly the staged change (what git commit would commit), not the work tree."`

	Group      string `help:"Put the assignment in this group of parallel loops (default: keep the previous request's group)." placeholder:"NAME"`
	Expect     int    `help:"With --group: the group has this many loops, and waits for them all (the first such request declares it)." placeholder:"N"`
	Checkpoint bool   `help:"A checkpoint review of work in progress: findings on the way, not a round of the loop and no pass of the gate."`
	Effort     string `help:"The loop's effort level, kept by its later requests: low, medium, high or max (round limit 2-5; high and max suggest checkpoint reviews). Default: config.json's." placeholder:"LEVEL" predictor:"effort"`
}

// Run collects the changed files and writes a pending request.
func (c *WorkRequestCmd) Run(app *App) error {
	mode, err := parseMode(c.Mode)
	if err != nil {
		return err
	}
	opt := review.RequestOptions{Notes: c.Notes, Gate: c.Gate, Base: c.Base, Files: c.Files, Mode: mode,
		Staged: c.Staged, Group: c.Group, Expect: c.Expect, Checkpoint: c.Checkpoint, Effort: c.Effort}
	return app.run(func(s *review.Service) (review.Result, error) { return s.Request(app.ctx, opt) })
}

// WorkContinueCmd lets a paused manual-mode implementer go on.
type WorkContinueCmd struct {
	Guidance string `help:"Guidance for the implementer, shown from now on." placeholder:"TEXT"`
}

// Run records the human's go-ahead.
func (c *WorkContinueCmd) Run(app *App) error {
	return app.run(func(s *review.Service) (review.Result, error) { return s.Continue(app.ctx, c.Guidance) })
}

// WorkUnblockCmd lifts a blocked review loop.
type WorkUnblockCmd struct {
	Rounds int `help:"How many more review rounds to allow." default:"1"`
}

// Run raises the round limit and re-queues the blocked request.
func (c *WorkUnblockCmd) Run(app *App) error {
	return app.run(func(s *review.Service) (review.Result, error) { return s.Unblock(app.ctx, c.Rounds) })
}

// WorkCancelCmd withdraws an active request.
type WorkCancelCmd struct{}

// Run cancels the request.
func (c *WorkCancelCmd) Run(app *App) error {
	return app.run(func(s *review.Service) (review.Result, error) { return s.Cancel(app.ctx) })
}

// parseMode checks a mode= / --mode value; empty means "keep".
func parseMode(s string) (protocol.Mode, error) {
	switch protocol.Mode(s) {
	case "", protocol.ModeAuto, protocol.ModeManual:
		return protocol.Mode(s), nil
	}
	return "", usage("use mode=auto or mode=manual", "unknown mode "+protocol.QuotePrefix(s)+": it must be auto or manual")
}

// groupWins drops the assignment SPECDEV_ASSIGNMENT names when --group is
// given: the variable is only a default, and an explicit --group says
// what the command is about (a --assignment flag still conflicts).
func groupWins(s *review.Service, group string) *review.Service {
	if group != "" && s.Assignment != "" && s.Assignment == os.Getenv("SPECDEV_ASSIGNMENT") {
		return s.With(s.Session, s.Lease, "")
	}
	return s
}
