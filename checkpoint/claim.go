package checkpoint

import (
	"cmp"
	"context"
	"math"
	"slices"
	"time"

	"github.com/specdev/specdev/protocol"
)

// ClaimKind says how a session came to hold a review.
type ClaimKind string

// The ways to hold a review.
const (
	ClaimNew      ClaimKind = "new"      // a pending request, fresh progress
	ClaimResumed  ClaimKind = "resumed"  // a pending request whose progress was kept (released)
	ClaimTakeover ClaimKind = "takeover" // a stale (or forced) review of another session
	ClaimOwn      ClaimKind = "own"      // the session already held it (with the current lease)
	ClaimReclaim  ClaimKind = "reclaim"  // the session held it under another lease, now replaced
)

// ClaimOptions says who claims and how.
type ClaimOptions struct {
	Session   string
	Lease     string        // the lease the session holds, if any: a claim of its own review keeps it
	Mode      protocol.Mode // empty: keep the review's mode (auto for a new one)
	Force     bool          // take over a live review
	Preflight bool          // a preflight gate will run: start in phase preflight
	NoWait    bool          // a locked assignment is BUSY at once, not after lock_timeout (a poll)
	// Agent, for an agent runner: a pending review whose loop remembers
	// this agent's session is claimed under the reviewer session that
	// worked with it (Session is then not used), so that the follow-up
	// briefing that session earned applies.
	Agent string
}

// Claim is the outcome of a successful claim.
type Claim struct {
	Kind     ClaimKind
	Lease    string // the fencing token every reviewer write must present
	Request  *protocol.Request
	Progress *protocol.Progress
	From     string        // the previous holder (takeover, resumed)
	Idle     time.Duration // how long the previous holder had been idle
}

// Claim atomically makes session the holder of the assignment's review:
// a pending request, a review it already holds, or a stale one (any live
// one with Force). Anything else is refused and changes nothing.
func (a *Assignment) Claim(ctx context.Context, opt ClaimOptions) (*Claim, error) {
	var c *Claim
	target := a
	if opt.NoWait {
		target = a.withoutWait()
	}
	err := target.Update(ctx, func(tx *Tx) error {
		r := tx.Request
		if r == nil {
			return conflict("nothing to review here yet", "assignment %s has no review request", a.Name)
		}
		var err error
		switch r.Status {
		case protocol.StatusPending:
			if r.NamesNoFiles() {
				return conflict("the implementer lists them: specdev work request",
					"review %s names no files to review (a request written by another tool)", a.Name)
			}
			if s := r.AgentSession; opt.Agent != "" && s != nil && s.Agent == opt.Agent && r.ReviewerSessionID != "" {
				opt.Session = r.ReviewerSessionID
			}
			c = a.claimPending(tx, opt)
		case protocol.StatusInProgress:
			c, err = a.claimHeld(tx, opt)
		default:
			err = conflict("see what waits for a reviewer: specdev check (a look; it claims nothing)",
				"review %s is %s; there is nothing to claim", a.Name, describeStatus(r.Status))
		}
		if err != nil {
			return err
		}
		if opt.Mode != "" {
			tx.Progress.Mode = opt.Mode
		}
		c.Request, c.Progress, c.Lease = tx.Request, tx.Progress, tx.Progress.Lease
		return nil
	})
	return c, err
}

func (a *Assignment) claimPending(tx *Tx, opt ClaimOptions) *Claim {
	r, p := tx.Request, tx.Progress
	r.Status = protocol.StatusInProgress
	if p.BelongsTo(r) && p.Phase != protocol.PhaseDone {
		c := &Claim{Kind: ClaimResumed, From: p.SessionID}
		handOver(tx, p, opt.Session, "resume", "")
		p.RequestID = r.RequestID
		tx.Log(protocol.EventClaimed, opt.Session, map[string]any{"resumed_from": c.From, "reviewed": len(p.FilesReviewed)})
		return c
	}
	p = newProgress(tx, p, opt)
	tx.Progress = p
	tx.Log(protocol.EventClaimed, opt.Session, map[string]any{"mode": string(p.Mode), "files": len(r.ChangedFiles),
		"plan": p.Plan.Kind, "to_review": len(p.FilesRemaining)})
	return &Claim{Kind: ClaimNew}
}

