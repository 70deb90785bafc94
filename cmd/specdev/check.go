package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/specdev/specdev/checkpoint"
	"github.com/specdev/specdev/internal/preflight"
	"github.com/specdev/specdev/internal/watch"
	"github.com/specdev/specdev/protocol"
)

// CheckPollCmd is one reviewer poll: claim a review and print the briefing.
// Claiming is explicit: without a session id it only shows what there is.
type CheckPollCmd struct {
	Mode       string   `help:"Reviewer mode: auto (decide alone) or manual (a human approves the verdict). Switches a review you hold." placeholder:"auto|manual"`
	Timeout    Duration `help:"Wait up to this long for a review to claim (Go syntax or seconds: 120 = 2m)." placeholder:"D"`
	Force      bool     `help:"Take over a review another session holds even if it is not stale."`
	NewSession bool     `help:"Claim under a newly generated session id (instead of --session)."`
}

// Run claims the session's own review, a stale one, or the oldest pending.
func (c *CheckPollCmd) Run(app *App) error {
	mode, err := parseMode(c.Mode)
	if err != nil {
		return err
	}
	st, err := app.Store()
	if err != nil {
		return err
	}
	if app.terminal && mode == protocol.ModeManual {
		// a person at a terminal in manual mode decides what awaits first
		if names, _, err := awaitingNames(st); err != nil || len(names) > 0 { // an unreadable one is the poll's to report
			if err != nil {
				return err
			}
			res, err := askApprovals(app, st, names)
			if err != nil {
				return err
			}
			return app.emit(res)
		}
	}
	session, generated, err := c.session(app)
	if err != nil || session == "" {
		if err != nil {
			return err
		}
		return app.emit(overview(app, st))
	}
	p := &poller{app: app, st: st, opt: checkpoint.ClaimOptions{Session: session, Lease: app.Lease, Mode: mode, Force: c.Force,
		Preflight: len(preflightArgv(st)) > 0}}
	claim, a, err := p.wait(time.Duration(c.Timeout))
	if err != nil {
		return err
	}
	if claim == nil {
		return app.emit(p.nothingToDo())
	}
	if claim.Progress.Phase == protocol.PhasePreflight {
		return runPreflight(app, st, a, claim, generated)
	}
	return app.emit(briefing(a, claim, session, generated, app.now()))
}

// session is the id to claim under: --session / SPECDEV_SESSION, or a new
// one with --new-session; "" for a read-only look, which cannot wait or
// force.
func (c *CheckPollCmd) session(app *App) (session string, generated bool, err error) {
	switch {
	case c.NewSession && app.Session != "":
		return "", false, usage("keep one: --session "+app.Session+", or --new-session alone",
			"--new-session and --session both name the session to claim under")
	case c.NewSession:
		return checkpoint.NewSessionID(), true, nil
	case app.Session == "" && (c.Timeout > 0 || c.Force):
		return "", false, usage("pass your reviewer session id: specdev check --session ID (or export SPECDEV_SESSION), or --new-session",
			"specdev check claims a review only for a session, and --timeout or --force is for claiming")
	}
	return app.Session, false, nil
}

// poller finds and claims a review, waiting if asked.
type poller struct {
	app     *App
	st      *checkpoint.Store
	opt     checkpoint.ClaimOptions
	ctx     context.Context // the whole call's: --timeout bounds every lock wait too
	entries []checkpoint.Entry
	skipped []error                 // assignments that could not be read
	locked  []*checkpoint.BusyError // candidates locked by another process, skipped at once
	refused error                   // why the named assignment could not be claimed while waiting
}

func (p *poller) wait(timeout time.Duration) (*checkpoint.Claim, *checkpoint.Assignment, error) {
	var claim *checkpoint.Claim
	var a *checkpoint.Assignment
	look := func() (bool, time.Time, error) {
		var err error
		claim, a, err = p.claimNext()
		next := p.st.NextStale(p.entries, p.opt.Session)
		if timeout > 0 && p.app.Assignment != "" && notYet(err) {
			// waiting for one assignment: no request yet, or held by a
			// live session, is something to wait for, not a failure
			p.refused, err = err, nil
			var held *checkpoint.HeldError
			if errors.As(p.refused, &held) {
				next = p.app.now().Add(held.StaleAfter - held.Idle)
			}
		}
		return claim != nil, next, err
	}
	p.ctx = p.app.ctx
	if timeout <= 0 {
		_, _, err := look()
		return claim, a, err
	}
	ctx, cancel := context.WithTimeout(p.app.ctx, timeout)
	defer cancel()
	p.ctx = ctx
	look = announceWait(p.app, p.waitingFor(), timeout, look)
	err := watch.Wait(ctx, p.watchDirs, pollInterval, look)
	if errors.Is(err, context.DeadlineExceeded) {
		err = nil
	}
	return claim, a, err
}

