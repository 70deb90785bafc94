package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/specdev/specdev/checkpoint"
	"github.com/specdev/specdev/internal/changeset"
	"github.com/specdev/specdev/internal/watch"
	"github.com/specdev/specdev/protocol"
)

// pollInterval is the slow fallback poll of a waiting command; file
// notifications wake it sooner.
const pollInterval = 2 * time.Second

// WorkShowCmd shows the review state and the one next step.
type WorkShowCmd struct {
	Mode    string   `help:"Switch the implementer's mode: auto (fix and re-request) or manual (pause for a human after a rejection)." placeholder:"auto|manual" predictor:"mode"`
	Timeout Duration `help:"Wait up to this long for a verdict or a human decision (Go syntax or seconds: 120 = 2m)." placeholder:"D"`
	Group   string   `help:"Show every assignment of this group; with --timeout wait until no loop of it waits on a reviewer." placeholder:"NAME"`
}

// Run shows the state, after switching the mode and waiting if asked.
func (c *WorkShowCmd) Run(app *App) error {
	mode, err := parseMode(c.Mode)
	if err != nil {
		return err
	}
	if c.Group != "" {
		return c.runGroup(app, mode)
	}
	a, err := app.Target()
	if err != nil {
		return err
	}
	noRequest := false
	if mode != "" {
		_, err := a.SetMode(app.ctx, mode)
		if noRequest = errors.Is(err, protocol.ErrConflict); err != nil && !noRequest {
			return err
		}
	}
	view, err := waitForWork(app, a, time.Duration(c.Timeout))
	if err != nil {
		return err
	}
	view = suggestCheckpoint(app, view)
	view = workContext(app, a, view)
	if noRequest && view.State == "idle" {
		// there is no request to keep the mode in yet: carry it to the next step
		view.Text += fmt.Sprintf("\nMode %s applies from the first request.", mode)
		view.Next = fmt.Sprintf("when the work is ready: specdev work request --mode %s --notes \"…\"", mode)
	}
	return app.emit(view)
}

// waitForWork returns the state once the implementer has something to do,
// or when the timeout is up (then the waiting state itself).
func waitForWork(app *App, a *checkpoint.Assignment, timeout time.Duration) (Result, error) {
	var view Result
	look := func() (bool, time.Time, error) {
		snap, err := a.Fresh(app.ctx)
		if err != nil {
			return false, time.Time{}, err
		}
		var waiting bool
		view, waiting = workView(a, snap, app.now(), app.store.StaleAfter())
		return !waiting, time.Time{}, nil
	}
	if timeout <= 0 {
		_, _, err := look()
		return view, err
	}
	ctx, cancel := context.WithTimeout(app.ctx, timeout)
	defer cancel()
	look = announceWait(app, "a verdict or a human's decision on "+a.Name, timeout, look)
	err := watch.Wait(ctx, func() []string { return []string{a.Dir} }, pollInterval, look)
	if errors.Is(err, context.DeadlineExceeded) {
		err = nil
	}
	return view, err
}

// WorkRequestCmd asks for a review.
type WorkRequestCmd struct {
	Notes string   `help:"Notes for the reviewer." placeholder:"TEXT"`
	Gate  string   `help:"Review gate name (default: the previous request's gate, else review)." placeholder:"NAME"`
	Base  string   `help:"Also review the commits since this revision (default: what the branch adds over its upstream or the default branch; in a later round, the range of the loop's previous request, so every round covers the whole change)." placeholder:"REV"`
	Files []string `help:"Review exactly these files (relative to the current folder, or absolute inside the project) instead of the changed ones." sep:"none" placeholder:"PATH" predictor:"file"`
	Mode  string   `help:"Implementer mode for this request: auto or manual (default: keep)." placeholder:"auto|manual" predictor:"mode"`

	// Staged reviews the index instead of the work tree (the per-commit flow).
	Staged bool `help:"Review exactly the staged change (what git commit would commit), not the work tree."`

	Group      string `help:"Put the assignment in this group of parallel loops (default: keep the previous request's group)." placeholder:"NAME"`
	Checkpoint bool   `help:"A checkpoint review of work in progress: findings on the way, not a round of the loop and no pass of the gate."`
}

