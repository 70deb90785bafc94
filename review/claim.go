package review

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/specdev/specdev/checkpoint"
	"github.com/specdev/specdev/internal/shellword"
	"github.com/specdev/specdev/internal/watch"
	"github.com/specdev/specdev/protocol"
)

// ClaimOptions says how a reviewer poll claims.
type ClaimOptions struct {
	Mode       protocol.Mode // "": keep the review's mode (auto for a new one)
	Timeout    time.Duration // wait up to this long for a review to claim
	Force      bool          // take over a review another session holds even if it is not stale
	NewSession bool          // claim under a newly generated session id
	Agent      string        // claim for this agent (an agent runner): see checkpoint.ClaimOptions
}

// Claim is one reviewer poll: it claims the caller session's own review,
// a stale one, or the oldest pending one, ends what a killed specdev left
// of its gate, runs the pre-flight gate (if a person allowed it here)
// and returns the briefing. Claiming is explicit: without a session it only
// shows what there is (Overview).
func (s *Service) Claim(ctx context.Context, opt ClaimOptions) (Result, error) {
	session, generated, err := s.claimSession(opt)
	if err != nil {
		return Result{}, err
	}
	if session == "" {
		if _, _, err := s.Store.Sync(ctx); err != nil {
			return Result{}, err
		}
		return s.Overview(), nil
	}
	p := &poller{s: s, opt: checkpoint.ClaimOptions{Session: session, Lease: s.Lease, Mode: opt.Mode, Force: opt.Force,
		Preflight: len(preflightArgv(s.Store)) > 0, Agent: opt.Agent}}
	claim, a, err := p.wait(ctx, opt.Timeout)
	if err != nil {
		return Result{}, err
	}
	if claim == nil {
		return p.nothingToDo(), nil
	}
	s.endOrphanGate(a)
	generated = generated && opt.Agent == "" // an agent has its ids in its environment
	if claim.Progress.Phase == protocol.PhasePreflight {
		return s.runPreflight(ctx, a, claim, generated)
	}
	return briefing(a, claim, generated, s.workingDir()), nil
}

// claimSession is the id to claim under: the caller's session, or a new
// one with NewSession; "" for a read-only look, which cannot wait or
// force.
func (s *Service) claimSession(opt ClaimOptions) (session string, generated bool, err error) {
	if err := s.checkCaller(); err != nil {
		return "", false, err
	}
	switch {
	case opt.NewSession && s.Session != "":
		return "", false, usage("keep one: --session "+shellword.Word(s.Session)+", or --new-session alone",
			"--new-session and --session both name the session to claim under")
	case opt.NewSession:
		return checkpoint.NewSessionID(), true, nil
	case s.Session == "" && (opt.Timeout > 0 || opt.Force):
		return "", false, usage("pass your reviewer session id: specdev check --session ID (or export SPECDEV_SESSION), or --new-session",
			"specdev check claims a review only for a session, and --timeout or --force is for claiming")
	}
	return s.Session, false, nil
}

// poller finds and claims a review, waiting if asked.
type poller struct {
	s       *Service
	opt     checkpoint.ClaimOptions
	entries []checkpoint.Entry
	skipped []error                 // assignments that could not be read
	locked  []*checkpoint.BusyError // candidates locked by another process, skipped at once
	refused error                   // why the named assignment could not be claimed while waiting
	changed bool                    // the last look copied a change from the remote
}

func (p *poller) wait(ctx context.Context, timeout time.Duration) (*checkpoint.Claim, *checkpoint.Assignment, error) {
	var claim *checkpoint.Claim
	var a *checkpoint.Assignment
	// the folders to watch are read afresh before every look (not taken
	// from the previous look, which has seen none on the first call), so
	// a request written into any assignment folder wakes the poll at once
	dirs := func() []string { return assignmentDirs(p.s.Store) }
	what := "a review"
	if p.s.Assignment != "" {
		what = "review " + oneLine(p.s.Assignment)
	}
	err := p.s.waitFor(ctx, what+" to claim (session "+oneLine(p.opt.Session)+")", timeout, dirs, func() bool { return p.changed }, func(ctx context.Context) (bool, time.Time, error) {
		var err error
		claim, a, err = p.claimNext(ctx) // the whole call's context: --timeout bounds every lock wait too
		next := p.s.Store.NextStale(p.entries, p.opt.Session)
		if timeout > 0 && p.s.Assignment != "" && (errors.Is(err, checkpoint.ErrBusy) || errors.Is(err, protocol.ErrConflict)) {
			// waiting for one assignment: a live holder, a held lock, or
			// a state without a review to claim (not requested yet,
			// awaiting a human, decided) is something to wait for, not a
			// failure
			p.refused, err = err, nil
			var held *checkpoint.HeldError
			if errors.As(p.refused, &held) {
				next = p.s.now().Add(held.StaleAfter - held.Idle)
			}
		}
		return claim != nil, next, err
	})
	return claim, a, err
}