// notYet reports whether a claim of a named assignment failed for a reason
// that time may remove: a live holder, a held lock, or a state without a
// review to claim (not requested yet, awaiting a human, decided).
func notYet(err error) bool {
	return errors.Is(err, checkpoint.ErrBusy) || errors.Is(err, protocol.ErrConflict)
}

// watchDirs lists the folders to watch, read afresh before every look (not
// taken from the previous look, which has seen none on the first call), so
// a request written into any assignment folder wakes the poll at once.
func (p *poller) watchDirs() []string {
	return assignmentDirs(p.st)
}

// claimNext tries the candidates in order; one lost to another reviewer
// is skipped for the next, and so is one locked right now: a poll only
// tries each lock (a stuck process holding several would otherwise cost
// lock_timeout each) and lists the locked ones when nothing was claimed.
// An assignment named by --assignment waits for its lock as any command.
func (p *poller) claimNext() (*checkpoint.Claim, *checkpoint.Assignment, error) {
	if p.app.Assignment != "" {
		a, err := p.st.Resolve(p.app.Assignment)
		if err != nil {
			return nil, nil, err
		}
		p.entries = []checkpoint.Entry{{Name: a.Name}}
		claim, err := a.Claim(p.ctx, p.opt)
		return claim, a, err
	}
	entries, err := p.st.Poll()
	if err != nil {
		return nil, nil, err
	}
	p.entries, p.skipped, p.locked = entries, nil, nil
	for _, e := range entries {
		if e.Err != nil {
			p.skipped = append(p.skipped, e.Err)
		}
	}
	opt := p.opt
	opt.NoWait = true
	for _, name := range p.st.Candidates(entries, p.opt.Session, p.opt.Force) {
		a, err := p.st.Assignment(name)
		if err != nil {
			continue
		}
		claim, err := a.Claim(p.ctx, opt)
		var busy *checkpoint.BusyError
		switch {
		case err == nil:
			return claim, a, nil
		case errors.As(err, &busy):
			p.locked = append(p.locked, busy)
		case errors.Is(err, checkpoint.ErrBusy), errors.Is(err, protocol.ErrConflict):
			p.app.log.Debug("lost the race", "assignment", name, "err", err)
		default:
			p.skipped = append(p.skipped, err)
		}
	}
	return nil, nil, nil
}

// nothingToDo says why there is nothing to claim. Unreadable assignments
// make it exit INVALID, naming the file.
func (p *poller) nothingToDo() Result {
	var b strings.Builder
	b.WriteString("No review is waiting for a reviewer.\n")
	now := p.app.now()
	for _, e := range p.entries {
		switch {
		case e.Request == nil:
		case e.Request.Status == protocol.StatusAwaitingApproval:
			fmt.Fprintf(&b, "Awaiting a human's approval: %s (run: specdev check approve|reject --assignment %s)\n", e.Name, e.Name)
		case e.Request.Status == protocol.StatusInProgress && e.Progress != nil:
			fmt.Fprintf(&b, "In progress: %s (session %s, %d/%d files, last activity %s; stale after %s)\n",
				e.Name, oneLine(e.Progress.SessionID), len(e.Progress.FilesReviewed), e.Progress.FilesTotal,
				activityAgo(e.Idle(now)), human(p.st.StaleAfter()))
		}
	}
	locked := lockedByHolder(p.locked)
	for _, l := range locked {
		fmt.Fprintf(&b, "Locked by %s: %s (skipped; a poll does not wait for locks)\n", l.Holder, strings.Join(l.Assignments, ", "))
	}
	if p.refused != nil {
		fmt.Fprintf(&b, "Still not claimable: %v\n", p.refused)
	}
	res := Result{State: "idle", Code: exitWaiting,
		Next: "poll again in 30-60 s, or wait: " + checkpoint.ClaimCommand(p.opt.Session, "--timeout 10m")}
	var problems []string
	for _, err := range p.skipped {
		fmt.Fprintf(&b, "Skipped: %v\n", err)
		problems = append(problems, err.Error())
	}
	if len(p.skipped) > 0 {
		res.State, res.Code = "invalid", exitInvalid
		res.Next = "fix or restore the file named above (specdev never overwrites a malformed file), then: " + checkpoint.ClaimCommand(p.opt.Session)
	}
	res.Text = b.String()
	res.Data = map[string]any{"claimed": false, "problems": problems, "locked": locked}
	return res
}

