package checkpoint

import (
	"maps"
	"slices"

	"github.com/specdev/specdev/protocol"
)

// Checkpoint reviews (work request --checkpoint): a review of work in
// progress. It is claimed, recorded and decided like any review, but it is
// no round of the gate's loop: its verdict neither counts against the
// round limit nor closes the loop, its pass is no pass of the gate (no
// PassRecord: `specdev gate` ignores it), and it leaves the last reviewed
// commit alone, so the next real round still covers everything since the
// last real review. Its rejection only gives the implementer findings: a
// manual-mode implementer is not paused by it.

// decideRound settles what a decided review means for its gate: a real
// round remembers the commit it reviewed, counts a rejection against the
// loop or closes the loop on a pass, and records the pass for the gate.
// A checkpoint review changes none of it. Call it once r.CompletedAt is
// set.
func decideRound(tx *Tx, r *protocol.Request, passed bool) {
	if r.Checkpoint {
		return
	}
	r.LastReviewedCommit = r.ReviewedCommit()
	closeRound(r, passed, tx.A.store.Config.ForEffort(r.Effort).RoundLimit())
	if passed {
		recordPass(tx, r)
	}
}

// requestedDetail is the detail of a "requested" history event.
func requestedDetail(r *protocol.Request) map[string]any {
	d := map[string]any{"gate": r.Gate, "files": len(r.ChangedFiles), "head_commit": r.HeadCommit, "fingerprint": r.Fingerprint}
	if r.Group != "" {
		d["group"] = r.Group
	}
	if r.Checkpoint {
		d["checkpoint"] = true
	}
	return d
}

// OpenLoop returns the gate's review loop that prev carries, if one is
// open (a round of it was rejected and it has not passed since): a new
// request for the gate opens its next round. Neither a cancel nor a
// request for another gate closes it; only a pass does, and only a human
// raises its limit.
func OpenLoop(prev *protocol.Request, gate string) (protocol.Loop, bool) {
	if prev == nil {
		return protocol.Loop{}, false
	}
	// a request written before loops were kept: its own round, unless it
	// was a checkpoint review or a failed preflight (neither is a round)
	if loop, ok := prev.Loops[gate]; ok || prev.Gate != gate || prev.Checkpoint || prev.PreflightFailed {
		return loop, ok
	}
	switch prev.Status {
	case protocol.StatusFailed:
		return protocol.Loop{RoundsFailed: prev.Round, MaxRounds: prev.MaxRounds}, true
	case protocol.StatusBlocked:
		return protocol.Loop{RoundsFailed: prev.Round - 1, MaxRounds: prev.MaxRounds}, true
	}
	return protocol.Loop{}, false
}

// closeRound updates the gate's loop when a round is decided: a rejection
// counts against the limit, a pass closes the loop.
func closeRound(r *protocol.Request, passed bool, limit int) {
	if passed {
		delete(r.Loops, r.Gate)
		if len(r.Loops) == 0 {
			r.Loops = nil
		}
		return
	}
	if r.Loops == nil {
		r.Loops = map[string]protocol.Loop{}
	}
	if r.MaxRounds > 0 {
		limit = r.MaxRounds
	}
	r.Loops[r.Gate] = protocol.Loop{RoundsFailed: r.Round, MaxRounds: max(limit, 1)}
}

// Coverage is what a new request covers besides its files: the commit its
// range starts from, whether it is the staged change, the content digest
// of each file, and the digests carried from earlier rounds and passes
// (see the protocol.Request fields of the same names).
type Coverage struct {
	BaseCommit     string
	Staged         bool
	FileDigests    map[string]string
	CarriedDigests map[string]string
}

// recordPass remembers r, which has just passed, as the passing review of
// its gate (protocol.PassRecord), beside those of other gates, so that
// `specdev gate` can check what is committed against what was reviewed.
// Call it once r.CompletedAt is set.
func recordPass(tx *Tx, r *protocol.Request) {
	passed := make(map[string]protocol.PassRecord, len(r.Passed)+1)
	maps.Copy(passed, r.Passed)
	var reviewed map[string]string // the files the round reviewed, with the content the request named
	if p := tx.Progress; p != nil && p.RequestID == r.RequestID {
		reviewed = protocol.ReviewedDigests(r, p)
		for f := range reviewed {
			if sum, ok := r.FileDigests[f]; ok {
				reviewed[f] = sum
			}
		}
	}
	passed[r.Gate] = r.PassRecord(protocol.At(tx.Now), reviewed)
	r.Passed = passed
}

// planRound decides how the claim of r by session reads r's files. Round
// 1 is a full review. A later round is a follow-up when the previous
// round was of the same gate, the session is the one that reviewed it
// (the request remembers it), and the change since then is known, from a
// commit still there, and at most MaxFollowUpShare of the review: then
// only the files changed since and those the previous round found
// something in are to be read again. Otherwise it is a full review, and
// fallback says why (the first reason in that order).
func planRound(r *protocol.Request, prev *protocol.RoundRecord, session string) (plan protocol.RoundPlan, fallback string) {
	plan = protocol.RoundPlan{Kind: protocol.PlanFull, Gate: r.Gate, HeadCommit: r.ReviewedCommit()}
	if r.Round <= 1 || prev == nil {
		return plan, ""
	}
	d := r.Delta
	if d != nil {
		plan.ChangedLines, plan.TotalLines = d.ChangedLines, d.TotalLines
	}
	switch {
	case prev.Gate != "" && prev.Gate != r.Gate:
		fallback = protocol.FallbackGateChanged
	case session != r.ReviewerSessionID:
		fallback = protocol.FallbackOtherSession
	case d == nil:
		fallback = protocol.FallbackChangeUnknown
	case d.CommitGone:
		fallback = protocol.FallbackCommitGone
	case d.Share() > protocol.MaxFollowUpShare:
		fallback = protocol.FallbackChangeTooLarge
	}
	if fallback != "" {
		plan.Reason = fallback
		return plan, fallback
	}
	plan.Kind, plan.Since = protocol.PlanFollowUp, d.Since
	changed := setOf(d.Changed)
	withFindings := map[string]bool{}
	for _, f := range prev.AllFindings() {
		withFindings[f.File] = true
	}
	for _, f := range r.ChangedFiles {
		switch {
		case changed[f]:
		case withFindings[f]:
			plan.HadFindings = append(plan.HadFindings, f)
		default:
			plan.Unchanged = append(plan.Unchanged, f)
		}
	}
	return plan, ""
}

// toRead splits the request's files by the plan: those to review (what
// changed first, then what is re-read only for its findings), and those
// carried over as reviewed (unchanged since the previous round).
// The carried files are a copy: a record takes a file it reads after all
// out of plan.Unchanged in place.
func toRead(r *protocol.Request, plan protocol.RoundPlan) (remaining, reviewed []string) {
	carried, recheck := setOf(plan.Unchanged), setOf(plan.HadFindings)
	remaining = slices.DeleteFunc(slices.Clone(r.ChangedFiles), func(f string) bool { return carried[f] || recheck[f] })
	return append(remaining, plan.HadFindings...), append([]string{}, plan.Unchanged...)
}

func setOf(list []string) map[string]bool {
	set := make(map[string]bool, len(list))
	for _, s := range list {
		if s != "" {
			set[s] = true
		}
	}
	return set
}
