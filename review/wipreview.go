package review

import (
	"context"
	"fmt"
	"strings"

	"github.com/specdev/specdev/checkpoint"
	"github.com/specdev/specdev/internal/changeset"
	"github.com/specdev/specdev/protocol"
)

// Checkpoint reviews on the implementer's side (see checkpoint/wipreview.go
// for what they are): how a request for one reads, how `specdev work`
// shows one, and when `specdev work` suggests one. The trigger is
// config.json's checkpoint_every, counted in commits: after that many
// commits since the assignment's last review (of either kind), or since
// the branch point when it had none, `work` suggests a checkpoint review.
// Commits are the implementer's iterations that git can count; nothing is
// counted outside git.

// requestHeading is the first line of `work request`'s answer.
func requestHeading(a *checkpoint.Assignment, r *protocol.Request) string {
	what := fmt.Sprintf("gate %s, round %s", r.Gate, r.RoundText())
	if r.Group != "" {
		what += ", group " + r.Group
	}
	if r.Checkpoint {
		return fmt.Sprintf("Checkpoint review requested: %s (%s; not a round: the loop and the gate do not count it)\n", a.Name, what)
	}
	return fmt.Sprintf("Review requested: %s (%s)\n", a.Name, what)
}

// checkpointView words `specdev work`'s view of a checkpoint review: a
// rejection is findings to fix on the way (still exit 4), a pass only
// says to go on; neither is the verdict on the work.
func checkpointView(res Result, d workData) Result {
	r := d.Request
	switch r.Status {
	case protocol.StatusBlocked, protocol.StatusCancelled:
		return res
	}
	first, rest, _ := strings.Cut(res.Text, "\n")
	first = strings.Replace(first, "Review ", "Checkpoint review ", 1)
	switch r.Status {
	case protocol.StatusFailed:
		if n := len(d.Findings); n > 0 {
			first = fmt.Sprintf("Checkpoint review found %s: %s", plural(n, "finding"), strings.TrimPrefix(first, "Checkpoint review failed: "))
		}
		res.Next = "fix the findings and go on; when the work is done: specdev work request"
	case protocol.StatusPassed:
		res.Next = "go on with the work; when it is done: specdev work request"
	}
	note := "A checkpoint review is no round of the loop, and its pass does not open the gate."
	res.State = "checkpoint_" + res.State // --json tells it from a review of the loop: checkpoint_passed …
	res.Text = strings.TrimRight(first+"\n"+rest, "\n") + "\n" + note
	return res
}

// suggestCheckpoint adds to a view in which nobody is waited for the
// suggestion of a checkpoint review, once checkpoint_every commits were
// made since the assignment's last review. Where the implementer had
// nothing else to do, it becomes the next step.
func (s *Service) suggestCheckpoint(ctx context.Context, view Result) Result {
	d, ok := view.Data.(workData)
	if !ok {
		return view
	}
	effort := ""
	if d.Request != nil {
		effort = d.Request.Effort
	}
	every := s.Store.Config.ForEffort(effort).CheckpointInterval()
	if every == 0 {
		return view
	}
	var since string
	switch r := d.Request; {
	case r == nil:
	case r.Status == protocol.StatusPassed || r.Status == protocol.StatusFailed:
		since = r.HeadCommit // the head the latest review saw
	case r.Status == protocol.StatusCancelled:
		since = r.LastReviewedCommit
	default:
		return view // someone is waited for, or a human must act first
	}
	if checkpoint.Paused(d.Request) {
		return view
	}
	root, err := s.checkoutOf(d.Request)
	if err != nil {
		return view // work shows the request; its checkout's problem shows where git must run
	}
	n, ok, err := changeset.CommitsSince(ctx, root, since)
	if err != nil {
		s.Log.Debug("counting commits for checkpoint_every", "err", err)
		return view
	}
	if !ok || n < every {
		return view
	}
	what := "the last review"
	if since == "" {
		what = "the branch point"
	}
	cmd := "specdev work request --checkpoint"
	if s.Assignment != "" {
		cmd += " --assignment " + d.Assignment
	}
	view.Text = strings.TrimRight(view.Text, "\n") +
		fmt.Sprintf("\n%s since %s (checkpoint_every %d): time for a checkpoint review of the work in progress: %s", plural(n, "commit"), what, every, cmd)
	if d.Request == nil || d.Request.Status != protocol.StatusFailed {
		view.Next = "ask for a checkpoint review: " + cmd
	}
	return view
}