// Run collects the changed files and writes a pending request.
func (c *WorkRequestCmd) Run(app *App) error {
	mode, err := parseMode(c.Mode)
	if err != nil {
		return err
	}
	if err := c.checkFlags(); err != nil {
		return err
	}
	a, err := app.Target()
	if err != nil {
		return err
	}
	snap, err := a.Snapshot()
	if err != nil {
		return err
	}
	in, err := c.collect(app, snap)
	if err != nil {
		return err
	}
	in.Mode, in.Group, in.Checkpoint = mode, c.Group, c.Checkpoint
	r, err := a.RequestReview(app.ctx, in)
	if err != nil {
		return err
	}
	return app.emit(requestedView(a, r))
}

// collect works out what to review: the changed files, their digests and
// fingerprint, the head commit and the range. Round 1 reviews what the
// branch adds; a later round the whole change again (the previous
// request's range and files, plus the files with open findings: the
// claim narrows a follow-up to what changed since); --staged exactly the
// staged change.
func (c *WorkRequestCmd) collect(app *App, snap checkpoint.Snapshot) (checkpoint.NewRequest, error) {
	root := app.store.Root
	later := laterRound(snap, c.Gate)
	base, since := c.Base, c.Base
	if base == "" && later && !c.Staged {
		// every round covers the whole change: the range of the loop's first
		// request; the claim works out what changed since the last review.
		// --staged is exactly the staged change, in any round.
		base, since = roundBase(app, snap)
	}
	res, err := changeset.Collect(app.ctx, changeset.Options{Root: root, Base: base, Files: c.Files, Cwd: workingDir(), Staged: c.Staged, Branch: base == ""})
	if err != nil {
		return checkpoint.NewRequest{}, err
	}
	files := res.Files
	if c.Files == nil && !c.Staged {
		files = withOpenFindings(root, files, snap)
		if later {
			files = withEarlierFiles(root, files, snap, requestGate(snap, c.Gate))
		}
	}
	if len(files) == 0 {
		return checkpoint.NewRequest{}, nothingToReview(app.ctx, root, res, since, c.Staged)
	}
	sums, err := digestFiles(app.ctx, root, files, c.Staged)
	if err != nil {
		return checkpoint.NewRequest{}, err
	}
	carried, err := carriedDigests(app.ctx, root, snap, requestGate(snap, c.Gate), files, res.InGit)
	if err != nil {
		return checkpoint.NewRequest{}, err
	}
	in := checkpoint.NewRequest{Gate: c.Gate, Notes: c.Notes, HeadCommit: res.HeadCommit, ChangedFiles: files, Fingerprint: sums.Fingerprint,
		Coverage: checkpoint.Coverage{BaseCommit: res.Base, Staged: c.Staged, FileDigests: sums.Files, CarriedDigests: carried}}
	if res.InGit && !c.Staged {
		if in.Snapshot, err = changeset.Snapshot(app.ctx, root, files); err != nil {
			return checkpoint.NewRequest{}, err
		}
	}
	if later {
		in.Delta = requestDelta(app.ctx, root, snap, requestGate(snap, c.Gate), in, res.InGit)
	}
	return in, nil
}

// withOpenFindings adds, after a rejection, the files that had findings
// (and still exist), so the reviewer checks they were fixed.
func withOpenFindings(root string, files []string, snap checkpoint.Snapshot) []string {
	if !snap.Current() || snap.Request.Status != protocol.StatusFailed {
		return files
	}
	seen := map[string]bool{}
	for _, f := range files {
		seen[f] = true
	}
	for _, f := range findingsOf(snap) {
		if f.File == "" || seen[f.File] || changeset.CheckFile(root, f.File) != nil {
			continue
		}
		if _, err := os.Stat(filepath.Join(root, f.File)); err == nil {
			seen[f.File] = true
			files = append(files, f.File)
		}
	}
	return sortedCopy(files)
}