// lockedGroup is the candidates one process had locked during a poll.
type lockedGroup struct {
	Holder      string   `json:"holder"`
	Assignments []string `json:"assignments"`
}

// lockedByHolder groups locked candidates by holder, in the order met.
func lockedByHolder(busy []*checkpoint.BusyError) []lockedGroup {
	groups := []lockedGroup{}
	for _, b := range busy {
		holder := b.Holder
		if holder == "" {
			holder = "another process"
		}
		i := slices.IndexFunc(groups, func(g lockedGroup) bool { return g.Holder == holder })
		if i < 0 {
			groups, i = append(groups, lockedGroup{Holder: holder}), len(groups)
		}
		groups[i].Assignments = append(groups[i].Assignments, b.Assignment)
	}
	return groups
}

// preflightArgv is the configured gate, or .specdev/verify-gates.sh when
// it exists, as the user wrote it (runPreflight resolves a relative
// program from the project root).
func preflightArgv(st *checkpoint.Store) []string {
	argv := append([]string{}, st.Config.Preflight...)
	if len(argv) == 0 {
		script := filepath.Join(st.Dir, protocol.DefaultPreflightScript)
		if !fileExists(script) {
			return nil
		}
		argv = []string{filepath.ToSlash(filepath.Join(protocol.StateDir, protocol.DefaultPreflightScript))}
	}
	return argv
}

func runPreflight(app *App, st *checkpoint.Store, a *checkpoint.Assignment, claim *checkpoint.Claim, generated bool) error {
	argv := preflightArgv(st)
	run := append([]string{}, argv...)
	if strings.Contains(run[0], "/") && !filepath.IsAbs(run[0]) {
		run[0] = filepath.Join(st.Root, run[0])
	}
	h := checkpoint.Holder{Session: claim.Progress.SessionID, Lease: claim.Lease}
	var ran preflight.Result
	// The lease is renewed while the gate runs; if the review is taken
	// over anyway (--force), the gate is stopped at once.
	lost := a.KeepAlive(app.ctx, h, func(ctx context.Context) {
		ran = preflight.Run(ctx, st.Root, run, time.Duration(st.Config.PreflightTimeout))
	})
	if lost != nil {
		return fmt.Errorf("the pre-flight gate was stopped: %w", lost)
	}
	if app.ctx.Err() != nil {
		return releaseInterrupted(app, a, h)
	}
	if ran.NotStarted() { // set-up, not the change: no round is used
		return releaseSetup(app, st, a, h, argv, ran)
	}
	res := ran.PreflightResult
	res.Command = argv
	res.At = protocol.At(app.now())
	snap, err := a.PreflightDone(app.ctx, h, res)
	if err != nil {
		return err
	}
	claim.Request, claim.Progress = snap.Request, snap.Progress
	if res.Passed {
		return app.emit(briefing(a, claim, claim.Progress.SessionID, generated, app.now()))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Pre-flight gate failed for %s (round %s): the review failed at once, no reviewer effort spent.\n",
		a.Name, snap.Request.RoundText())
	writePreflightFailure(&b, &res)
	return app.emit(Result{State: "preflight_failed", Text: b.String(),
		Data: map[string]any{"assignment": a.Name, "session": claim.Progress.SessionID, "preflight": res, "request": snap.Request},
		Next: "pick up the next review: " + checkpoint.ClaimCommand(claim.Progress.SessionID)})
}

// releaseInterrupted gives back a review whose gate a signal stopped: an
// interrupted gate is neither a pass nor a failure, and the review must
// not stay stuck in its preflight phase. The next claim runs it again.
func releaseInterrupted(app *App, a *checkpoint.Assignment, h checkpoint.Holder) error {
	if _, err := a.Release(context.WithoutCancel(app.ctx), h, "interrupted"); err != nil {
		return err
	}
	return &stoppedError{"the pre-flight gate was stopped and the review given back (pending); the next specdev check runs the gate again"}
}
