package review

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/specdev/specdev/checkpoint"
	"github.com/specdev/specdev/internal/changeset"
	"github.com/specdev/specdev/protocol"
)

// pollInterval is the slow fallback poll of a waiting command; file
// notifications wake it sooner.
const pollInterval = 2 * time.Second

// WorkOptions says what the implementer's view shows.
type WorkOptions struct {
	Mode    protocol.Mode // switch the implementer's mode first ("": keep)
	Timeout time.Duration // wait up to this long for a verdict or a human decision
	Group   string        // show every assignment of this group instead
}

// Work is the implementer's view: the review state and the one next
// step, after switching the mode and waiting if asked.
func (s *Service) Work(ctx context.Context, c WorkOptions) (Result, error) {
	if c.Group != "" {
		return s.workGroup(ctx, c)
	}
	a, err := s.Target()
	if err != nil {
		return Result{}, err
	}
	noRequest := false
	if c.Mode != "" {
		_, err := a.SetMode(ctx, c.Mode)
		if noRequest = errors.Is(err, protocol.ErrConflict); err != nil && !noRequest {
			return Result{}, err
		}
	}
	view, err := s.waitForWork(ctx, a, c.Timeout)
	if err != nil {
		return Result{}, err
	}
	d := view.Data.(workData)
	s.changedSincePass(ctx, &view, &d)
	s.suggestCheckpoint(ctx, &view, &d)
	s.workContext(a, &view, &d)
	view.Text = strings.TrimRight(view.Text, "\n") + modeLine(d, c.Mode != "" && !noRequest)
	view.Data = d
	if noRequest && view.State == "idle" {
		// there is no request to keep the mode in yet: carry it to the next step
		view.Text += fmt.Sprintf("\nMode %s applies from the first request.", c.Mode)
		view.Next = fmt.Sprintf("when the work is ready: specdev work request --mode %s --notes \"…\"", c.Mode)
	}
	return view, nil
}

// modeLine says the implementer's mode and what it means, in every
// view of a request: a switch is confirmed, never silent.
func modeLine(d workData, switched bool) string {
	if d.Request == nil {
		return ""
	}
	word := map[bool]string{false: "Mode", true: "Mode switched to"}[switched]
	if d.Request.Mode == protocol.ModeManual {
		return fmt.Sprintf("\n%s manual: after a rejection you pause until a human runs specdev work continue.", word)
	}
	return fmt.Sprintf("\n%s auto: after a rejection you fix the findings and ask again yourself.", word)
}

// waitForWork returns the state once the implementer has something to do,
// or when the timeout is up (then the waiting state itself).
func (s *Service) waitForWork(ctx context.Context, a *checkpoint.Assignment, timeout time.Duration) (Result, error) {
	var view Result
	seen := false // a request was there: one gone since was removed, not never made
	err := s.waitFor(ctx, "a verdict or a human's decision on "+a.Name, timeout, func() []string { return []string{a.Dir} }, nil,
		func(ctx context.Context) (bool, time.Time, error) {
			snap, err := a.Fresh(ctx)
			if err != nil {
				return false, time.Time{}, err
			}
			if seen && snap.Request == nil {
				return false, time.Time{}, &checkpoint.StateError{
					Msg:  fmt.Sprintf("%s/%s is gone: it was removed while waiting for the verdict", a.RelDir(), protocol.RequestFile),
					Hint: "restore it if that was a mistake (e.g. from git), or ask for a review again: specdev work request"}
			}
			seen = snap.Request != nil
			var waiting bool
			view, waiting = workView(a, snap, s.now(), s.Store.StaleAfter())
			return !waiting, time.Time{}, nil
		})
	return view, err
}

// RequestOptions is what the implementer asks to have reviewed.
type RequestOptions struct {
	Notes      string        // for the reviewer
	Gate       string        // review gate ("": the previous request's gate, else review)
	Base       string        // also review the commits since this revision
	Files      []string      // review exactly these files (read from the caller's folder as git reads paths)
	Mode       protocol.Mode // implementer mode ("": keep)
	Staged     bool          // review exactly the staged change, not the work tree
	Group      string        // put the assignment in this group of parallel loops ("": keep)
	Expect     int           // with Group: the group waits for this many loops (declared by the first request)
	Checkpoint bool          // a checkpoint review of work in progress: no round, no pass of the gate
	Effort     string        // the loop's effort level: low, medium, high, max ("": keep, else config.json's)
}

