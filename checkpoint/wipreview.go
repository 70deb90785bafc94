package checkpoint

import "github.com/specdev/specdev/protocol"

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
