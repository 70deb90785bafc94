package checkpoint

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/specdev/specdev/internal/shellword"
	"github.com/specdev/specdev/protocol"
)

// Holder is who writes to a review: the reviewer session and the lease
// its claim got (the fencing token).
type Holder struct {
	Session string
	Lease   string
}

// Flags are the command-line flags that name the holder, written out
// for a hint or a Next: line.
func (h Holder) Flags() string {
	flags := "--session " + shellword.Word(h.Session)
	if h.Lease != "" {
		flags += " --lease " + h.Lease
	}
	return flags
}

// holding runs fn only if h still holds the assignment's review: the
// fencing check of every mutating reviewer command. A displaced session
// gets a conflict saying who took over and when; a lease that is
// not the current one a conflict (checkHolder).
func (a *Assignment) holding(ctx context.Context, h Holder, fn func(*Tx, *protocol.Request, *protocol.Progress) error) (Snapshot, error) {
	return a.change(ctx, func(tx *Tx) error {
		r, p := tx.Request, tx.Progress
		if r == nil || !p.BelongsTo(r) {
			return conflict("claim a review: "+ClaimCommand(h.Session), "session %s holds no review of %s", h.Session, a.Name)
		}
		if err := a.checkHolder(h, p); err != nil {
			return err
		}
		if r.Status != protocol.StatusInProgress {
			return conflict("pick up another review: "+ClaimCommand(h.Session),
				"review %s is %s; session %s can no longer change it", a.Name, describeStatus(r.Status), h.Session)
		}
		return fn(tx, r, p)
	})
}

// change is Update returning the request and progress fn left.
func (a *Assignment) change(ctx context.Context, fn func(*Tx) error) (Snapshot, error) {
	var out Snapshot
	err := a.Update(ctx, func(tx *Tx) error {
		if err := fn(tx); err != nil {
			return err
		}
		out = Snapshot{Request: tx.Request, Progress: tx.Progress}
		return nil
	})
	return out, err
}

// notHolder refuses session a review another session holds; if that
// one took it over from session, the error says who and when.
func (a *Assignment) notHolder(session string, p *protocol.Progress) error {
	if t := takenFrom(session, p); t != nil {
		return conflict("stop working on this review; pick up another: "+ClaimCommand(session),
			"session %s no longer holds review %s: taken over by %s at %s (%s)", session, a.Name, t.To, t.At.UTC().Format(time.RFC3339), takeoverReason(*t))
	}
	return conflict("claim another review: "+ClaimCommand(session),
		"review %s is held by session %s, not %s", a.Name, p.SessionID, session)
}

// checkHolder refuses a progress h does not hold: a displaced session
// is told who took it over (notHolder); a lease that is not the current one
// (the session claimed the review again, perhaps from another process
// using the same session id, or no lease was given) a conflict.
func (a *Assignment) checkHolder(h Holder, p *protocol.Progress) error {
	if p.SessionID != h.Session {
		return a.notHolder(h.Session, p)
	}
	if p.Lease == "" || h.Lease == p.Lease {
		return nil
	}
	given := "none"
	if h.Lease != "" {
		given = h.Lease + ", which a later claim replaced or which is mistyped"
	}
	return conflict("pass the --lease of your latest claim; if you lost it, run "+ClaimCommand(h.Session)+
		" (it prints the briefing with a new lease, and any other process using this session id is then refused)",
		"session %s holds review %s under another lease: this command presented %s (two processes may share the session id %s)",
		h.Session, a.Name, given, h.Session)
}

// takenFrom is the last takeover of the review from session, or nil.
func takenFrom(session string, p *protocol.Progress) *protocol.Takeover {
	for _, t := range slices.Backward(p.Takeovers) {
		if t.From == session && t.To != session {
			return &t
		}
	}
	return nil
}

func takeoverReason(t protocol.Takeover) string {
	if t.Reason == "stale" {
		return "no activity for " + t.Idle
	}
	return cmp.Or(map[string]string{"force": "forced takeover", "resume": "resumed after a release",
		"reclaim": "the same session claimed it again"}[t.Reason], t.Reason)
}