func (a *Assignment) claimHeld(tx *Tx, opt ClaimOptions) (*Claim, error) {
	r, p := tx.Request, tx.Progress
	if !p.BelongsTo(r) {
		// in progress without a checkpoint: a claim crashed between writes
		tx.Progress = newProgress(tx, p, opt)
		tx.Log(protocol.EventClaimed, opt.Session, map[string]any{"recovered": true, "plan": tx.Progress.Plan.Kind})
		return &Claim{Kind: ClaimNew}, nil
	}
	if p.SessionID == opt.Session {
		return reclaim(tx, opt), nil
	}
	idle, _ := Idle(tx.Now, p.LastActivity.Time, a.written(protocol.ProgressFile))
	reason := "stale"
	if idle < a.store.StaleAfter() {
		if !opt.Force {
			return nil, &HeldError{Assignment: a.Name, Session: p.SessionID, Idle: idle, StaleAfter: a.store.StaleAfter()}
		}
		reason = "force"
	}
	c := &Claim{Kind: ClaimTakeover, From: p.SessionID, Idle: idle}
	handOver(tx, p, opt.Session, reason, roundDuration(idle).String())
	tx.Log(protocol.EventTakeover, opt.Session, map[string]any{"from": c.From, "reason": reason,
		"idle": roundDuration(idle).String(), "reviewed": len(p.FilesReviewed)})
	return c, nil
}

// reclaim is a session claiming the review it holds. With the current
// lease nothing changes; without it the lease is replaced, so that of two
// processes using one session id only the last to claim can write.
func reclaim(tx *Tx, opt ClaimOptions) *Claim {
	p := tx.Progress
	if p.Lease != "" && opt.Lease == p.Lease {
		return &Claim{Kind: ClaimOwn}
	}
	handOver(tx, p, opt.Session, "reclaim", "")
	tx.Log(protocol.EventTakeover, opt.Session, map[string]any{"from": opt.Session, "reason": "reclaim", "reviewed": len(p.FilesReviewed)})
	return &Claim{Kind: ClaimReclaim, From: opt.Session}
}

// handOver gives the review to session under a new lease, and records
// the takeover (and the lease it ends) in the progress.
func handOver(tx *Tx, p *protocol.Progress, session, reason, idle string) {
	p.Takeovers = append(p.Takeovers, protocol.Takeover{From: p.SessionID, To: session, At: protocol.At(tx.Now), Reason: reason, Idle: idle, FromLease: p.Lease})
	p.SessionID, p.Lease, p.LastActivity = session, newLease(), protocol.At(tx.Now)
}

// newProgress starts the checkpoint of a review. A later round of the same
// loop carries the earlier rounds along, so the report can keep them, and
// is planned as a follow-up or a full review (planRound); a full review of
// a later round logs resume_fallback with the reason.
func newProgress(tx *Tx, old *protocol.Progress, opt ClaimOptions) *protocol.Progress {
	r, now := tx.Request, tx.Now
	p := &protocol.Progress{
		Version: protocol.ProgressVersion, RequestID: r.RequestID, Round: r.Round,
		Mode: cmp.Or(opt.Mode, protocol.ModeAuto), StartedAt: protocol.At(now), LastActivity: protocol.At(now),
		FilesTotal: len(r.ChangedFiles), SessionID: opt.Session, Lease: newLease(),
		PreviousRounds: earlierRounds(r, old),
	}
	var prev *protocol.RoundRecord
	if n := len(p.PreviousRounds); n > 0 {
		prev = &p.PreviousRounds[n-1]
	}
	if old != nil && r.Round > 1 {
		p.Extra = old.Extra
	} else if old != nil && old.Round == r.Round { // after a checkpoint review or a cancel: the same round again
		p.PreviousRounds, p.Extra = old.PreviousRounds, old.Extra
	}
	plan, fallback := planRound(r, prev, opt.Session)
	p.Plan = &plan
	p.FilesRemaining, p.FilesReviewed = toRead(r, plan)
	p.Phase = phaseFor(p) // a follow-up with nothing to re-read goes straight to the verdict
	if opt.Preflight {
		p.Phase = protocol.PhasePreflight
	}
	if fallback != "" {
		detail := map[string]any{"reason": fallback}
		if r.Delta != nil {
			detail["fraction"] = math.Round(r.Delta.Share()*100) / 100 // two decimals
			detail["changed_lines"], detail["total_lines"] = r.Delta.ChangedLines, r.Delta.TotalLines
		}
		tx.Log(protocol.EventResumeFallback, opt.Session, detail)
	}
	return p
}

// earlierRounds are the finished rounds of r's loop that old (the
// progress of the review before) knows: its own round too when it was the
// previous one, only the ones before when it was an abandoned attempt at
// r's round (cancelled before a verdict). Round 1 starts afresh.
func earlierRounds(r *protocol.Request, old *protocol.Progress) []protocol.RoundRecord {
	switch {
	case old == nil || r.Round <= 1:
		return nil
	case old.Round < r.Round:
		return append(slices.Clone(old.PreviousRounds), old.Record())
	case old.Round == r.Round && old.RequestID != r.RequestID:
		return slices.Clone(old.PreviousRounds)
	}
	return nil
}
