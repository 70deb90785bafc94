package checkpoint

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"strings"

	"github.com/specdev/specdev/protocol"
)

// NewRequest is what the implementer asks to have reviewed.
type NewRequest struct {
	Gate         string        // empty: the previous request's gate, else protocol.DefaultGate
	Mode         protocol.Mode // empty: keep the previous request's mode
	Notes        string
	HeadCommit   string
	ChangedFiles []string
	Fingerprint  string
	Coverage     Coverage
	Delta        *protocol.Delta // what changed since the previous round (a later round)
	Snapshot     string          // a commit holding exactly the files as requested
	Group        string          // empty: the previous request's group, if any
	Checkpoint   bool            // a review of work in progress: no round
	FileSet      []string        // the files the loop owns (--files); nil: the previous request's
	Effort       string          // the loop's effort level; empty: the previous request's
	Worktree     string          // where the request is made (Store.Worktree)
}

// RequestReview writes a new pending request: round 1 of a new loop, or
// the next round after a rejection. Past the round limit the request is
// written as blocked and a *BlockedError returned. A request while another
// is active, blocked or paused for a human is refused and changes nothing.
func (a *Assignment) RequestReview(ctx context.Context, in NewRequest) (*protocol.Request, error) {
	snap, err := a.change(ctx, func(tx *Tx) error {
		prev := tx.Request
		r := a.nextRequest(prev, in, tx)
		if err := cmp.Or(requestAllowed(prev), effortFits(prev, in), stalled(prev, r)); err != nil {
			return err // the first refusal, in that order
		}
		tx.Request = r
		if r.Round > r.MaxRounds || r.BlockedReason != "" {
			r.Status, r.ReviewerSessionID, r.AgentSession = protocol.StatusBlocked, "", nil
			tx.Log(protocol.EventBlocked, "", map[string]any{"max_rounds": r.MaxRounds, "round": r.Round, "reason": cmp.Or(r.BlockedReason, blockedAtLimit)})
			return nil
		}
		tx.Log(protocol.EventRequested, "", requestedDetail(r))
		return nil
	})
	if err == nil && snap.Request.Status == protocol.StatusBlocked {
		err = blockedError(snap.Request)
	}
	return snap.Request, err
}

func requestAllowed(prev *protocol.Request) error {
	switch {
	case prev == nil || prev.NamesNoFiles():
		return nil // none, or another tool's request without files: this one completes it
	case prev.Status.Active():
		return conflict("wait for the verdict (specdev work --timeout 10m) or withdraw it (specdev work cancel)",
			"a review is already %s (round %s); a new request would replace it", describeStatus(prev.Status), prev.RoundText())
	case prev.Status == protocol.StatusBlocked:
		return blockedError(prev)
	case Paused(prev):
		return &BlockedError{Msg: fmt.Sprintf("paused for a human: round %d was rejected and the implementer runs in manual mode", prev.Round),
			Hint: "a human reads the findings (specdev work), then runs: specdev work continue [--guidance \"…\"]"}
	}
	return nil
}

// effortFits refuses another effort level for a loop that is open: its
// round limit was fixed at its first round, and only a human raises it.
func effortFits(prev *protocol.Request, in NewRequest) error {
	if prev == nil || in.Effort == "" || in.Effort == prev.Effort {
		return nil
	}
	gate := cmp.Or(in.Gate, prev.Gate)
	loop, open := OpenLoop(prev, gate)
	if !open {
		return nil
	}
	return &protocol.UsageError{Msg: fmt.Sprintf("--effort %s: the loop of gate %s is open with its limit of %s, fixed at its first round", in.Effort, gate, protocol.Plural(loop.MaxRounds, "round")),
		Hint: "ask without --effort; a human raises the limit if needed: specdev work unblock --rounds N (when it is reached)"}
}