// PreflightDone stores the preflight result. A failed gate hands the
// request back to the implementer at once (no reviewer effort is spent, no
// round of the loop is used); a passed one starts the reviewing phase.
func (a *Assignment) PreflightDone(ctx context.Context, h Holder, res protocol.PreflightResult) (Snapshot, error) {
	return a.holding(ctx, h, func(tx *Tx, r *protocol.Request, p *protocol.Progress) error {
		p.Preflight, p.LastActivity = &res, protocol.At(tx.Now)
		tx.Log(protocol.EventPreflight, h.Session, map[string]any{"passed": res.Passed, "exit_code": res.ExitCode,
			"duration_ms": res.DurationMS})
		if res.Passed {
			p.Phase = phaseFor(p)
			return nil
		}
		// back to the implementer, unreviewed: no round of the loop, no
		// reviewer remembered for it (decideRound is not called)
		what := cmp.Or(res.Error, fmt.Sprintf("%s exited with %d", strings.Join(res.Command, " "), res.ExitCode))
		v := &protocol.Verdict{Passed: false, Summary: "pre-flight gate failed: " + what}
		p.Verdict, p.Phase = v, protocol.PhaseDone
		r.Status, r.PreflightFailed, r.ReviewerNotes, r.CompletedAt = protocol.StatusFailed, true, v.Summary, protocol.At(tx.Now)
		tx.Log(protocol.EventFailed, h.Session, map[string]any{"summary": v.Summary, "findings": 0, "preflight": true})
		return nil
	})
}

// GiveVerdict records the reviewer's verdict. A pass is refused while files
// remain or after a failed preflight. In auto mode the review becomes
// passed or failed; in manual mode awaiting_approval with the proposal.
func (a *Assignment) GiveVerdict(ctx context.Context, h Holder, v protocol.Verdict) (Snapshot, error) {
	return a.holding(ctx, h, func(tx *Tx, r *protocol.Request, p *protocol.Progress) error {
		if v.Passed && len(p.FilesRemaining) > 0 {
			return conflict("record the remaining files first: specdev check record <file> "+h.Flags(),
				"cannot pass: %d of %d files not yet reviewed (next: %s)", len(p.FilesRemaining), p.FilesTotal, p.FilesRemaining[0])
		}
		if v.Passed && p.PreflightFailed() {
			return conflict("the review can only fail", "cannot pass: the preflight gate failed")
		}
		if p.Phase == protocol.PhasePreflight {
			return conflict("wait for the preflight gate", "the preflight gate of %s has not finished", a.Name)
		}
		if v.Passed {
			if err := a.changedUnderReview(ctx, r, p, h); err != nil {
				return err
			}
		}
		if !v.Passed && strings.TrimSpace(v.Summary) == "" && len(p.Findings) == 0 && len(v.Issues) == 0 {
			return &protocol.UsageError{Msg: "a fail needs a --summary or recorded findings: the implementer must know what to fix",
				Hint: "specdev check verdict fail --summary \"what must change\" " + h.Flags()}
		}
		conclude(tx, r, p, &v, h.Session)
		return nil
	})
}

// conclude closes the review with the reviewer's verdict: in auto mode
// the review is decided, in manual mode the verdict is proposed to a human.
func conclude(tx *Tx, r *protocol.Request, p *protocol.Progress, v *protocol.Verdict, session string) {
	p.Verdict, p.Phase, p.LastActivity = v, protocol.PhaseDone, protocol.At(tx.Now)
	r.ReviewerNotes, r.ReviewerSessionID = v.Summary, session
	r.AgentSession = nil // an agent runner keeps its agent's session once the agent is done (AgentRan)
	if p.Mode == protocol.ModeManual {
		r.Status, r.ProposedVerdict = protocol.StatusAwaitingApproval, v.Word()
		tx.Log(protocol.EventVerdictProposed, session, map[string]any{"verdict": v.Word(), "summary": v.Summary})
		return
	}
	event, detail := protocol.EventPassed, map[string]any{"summary": v.Summary}
	if !v.Passed {
		event, detail["findings"] = protocol.EventFailed, len(p.Findings)+len(v.Issues)
	}
	decide(tx, r, p, v.Passed, session, event, detail)
}

// decide settles a review, by its reviewer in auto mode or by a human:
// passed or failed, its round counted for the loop (decideRound), the
// event logged, and a failed loop stopped for a human where it must be
// (stopForHuman).
func decide(tx *Tx, r *protocol.Request, p *protocol.Progress, passed bool, session string, event protocol.EventName, detail map[string]any) {
	r.Status, r.CompletedAt = protocol.StatusFailed, protocol.At(tx.Now)
	if passed {
		r.Status, r.ReviewerSessionID, r.AgentSession = protocol.StatusPassed, "", nil
	}
	decideRound(tx, r, passed)
	tx.Log(event, session, detail)
	if !passed {
		stopForHuman(tx, r, p)
	}
}

