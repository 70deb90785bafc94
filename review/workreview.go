package review

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/specdev/specdev/checkpoint"
	"github.com/specdev/specdev/internal/changeset"
	"github.com/specdev/specdev/protocol"
)

// What the implementer sees of a decided review besides its status: the
// commit it read and how (a follow-up of the changes since the round
// before), the reviewer's reading of the change's intent, and which
// findings are new in this round and which were already found before.

// reviewedRange describes what the decided round read.
type reviewedRange struct {
	At        string `json:"at,omitempty"`    // the commit holding what was reviewed
	Since     string `json:"since,omitempty"` // a follow-up: the commit its changes were read from
	FollowUp  bool   `json:"follow_up,omitempty"`
	Unchanged int    `json:"unchanged,omitempty"` // files carried over without re-reading
	// OnTopOf is the branch's head when At is a snapshot commit of files
	// that were not committed yet (it is in no branch's git log).
	OnTopOf string `json:"snapshot_on_top_of,omitempty"`
}

func reviewedRangeOf(snap checkpoint.Snapshot) *reviewedRange {
	if !snap.Current() || snap.Progress.Plan == nil {
		return nil
	}
	pl := snap.Progress.Plan
	rr := &reviewedRange{At: pl.HeadCommit, Since: pl.Since, FollowUp: pl.FollowUp(), Unchanged: len(pl.Unchanged)}
	if r := snap.Request; r.SnapshotCommit == rr.At && r.HeadCommit != "" && r.HeadCommit != rr.At {
		rr.OnTopOf = r.HeadCommit
	}
	return rr
}

// writeReviewedAt: "Reviewed at def5678: a follow-up of the changes since
// abc1234 (28 files unchanged, not re-read)." A snapshot of uncommitted
// files says which commit it sits on.
func writeReviewedAt(b *strings.Builder, rr *reviewedRange) {
	if rr == nil || rr.At == "" {
		return
	}
	fmt.Fprintf(b, "Reviewed at %s", short(rr.At))
	if rr.OnTopOf != "" {
		fmt.Fprintf(b, " (a snapshot of uncommitted files on top of %s)", short(rr.OnTopOf))
	}
	if rr.FollowUp && rr.Since != "" {
		fmt.Fprintf(b, ": a follow-up of the changes since %s (git diff %s..%s)", short(rr.Since), short(rr.Since), short(rr.At))
		if rr.Unchanged > 0 {
			fmt.Fprintf(b, "; %s unchanged, not re-read", protocol.Plural(rr.Unchanged, "file"))
		}
	}
	b.WriteString(".\n")
}

// findingOrigins says, for each finding of a later round, whether the
// round before had found it already (protocol.Finding.Same):
// "carried_over", else "new". nil in round 1.
func findingOrigins(snap checkpoint.Snapshot, findings []protocol.Finding) []string {
	prev, ok := previousRound(snap)
	if !ok {
		return nil
	}
	before := prev.AllFindings()
	origins := make([]string, len(findings))
	for i, f := range findings {
		origins[i] = "new"
		if slices.ContainsFunc(before, f.Same) {
			origins[i] = "carried_over"
		}
	}
	return origins
}

// writeRoundFindings lists findings, each marked new or carried over when
// the round has a round before it.
func writeRoundFindings(b *strings.Builder, findings []protocol.Finding, origins []string, previousRound int) {
	for i, f := range findings {
		mark := ""
		switch {
		case origins == nil:
		case origins[i] == "carried_over":
			mark = fmt.Sprintf("  (still open from round %d)", previousRound)
		default:
			mark = "  (new)"
		}
		writeFinding(b, "  ", f, mark)
	}
}

// previousRound is the record of the round before the current one, if
// there is one (its Round is 0 when there is none).
func previousRound(snap checkpoint.Snapshot) (protocol.RoundRecord, bool) {
	if !snap.Current() || len(snap.Progress.PreviousRounds) == 0 {
		return protocol.RoundRecord{}, false
	}
	return snap.Progress.PreviousRounds[len(snap.Progress.PreviousRounds)-1], true
}

// stuckText says why a loop stopped as stuck: the rejection's blocking
// findings, every one of them already open in the round before.
func stuckText(snap checkpoint.Snapshot, head string, d *workData) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Review loop stuck: %s%s. A human must decide.\n", head, byReviewer(d.Reviewer))
	prev, ok := previousRound(snap)
	if !ok || snap.Progress.Verdict == nil {
		b.WriteString("A rejection of this loop only repeated the findings of the round before it.\n")
		return b.String()
	}
	writeSummary(&b, snap)
	d.Findings = findingsOf(snap)
	d.Repeated = protocol.Repeats(d.Findings, prev)
	fmt.Fprintf(&b, "Every blocking finding was already open in round %d, so the loop stopped instead of spending its rounds on them:\n", prev.Round)
	writeFindings(&b, "  ", d.Repeated)
	return b.String()
}