// nextRequest builds the request that follows prev.
func (a *Assignment) nextRequest(prev *protocol.Request, in NewRequest, tx *Tx) *protocol.Request {
	old := *cmp.Or(prev, &protocol.Request{}) // prev's fields; zero for none
	// a later request stays in its group, with its files and effort, and
	// a re-request continues the gate's loop
	effort := cmp.Or(in.Effort, old.Effort)
	r := &protocol.Request{
		Version: protocol.RequestVersion, RequestID: newRequestID(), Status: protocol.StatusPending, Timestamp: protocol.At(tx.Now),
		AssignmentID: a.ID(), AssignmentPath: a.RelDir(), Worktree: in.Worktree,
		Gate:       cmp.Or(in.Gate, old.Gate, protocol.DefaultGate),
		Mode:       cmp.Or(in.Mode, old.Mode, protocol.ModeAuto),
		HeadCommit: in.HeadCommit, SnapshotCommit: in.Snapshot, ChangedFiles: in.ChangedFiles, Fingerprint: in.Fingerprint,
		BaseCommit: in.Coverage.BaseCommit, Staged: in.Coverage.Staged,
		FileDigests: in.Coverage.FileDigests, CarriedDigests: in.Coverage.CarriedDigests,
		Notes: in.Notes, Checkpoint: in.Checkpoint, FileSet: in.FileSet,
		Round: 1, MaxRounds: a.store.Config.ForEffort(effort).RoundLimit(), Effort: effort,
		Group: cmp.Or(in.Group, old.Group),
		Extra: old.Extra, Loops: maps.Clone(old.Loops),
		Passed: old.Passed, // every gate's last pass outlives the loop
	}
	if r.FileSet == nil {
		r.FileSet = old.FileSet
	}
	if old.NamesNoFiles() && old.RequestID != "" {
		r.RequestID = old.RequestID // the same request, now with its files
	}
	if old.Gate == r.Gate {
		r.LastReviewedCommit = old.LastReviewedCommit
	}
	if loop, open := OpenLoop(prev, r.Gate); open {
		r.Round = loop.RoundsFailed + 1
		if loop.MaxRounds > 0 { // a hand-written request may name no limit
			r.MaxRounds = loop.MaxRounds
		}
		if loop.Stuck { // neither a cancel nor another gate lifts it: only a human
			r.BlockedReason = protocol.BlockedStuck
		}
	}
	if old.Status == protocol.StatusFailed && old.Gate == r.Gate {
		r.ReviewerSessionID, r.AgentSession, r.Guidance = old.ReviewerSessionID, old.AgentSession, old.Guidance
	}
	if r.Round > 1 {
		r.Delta = in.Delta
		if old.AgentCost != nil { // the loop goes on: so does what its agents used
			r.AgentCost = &protocol.AgentCost{Loop: old.AgentCost.Loop}
		}
	}
	return r
}

// Continue lets a paused manual-mode implementer go on after a rejection.
// The guidance, if any, is shown to the implementer from then on.
func (a *Assignment) Continue(ctx context.Context, guidance string) (*protocol.Request, error) {
	return a.updateRequest(ctx, func(tx *Tx, r *protocol.Request) error {
		if r.Status != protocol.StatusFailed || r.Mode != protocol.ModeManual {
			return conflict("continue is for a manual-mode implementer paused after a rejection; run specdev work to see the state",
				"nothing is paused: the review is %s in %s mode", describeStatus(r.Status), r.Mode)
		}
		r.ContinuedAt = protocol.At(tx.Now)
		if guidance != "" {
			r.Guidance = guidance
		}
		tx.Log(protocol.EventContinued, "", map[string]any{"guidance": guidance})
		return nil
	})
}