func requestedView(a *checkpoint.Assignment, r *protocol.Request) Result {
	var b strings.Builder
	b.WriteString(requestHeading(a, r))
	if r.HeadCommit != "" {
		fmt.Fprintf(&b, "Head: %s\n", short(r.HeadCommit))
	}
	writeRange(&b, r)
	fmt.Fprintf(&b, "Files (%d):\n", len(r.ChangedFiles))
	for _, f := range r.ChangedFiles {
		fmt.Fprintf(&b, "  %s\n", f)
	}
	return Result{
		State: string(r.Status),
		Data:  map[string]any{"assignment": a.Name, "request": r},
		Text:  b.String(),
		Next:  "wait for the verdict: specdev work --timeout 10m",
	}
}

// WorkContinueCmd lets a paused manual-mode implementer go on.
type WorkContinueCmd struct {
	Guidance string `help:"Guidance for the implementer, shown from now on." placeholder:"TEXT"`
}

// Run records the human's go-ahead.
func (c *WorkContinueCmd) Run(app *App) error {
	if err := c.checkFlags(); err != nil {
		return err
	}
	a, err := app.Target()
	if err != nil {
		return err
	}
	r, err := a.Continue(app.ctx, c.Guidance)
	if err != nil {
		return err
	}
	text := fmt.Sprintf("Continuing %s after the rejection of round %d.", a.Name, r.Round)
	if r.Guidance != "" {
		text += "\nGuidance: " + oneLine(r.Guidance)
	}
	return app.emit(Result{State: "continued", Data: map[string]any{"assignment": a.Name, "request": r}, Text: text,
		Next: "the implementer fixes the findings (specdev work shows them), then runs: specdev work request"})
}

// WorkUnblockCmd lifts a blocked review loop.
type WorkUnblockCmd struct {
	Rounds int `help:"How many more review rounds to allow." default:"1"`
}

// Run raises the round limit and re-queues the blocked request.
func (c *WorkUnblockCmd) Run(app *App) error {
	if err := c.checkFlags(); err != nil {
		return err
	}
	a, err := app.Target()
	if err != nil {
		return err
	}
	r, err := a.Unblock(app.ctx, c.Rounds)
	if err != nil {
		return err
	}
	return app.emit(Result{State: string(r.Status), Data: map[string]any{"assignment": a.Name, "request": r},
		Text: fmt.Sprintf("Unblocked %s: round %s is pending review.", a.Name, r.RoundText()),
		Next: "wait for the verdict: specdev work --timeout 10m"})
}

// WorkCancelCmd withdraws an active request.
type WorkCancelCmd struct{}

// Run cancels the request.
func (c *WorkCancelCmd) Run(app *App) error {
	a, err := app.Target()
	if err != nil {
		return err
	}
	r, err := a.Cancel(app.ctx)
	if err != nil {
		return err
	}
	return app.emit(Result{State: string(r.Status), Data: map[string]any{"assignment": a.Name, "request": r},
		Text: fmt.Sprintf("Cancelled the review request of %s (round %d).", a.Name, r.Round),
		Next: askAgainNext(r)})
}

// askAgainNext is the next step after a cancel: ask again, and if the
// gate's loop has used all its rounds, that the request will wait blocked
// for a human (a cancel does not reset the loop).
func askAgainNext(r *protocol.Request) string {
	next := "when ready, ask again: specdev work request"
	if loop, open := checkpoint.OpenLoop(r, r.Gate); open && loop.RoundsFailed >= loop.MaxRounds {
		next += fmt.Sprintf(" (the loop has used its %s, so the request waits blocked until a human runs specdev work unblock --rounds 1)",
			plural(loop.MaxRounds, "round"))
	}
	return next
}