// Request collects the changed files and writes a pending request.
func (s *Service) Request(ctx context.Context, c RequestOptions) (Result, error) {
	if err := c.check(); err != nil {
		return Result{}, err
	}
	a, err := s.Target()
	if err != nil {
		return Result{}, err
	}
	snap, err := a.Fresh(ctx) // with a remote: what the reviewer decided there
	if err != nil {
		return Result{}, err
	}
	join := c.Group != ""
	if !join { // a declared loop's request names its group; a later one keeps its loop's
		if c.Group, err = s.declaredGroupOf(a.Name); err != nil {
			return Result{}, err
		}
		if c.Group == "" && snap.Request != nil {
			c.Group = snap.Request.Group
		}
	}
	in, left, err := s.collect(ctx, c, snap, a.Name)
	if err != nil {
		return Result{}, err
	}
	if join {
		if err := s.joinGroup(ctx, a.Name, c.Group, c.Expect); err != nil {
			return Result{}, err
		}
	}
	in.Mode, in.Group, in.Checkpoint, in.Effort, in.Worktree = c.Mode, c.Group, c.Checkpoint, c.Effort, s.Store.Worktree(s.here())
	if c.Files != nil {
		in.FileSet = in.ChangedFiles
	}
	r, err := a.RequestReview(ctx, in)
	if err != nil {
		return Result{}, err
	}
	return requestedView(a, r, left), nil
}

// nothingToReview is the error for a request that found no files. Its
// hint never repeats the request that failed: it names only --base
// revisions that were tried and find something.
func nothingToReview(ctx context.Context, root string, res changeset.Result, base string, staged bool) error {
	if staged {
		return usage("stage the change to commit (git add <file>…), then run: specdev work request --staged",
			"nothing to review: nothing is staged outside .specdev/")
	}
	msg := "nothing to review: nothing outside .specdev/ is uncommitted or untracked, and "
	switch {
	case base != "":
		msg += "no commit since " + base + " changes a file there"
	case res.Branch == nil:
		msg += "there is no upstream or default branch (origin/HEAD, main, master) to compare HEAD with"
	case changeset.CurrentBranch(ctx, root) == res.Branch.Ref:
		msg = "nothing to review: you are on the default branch " + res.Branch.Ref + " and nothing outside .specdev/ is uncommitted or untracked"
	default:
		msg += cmp.Or(changeset.CurrentBranch(ctx, root), "HEAD") + " adds no commits over " + res.Branch.Ref
	}
	hints, err := changeset.BaseHints(ctx, root)
	if err != nil {
		return err
	}
	var ways []string
	for _, h := range hints {
		ways = append(ways, fmt.Sprintf("to review %s: specdev work request --base %s", h.What, h.Rev))
	}
	return usage(strings.Join(append(ways, "name the files: specdev work request --files PATH"), "; or "), msg)
}

func requestedView(a *checkpoint.Assignment, r *protocol.Request, left heldFiles) Result {
	var b strings.Builder
	what := fmt.Sprintf("gate %s, round %s", r.Gate, r.RoundText())
	if r.Group != "" {
		what += ", group " + r.Group
	}
	if r.Checkpoint { // see checkpointView
		fmt.Fprintf(&b, "Checkpoint review requested: %s (%s; not a round: the loop and the gate do not count it)\n", a.Name, what)
	} else {
		fmt.Fprintf(&b, "Review requested: %s (%s)\n", a.Name, what)
	}
	writeLabelled(&b, "Worktree", r.Worktree)
	writeLabelled(&b, "Head", short(r.HeadCommit))
	writeLabelled(&b, "Range", rangeText(r))
	writeFileList(&b, "Files", r.ChangedFiles) // never empty: a request names what it reviews
	left.write(&b, r)
	return Result{
		State: string(r.Status),
		Data:  requestData{Assignment: a.Name, Request: r, LeftOut: left},
		Text:  b.String(),
		Next:  waitNext,
	}
}