// Release gives the review back: pending again, progress kept, so that the
// next reviewer resumes instead of starting over. It uses up no round.
// why, if not empty, is logged (e.g. "interrupted").
func (a *Assignment) Release(ctx context.Context, h Holder, why string) (Snapshot, error) {
	return a.holding(ctx, h, func(tx *Tx, r *protocol.Request, p *protocol.Progress) error {
		r.Status, r.AgentSession = protocol.StatusPending, nil
		p.LastActivity = protocol.At(tx.Now)
		detail := map[string]any{"reviewed": len(p.FilesReviewed), "remaining": len(p.FilesRemaining)}
		if why != "" {
			detail["reason"] = why
		}
		tx.Log(protocol.EventReleased, h.Session, detail)
		return nil
	})
}

// Decide is a human's approval (pass) or rejection (fail) of a review that
// awaits approval.
func (a *Assignment) Decide(ctx context.Context, approve bool, notes string) (Snapshot, error) {
	return a.change(ctx, func(tx *Tx) error {
		r, p := tx.Request, tx.Progress
		if r == nil || r.Status != protocol.StatusAwaitingApproval || p == nil {
			return conflict("only a review awaiting approval can be approved or rejected; see specdev status",
				"review %s is %s, not awaiting approval", a.Name, describeStatus(cmp.Or(r, &protocol.Request{}).Status))
		}
		p.Decision = &protocol.Decision{Approved: approve, Notes: notes, At: protocol.At(tx.Now)}
		if notes != "" {
			r.ReviewerNotes = withDecision(r.ReviewerNotes, notes)
		}
		event, detail := protocol.EventApproved, map[string]any{"proposed": r.ProposedVerdict, "notes": notes}
		if !approve {
			event, detail = protocol.EventRejected, map[string]any{"proposed": r.ProposedVerdict, "reason": notes}
		}
		decide(tx, r, p, approve, "", event, detail)
		return nil
	})
}

// withDecision adds a human's decision notes to the reviewer's notes,
// shortening the reviewer's part first so that the whole stays within the
// field's bound (each was within its own).
func withDecision(reviewer, notes string) string {
	decision := "Human decision: " + notes
	room := protocol.MaxTextLength - utf8.RuneCountInString(decision) - 1 // the newline between
	if room < 2 {
		return clipRunes(decision, protocol.MaxTextLength)
	}
	return strings.TrimSpace(clipRunes(reviewer, room) + "\n" + decision)
}

// clipRunes shortens s to at most max characters, ending in "…" if cut.
func clipRunes(s string, max int) string {
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	return string([]rune(s)[:max-1]) + "…"
}

// AgentLogFile is the log of the agents specdev started for an
// assignment, in its folder: their output, run after run.
const AgentLogFile = "agent.log"

// AgentRan records an agent run: its history event (agent_run,
// agent_incomplete or resume_fallback), and, for an agent_run, what it
// used, added to the request's round and loop. keep, if set, is the
// agent session to resume in the loop's next round or to finish this
// review; it is kept only while the run's reviewer session still has a
// say in the loop (it gave the last verdict, or holds or released this
// review), as reviewer_session_id is.
func (a *Assignment) AgentRan(ctx context.Context, session string, keep *protocol.AgentSession, event protocol.EventName,
	used *protocol.AgentUsage, detail map[string]any) error {
	return a.Update(ctx, func(tx *Tx) error {
		r := tx.Request
		if r != nil && used != nil {
			cost := *cmp.Or(r.AgentCost, &protocol.AgentCost{})
			cost.Round, cost.Loop = cost.Round.Add(*used), cost.Loop.Add(*used)
			r.AgentCost = &cost
		}
		if r != nil && keep != nil && session != "" && (r.ReviewerSessionID == session || holdsOrReleased(tx, session)) {
			k := *keep
			r.AgentSession = &k
		}
		tx.Log(event, session, detail)
		return nil
	})
}

// holdsOrReleased: session holds the request's review, or gave it back
// unfinished.
func holdsOrReleased(tx *Tx, session string) bool {
	r, p := tx.Request, tx.Progress
	active := r.Status == protocol.StatusPending || r.Status == protocol.StatusInProgress
	return active && p.BelongsTo(r) && p.SessionID == session
}