// Unblock lifts a blocked loop so that at least rounds more rounds are
// allowed: a request blocked when it was made goes back to pending, a
// stuck rejection back to failed (its findings are the implementer's to
// fix, in the next round). The caller checks rounds is 1 or more.
func (a *Assignment) Unblock(ctx context.Context, rounds int) (*protocol.Request, error) {
	return a.updateRequest(ctx, func(tx *Tx, r *protocol.Request) error {
		if r.Status != protocol.StatusBlocked {
			return conflict("unblock is only for a blocked review loop", "the review is %s, not blocked", describeStatus(r.Status))
		}
		used, status := r.Round-1, protocol.StatusPending
		if !r.CompletedAt.IsZero() { // its round was rejected: the implementer goes on, a human said so
			used, status = r.Round, protocol.StatusFailed
			if r.Mode == protocol.ModeManual {
				r.ContinuedAt = protocol.At(tx.Now)
			}
		}
		r.MaxRounds = max(r.MaxRounds, used+rounds)
		if loop, ok := r.Loops[r.Gate]; ok {
			loop.MaxRounds, loop.Stuck = r.MaxRounds, false
			r.Loops[r.Gate] = loop
		}
		tx.Log(protocol.EventUnblocked, "", map[string]any{"max_rounds": r.MaxRounds, "rounds": rounds, "reason": cmp.Or(r.BlockedReason, blockedAtLimit)})
		r.Status, r.BlockedReason = status, ""
		return nil
	})
}

// Cancel withdraws a pending, in-progress, awaiting or blocked request.
func (a *Assignment) Cancel(ctx context.Context) (*protocol.Request, error) {
	return a.updateRequest(ctx, func(tx *Tx, r *protocol.Request) error {
		if err := protocol.Transition(r.Status, protocol.StatusCancelled); err != nil {
			return conflict("there is nothing active to withdraw", "%v", err)
		}
		r.Status, r.BlockedReason = protocol.StatusCancelled, ""
		r.CompletedAt = protocol.At(tx.Now)
		r.ReviewerSessionID, r.AgentSession = "", nil
		tx.Log(protocol.EventCancelled, "", nil)
		return nil
	})
}

// updateRequest runs fn on the existing request.
func (a *Assignment) updateRequest(ctx context.Context, fn func(*Tx, *protocol.Request) error) (*protocol.Request, error) {
	snap, err := a.change(ctx, func(tx *Tx) error {
		if tx.Request == nil {
			return conflict("ask for a review first: specdev work request", "assignment %s has no review request", a.Name)
		}
		return fn(tx, tx.Request)
	})
	return snap.Request, err
}

// Paused reports whether a manual-mode implementer waits for a human after
// a rejection.
func Paused(r *protocol.Request) bool {
	return r != nil && r.Status == protocol.StatusFailed && r.Mode == protocol.ModeManual && r.ContinuedAt.IsZero() && !r.Checkpoint
}

func blockedError(r *protocol.Request) error {
	if r.BlockedReason == protocol.BlockedStuck {
		return &BlockedError{Msg: "review loop stuck: a rejection only repeated the findings of the round before it",
			Hint: "a human reads the findings (specdev work), then runs: specdev work unblock (the implementer goes on) or specdev work cancel"}
	}
	if !r.CompletedAt.IsZero() {
		return &BlockedError{Msg: fmt.Sprintf("review loop blocked: round %s was rejected, the last the loop's limit allows", r.RoundText()),
			Hint: "a human reads the findings (specdev work), then runs: specdev work unblock --rounds 1 (one more round) or specdev work cancel"}
	}
	return &BlockedError{Msg: fmt.Sprintf("review loop blocked: round %d would pass the limit of %s", r.Round, protocol.Plural(r.MaxRounds, "round")),
		Hint: "a human decides: specdev work unblock --rounds 1 (allow one more round) or specdev work cancel"}
}

// describeStatus is the status in words: "in progress", "not requested".
func describeStatus(s protocol.Status) string {
	return cmp.Or(strings.ReplaceAll(string(s), "_", " "), "not requested")
}

// SetMode switches the implementer's mode of the current request (the
// seed's "specdev work mode=manual"). It logs no event: no status changes.
func (a *Assignment) SetMode(ctx context.Context, mode protocol.Mode) (*protocol.Request, error) {
	return a.updateRequest(ctx, func(tx *Tx, r *protocol.Request) error {
		r.Mode = mode
		return nil
	})
}