// Continue lets a paused manual-mode implementer go on after a
// rejection, with a human's guidance shown from now on.
func (s *Service) Continue(ctx context.Context, guidance string) (Result, error) {
	return s.changeRequest(CheckFlagText("--guidance", guidance, protocol.MaxTextLength),
		func(a *checkpoint.Assignment) (*protocol.Request, error) { return a.Continue(ctx, guidance) },
		func(name string, r *protocol.Request) Result {
			text := fmt.Sprintf("Continuing %s after the rejection of round %d.", name, r.Round)
			if r.Guidance != "" {
				text += "\nGuidance: " + oneLine(r.Guidance)
			}
			return Result{State: "continued", Text: text, Next: fixThenRequest}
		})
}

// fixThenRequest is the next step once the findings go back to the
// implementer.
const fixThenRequest = "the implementer fixes the findings (specdev work shows them), then runs: specdev work request"

// Unblock lifts a review loop blocked at its round limit: rounds more
// are allowed and the blocked request is pending again.
func (s *Service) Unblock(ctx context.Context, rounds int) (Result, error) {
	return s.changeRequest(checkRounds(rounds),
		func(a *checkpoint.Assignment) (*protocol.Request, error) { return a.Unblock(ctx, rounds) },
		func(name string, r *protocol.Request) Result {
			if r.Status == protocol.StatusFailed { // a rejected round: stuck, or the last the limit allowed
				return Result{State: string(r.Status), Next: fixThenRequest, Text: fmt.Sprintf(
					"Unblocked %s: round %d's findings go back to the implementer; the next request is round %d of %d.", name, r.Round, r.Round+1, r.MaxRounds)}
			}
			return Result{State: string(r.Status), Text: fmt.Sprintf("Unblocked %s: round %s is pending review.", name, r.RoundText()), Next: waitNext}
		})
}

// Cancel withdraws an active request.
func (s *Service) Cancel(ctx context.Context) (Result, error) {
	return s.changeRequest(nil, func(a *checkpoint.Assignment) (*protocol.Request, error) { return a.Cancel(ctx) },
		func(name string, r *protocol.Request) Result {
			return Result{State: string(r.Status), Text: fmt.Sprintf("Cancelled the review request of %s (round %d).", name, r.Round), Next: askAgainNext(r)}
		})
}

// changeRequest refuses bad flags (bad), changes the request of the
// caller's assignment with change, and words the request it leaves.
func (s *Service) changeRequest(bad error, change func(*checkpoint.Assignment) (*protocol.Request, error),
	word func(name string, r *protocol.Request) Result) (Result, error) {
	if bad != nil {
		return Result{}, bad
	}
	a, err := s.Target()
	if err != nil {
		return Result{}, err
	}
	r, err := change(a)
	if err != nil {
		return Result{}, err
	}
	res := word(a.Name, r)
	res.Data = requestData{Assignment: a.Name, Request: r}
	return res, nil
}

// requestData is the data of an operation that changed a request.
type requestData struct {
	Assignment string            `json:"assignment"`
	Request    *protocol.Request `json:"request"`
	LeftOut    heldFiles         `json:"left_out,omitempty"` // changed files other loops of the group hold: file -> loop
}

// askAgainNext is the next step after a cancel: ask again, and if the
// gate's loop is stuck or has used all its rounds, that the request will
// wait blocked for a human (a cancel does not reset the loop).
func askAgainNext(r *protocol.Request) string {
	next := "when ready, ask again: specdev work request"
	switch loop, open := checkpoint.OpenLoop(r, r.Gate); {
	case open && loop.Stuck:
		next += " (the loop is stuck, so the request waits blocked until a human runs specdev work unblock)"
	case open && loop.RoundsFailed >= loop.MaxRounds:
		next += fmt.Sprintf(" (the loop has used its %s, so the request waits blocked until a human runs specdev work unblock --rounds 1)",
			protocol.Plural(loop.MaxRounds, "round"))
	}
	return next
}