// claimNext tries the candidates in order; one lost to another reviewer
// is skipped for the next, and so is one locked right now: a poll only
// tries each lock (a stuck process holding several would otherwise cost
// lock_timeout each) and lists the locked ones when nothing was claimed.
// An assignment named by --assignment waits for its lock as any command.
func (p *poller) claimNext(ctx context.Context) (*checkpoint.Claim, *checkpoint.Assignment, error) {
	st := p.s.Store
	changed, problems, err := st.Sync(ctx)
	if err != nil {
		return nil, nil, err
	}
	p.changed = changed
	if p.s.Assignment != "" {
		a, err := st.Resolve(p.s.Assignment)
		if err != nil {
			return nil, nil, err
		}
		p.entries = []checkpoint.Entry{{Name: a.Name}}
		claim, err := a.Claim(ctx, p.opt)
		return claim, a, err
	}
	entries, err := st.Poll()
	if err != nil {
		return nil, nil, err
	}
	p.entries, p.skipped, p.locked = entries, problems, nil
	for _, e := range entries {
		if e.Err != nil {
			p.skipped = append(p.skipped, e.Err)
		}
	}
	opt := p.opt
	opt.NoWait = true
	for _, name := range st.Candidates(entries, p.opt.Session, p.opt.Force) {
		a, err := st.Assignment(name)
		if err != nil {
			continue
		}
		claim, err := a.Claim(ctx, opt)
		var busy *checkpoint.BusyError
		switch {
		case err == nil:
			return claim, a, nil
		case errors.As(err, &busy):
			p.locked = append(p.locked, busy)
		case errors.Is(err, checkpoint.ErrBusy), errors.Is(err, protocol.ErrConflict):
			p.s.Log.Debug("lost the race", "assignment", name, "err", err)
		default:
			p.skipped = append(p.skipped, err)
		}
	}
	return nil, nil, nil
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
		holder := cmp.Or(b.Holder, "another process")
		i := slices.IndexFunc(groups, func(g lockedGroup) bool { return g.Holder == holder })
		if i < 0 {
			groups, i = append(groups, lockedGroup{Holder: holder}), len(groups)
		}
		groups[i].Assignments = append(groups[i].Assignments, b.Assignment)
	}
	return groups
}

// waitFor looks once, or with a timeout looks until look is done or the
// time is up (then the last look stands, with no error). The first time
// a look finds nothing (the operation is about to wait), the caller's
// Notify gets one note: what it waits for, until when in local time (the
// time of day: a wait is at most a day, and the note says how long), and
// how to stop. Nothing is said when the first look already has the
// answer. (The command line notifies only a person at a terminal, not an
// agent's pipe.) look gets the context bounded by the timeout.
func (s *Service) waitFor(ctx context.Context, what string, timeout time.Duration, dirs func() []string, changed func() bool,
	look func(context.Context) (bool, time.Time, error)) error {
	if timeout <= 0 {
		_, _, err := look(ctx)
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	until, said, looked := s.now().Add(timeout), false, false
	// With a remote it looks at the remote at most remote_poll apart: a
	// quarter of that at first and after a change (changed, if given,
	// says a look saw one), doubling while nothing changes.
	most, every := pollInterval, time.Duration(0)
	if s.Store.Remote != nil {
		most = time.Duration(s.Store.Config.RemotePoll)
		every = most / 4
	}
	err := watch.Wait(ctx, dirs, most, func() (bool, time.Time, error) {
		start := time.Now() // the looks at a remote start every apart, however long one takes
		done, next, err := look(ctx)
		looked = looked || err == nil
		if !done && err == nil && !said && s.Notify != nil {
			said = true
			s.Notify(fmt.Sprintf("Waiting for %s, up to %s (until %s). Ctrl+C to stop.", what, Human(timeout), until.Local().Format("15:04:05")))
		}
		if every > 0 {
			if changed != nil && changed() {
				every = most / 4
			}
			if at := start.Add(every); next.IsZero() || at.Before(next) {
				next = at
			}
			every = min(every*2, most)
		}
		return done, next, err
	})
	if errors.Is(err, context.DeadlineExceeded) && looked { // no look done: nothing to stand
		return nil
	}
	return err
}
