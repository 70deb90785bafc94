package checkpoint

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/specdev/specdev/protocol"
)

// The rules that make a review loop converge rather than spend its rounds:
// a request with nothing changed since the loop's last review is refused;
// a rejection that only repeats the round before's blocking findings stops
// the loop as stuck, for a human; a pass of files changed since they were
// recorded is refused.

// DigestFunc returns the content digest of each of r's files as it is
// now, in the checkout r was made in: as the index holds it for a staged
// review, else as the work tree does.
type DigestFunc func(ctx context.Context, r *protocol.Request, files []string) (map[string]string, error)

// stalled refuses r when it would have the loop's last rejected round
// reviewed again as it was: the same files with the same content, of the
// same gate and kind. A failed pre-flight gate or a checkpoint review was
// no review of a round, so a request after one may repeat it.
func stalled(prev, r *protocol.Request) error {
	if prev == nil || prev.Status != protocol.StatusFailed || prev.PreflightFailed || prev.Checkpoint || r.Checkpoint ||
		prev.Gate != r.Gate || prev.Staged != r.Staged || len(prev.FileDigests) == 0 || !maps.Equal(prev.FileDigests, r.FileDigests) {
		return nil
	}
	return conflict(fmt.Sprintf("change something first: fix round %d's findings (specdev work lists them), then run: specdev work request; "+
		"to stop here instead, leave it: nothing was written and no round was spent", prev.Round),
		"nothing changed since round %d's review: the same %s with the same content would get the same review", prev.Round, protocol.Plural(len(r.ChangedFiles), "file"))
}

// blockedAtLimit is the reason a history event gives for a loop blocked
// at its round limit (a request's BlockedReason names any other).
const blockedAtLimit = "round_limit"

// stopForHuman stops the loop of a just rejected round for a human, at
// once, when it is stuck (stopIfStuck) or the round was the last its
// limit allows: the implementer is never sent to fix findings that no
// round is left to review.
func stopForHuman(tx *Tx, r *protocol.Request, p *protocol.Progress) {
	stopIfStuck(tx, r, p)
	loop, ok := r.Loops[r.Gate]
	if r.Checkpoint || r.Status != protocol.StatusFailed || !ok || loop.RoundsFailed < loop.MaxRounds {
		return
	}
	r.Status, r.ReviewerSessionID = protocol.StatusBlocked, ""
	tx.Log(protocol.EventBlocked, "", map[string]any{"max_rounds": loop.MaxRounds, "round": r.Round, "reason": blockedAtLimit})
}

// stopIfStuck stops the loop of a just rejected round for a human when
// every blocking finding of the round was already found by the round
// before (protocol.Repeats), instead of spending the remaining rounds on
// them. stop_on_repeat false in config.json turns it off.
func stopIfStuck(tx *Tx, r *protocol.Request, p *protocol.Progress) {
	n := len(p.PreviousRounds)
	if r.Checkpoint || n == 0 || !tx.A.store.Config.StopsOnRepeat() {
		return
	}
	before := p.PreviousRounds[n-1]
	if before.Status != protocol.StatusFailed || before.Gate != "" && before.Gate != r.Gate {
		return
	}
	repeated := protocol.Repeats(p.Record().AllFindings(), before)
	if len(repeated) == 0 {
		return
	}
	loop := r.Loops[r.Gate] // closeRound has counted the round
	loop.Stuck = true
	r.Loops[r.Gate] = loop
	r.Status, r.BlockedReason, r.ReviewerSessionID = protocol.StatusBlocked, protocol.BlockedStuck, ""
	tx.Log(protocol.EventBlocked, "", map[string]any{"reason": protocol.BlockedStuck, "repeated": len(repeated), "since_round": before.Round})
}

// recordDigest keeps the file's content digest as the reviewer recorded
// it, where it differs from the request's: ReviewedDigests reads the
// request's for a file the progress holds none for, so a review of
// files recorded as requested carries no second copy of their digests
// (2,500 of them were a third of a 5,000-file progress, decoded and
// encoded again by every check record).
func (a *Assignment) recordDigest(ctx context.Context, r *protocol.Request, p *protocol.Progress, file string) error {
	if a.store.Digest == nil {
		return nil
	}
	sums, err := a.store.Digest(ctx, r, []string{file})
	if err != nil {
		return err
	}
	if sum, ok := r.FileDigests[file]; ok && sums[file] == sum {
		delete(p.RecordedDigests, file)
		return nil
	}
	if p.RecordedDigests == nil {
		p.RecordedDigests = map[string]string{}
	}
	p.RecordedDigests[file] = sums[file]
	return nil
}

// changedUnderReview refuses a pass of files whose content changed since
// the review read them (protocol.ReviewedDigests): the pass would vouch
// for content nobody read.
func (a *Assignment) changedUnderReview(ctx context.Context, r *protocol.Request, p *protocol.Progress, h Holder) error {
	if a.store.Digest == nil {
		return nil
	}
	was := protocol.ReviewedDigests(r, p)
	now, err := a.store.Digest(ctx, r, slices.Collect(maps.Keys(was)))
	if err != nil {
		return err
	}
	changed := protocol.ChangedSince(was, now)
	if len(changed) == 0 {
		return nil
	}
	return conflict(fmt.Sprintf("read each again and record it: specdev check record %s %s", changed[0], h.Flags()),
		"cannot pass: %s changed since recorded: %s", protocol.Plural(len(changed), "file"), FirstOf(changed, 10))
}