// changedSincePass says, after a pass, which reviewed files changed since
// the review read them: the pass stands, but it does not cover them.
func (s *Service) changedSincePass(ctx context.Context, view *Result, d *workData) {
	if len(d.reviewedSums) == 0 {
		return
	}
	root, err := s.checkoutOf(d.Request)
	var now changeset.Sums
	if err == nil {
		now, err = digestFiles(ctx, root, slices.Collect(maps.Keys(d.reviewedSums)), d.Request.Staged)
	}
	if err != nil {
		s.Log.Warnf("cannot tell whether the reviewed files changed since the pass: %v", err)
		return
	}
	if d.ChangedSince = protocol.ChangedSince(d.reviewedSums, now.Files); len(d.ChangedSince) > 0 {
		addLine(view, fmt.Sprintf("Changed since the review, so the pass does not cover them: %s.", strings.Join(d.ChangedSince, ", ")))
		view.Next = "to have the changes reviewed: specdev work request"
	}
}

// addLine adds a line to a view's text.
func addLine(view *Result, line string) { view.Text = strings.TrimRight(view.Text, "\n") + "\n" + line }

// Checkpoint reviews on the implementer's side (see checkpoint/round.go
// for what they are): how `specdev work` shows one (work request's
// answer names it too), and when `specdev work` suggests one. The trigger is
// config.json's checkpoint_every, counted in commits: after that many
// commits since the assignment's last review (of either kind), or since
// the branch point when it had none, `work` suggests a checkpoint review.
// Commits are the implementer's iterations that git can count; nothing is
// counted outside git.

// checkpointView words `specdev work`'s view of a checkpoint review: a
// rejection is findings to fix on the way (still exit 4), a pass only
// says to go on; neither is the verdict on the work.
func checkpointView(res Result, d workData) Result {
	r := d.Request
	switch r.Status {
	case protocol.StatusBlocked, protocol.StatusCancelled:
		return res
	}
	res.Text = strings.Replace(res.Text, "Review ", "Checkpoint review ", 1) // every view's heading starts so
	switch r.Status {
	case protocol.StatusFailed:
		if n := len(d.Findings); n > 0 {
			res.Text = strings.Replace(res.Text, "Checkpoint review failed: ", "Checkpoint review found "+protocol.Plural(n, "finding")+": ", 1)
		}
		res.Next = "fix the findings and go on; when the work is done: specdev work request"
	case protocol.StatusPassed:
		res.Next = "go on with the work; when it is done: specdev work request"
	}
	res.State = "checkpoint_" + res.State // --json tells it from a review of the loop: checkpoint_passed …
	addLine(&res, "A checkpoint review is no round of the loop, and its pass does not open the gate.")
	return res
}

// suggestCheckpoint adds to a view in which nobody is waited for the
// suggestion of a checkpoint review, once checkpoint_every commits were
// made since the assignment's last review. Where the implementer had
// nothing else to do, it becomes the next step.
func (s *Service) suggestCheckpoint(ctx context.Context, view *Result, d *workData) {
	var since, effort string
	switch r := d.Request; {
	case r == nil:
	case checkpoint.Paused(r):
		return // a human must act first
	case r.Status == protocol.StatusPassed || r.Status == protocol.StatusFailed:
		since, effort = r.HeadCommit, r.Effort // the head the latest review saw
	case r.Status == protocol.StatusCancelled:
		since, effort = r.LastReviewedCommit, r.Effort
	default:
		return // someone is waited for, or a human must act first
	}
	every := s.Store.Config.ForEffort(effort).CheckpointInterval()
	if every == 0 {
		return
	}
	root, err := s.checkoutOf(d.Request)
	if err != nil {
		return // work shows the request; its checkout's problem shows where git must run
	}
	n, ok, err := changeset.CommitsSince(ctx, root, since)
	if err != nil {
		s.Log.Debug("counting commits for checkpoint_every", "err", err)
		return
	}
	if !ok || n < every {
		return
	}
	what := map[bool]string{false: "the last review", true: "the branch point"}[since == ""]
	cmd := "specdev work request --checkpoint"
	if s.Assignment != "" {
		cmd += " --assignment " + d.Assignment
	}
	addLine(view, fmt.Sprintf("%s since %s (checkpoint_every %d): time for a checkpoint review of the work in progress: %s", protocol.Plural(n, "commit"), what, every, cmd))
	if d.Request == nil || d.Request.Status != protocol.StatusFailed {
		view.Next = "ask for a checkpoint review: " + cmd
	}
}
