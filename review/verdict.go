package review

import (
	"context"
	"fmt"
	"strings"

	"github.com/specdev/specdev/checkpoint"
	"github.com/specdev/specdev/protocol"
)

// verdictGiven is the data of a verdict.
type verdictGiven struct {
	Assignment  string            `json:"assignment"`
	NotReviewed []string          `json:"not_reviewed,omitempty"`
	Request     *protocol.Request `json:"request"`
	Session     string            `json:"session"`
	Verdict     protocol.Verdict  `json:"verdict"`
}

// Verdict records the reviewer's verdict on the caller's review, under
// the lock, if the caller's session and lease still hold it.
func (s *Service) Verdict(ctx context.Context, v protocol.Verdict) (Result, error) {
	if err := v.Validate(); err != nil {
		return Result{}, err
	}
	a, h, err := s.heldReview("verdict")
	if err != nil {
		return Result{}, err
	}
	snap, err := a.GiveVerdict(ctx, h, v)
	if err != nil {
		return Result{}, err
	}
	r := snap.Request
	data := verdictGiven{Assignment: a.Name, Session: h.Session, Request: r, Verdict: v}
	if r.Status == protocol.StatusAwaitingApproval {
		return Result{State: string(r.Status), Data: data,
			Text: fmt.Sprintf("Verdict proposed: %s for %s (round %s). A human approves or rejects it.",
				strings.ToUpper(v.Word()), a.Name, r.RoundText()),
			Next: fmt.Sprintf("a human runs: specdev check approve --assignment %s (pass) or specdev check reject --assignment %s --reason \"…\" (fail); meanwhile: %s", a.Name, a.Name, checkpoint.ClaimCommand(h.Session))}, nil
	}
	status, stuck := r.Status, r.BlockedReason == protocol.BlockedStuck
	if stuck {
		status = protocol.StatusFailed
	}
	text := fmt.Sprintf("Verdict: %s for %s (round %s, %s). The implementer sees it with specdev work.",
		strings.ToUpper(string(status)), a.Name, r.RoundText(), plural(snap.Progress.FindingsSoFar+len(v.Issues), "finding"))
	if stuck {
		text += "\n" + stuckNote
	}
	if left := snap.Progress.FilesRemaining; len(left) > 0 {
		text += "\n" + notReviewedText(left)
		data.NotReviewed = left
	}
	return Result{State: string(r.Status), Data: data, Text: text,
		Next: "pick up the next review: " + checkpoint.ClaimCommand(h.Session)}, nil
}

// stuckNote tells the reviewer or approver that a rejection stopped its
// loop as stuck.
const stuckNote = "The loop is stuck: every blocking finding was already open in the round before, so a human decides how to go on (specdev work unblock lets the implementer go on)."

// notReviewedText says which files a failed round left unread: a fail
// may come before every file is read, and neither side should take the
// unread files for reviewed (the next round reviews them).
func notReviewedText(files []string) string {
	const shown = 10
	list := strings.Join(files[:min(len(files), shown)], ", ")
	if len(files) > shown {
		list += fmt.Sprintf(", and %d more", len(files)-shown)
	}
	return fmt.Sprintf("Not reviewed in this round (%s): %s.", plural(len(files), "file"), list)
}

// released is the data of a release.
type released struct {
	Assignment    string `json:"assignment"`
	FilesReviewed int    `json:"files_reviewed"`
	FilesTotal    int    `json:"files_total"`
	Session       string `json:"session"`
}

// Release gives the caller's review back with its progress kept.
func (s *Service) Release(ctx context.Context) (Result, error) { return s.ReleaseFor(ctx, "") }

// ReleaseFor is Release that logs why (an agent runner's "agent_crashed").
func (s *Service) ReleaseFor(ctx context.Context, why string) (Result, error) {
	a, h, err := s.heldReview("release")
	if err != nil {
		return Result{}, err
	}
	snap, err := a.Release(ctx, h, why)
	if err != nil {
		return Result{}, err
	}
	p := snap.Progress
	text := fmt.Sprintf("Released %s: %d/%d files reviewed are kept.", a.Name, len(p.FilesReviewed), p.FilesTotal)
	if len(p.FilesRemaining) > 0 {
		text += " The next reviewer resumes from " + p.FilesRemaining[0] + "."
	}
	return Result{State: "released", Text: text, Next: "pick up a review when ready: " + checkpoint.ClaimCommand(h.Session),
		Data: released{Assignment: a.Name, Session: h.Session, FilesReviewed: len(p.FilesReviewed), FilesTotal: p.FilesTotal}}, nil
}
