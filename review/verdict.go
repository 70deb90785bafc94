package review

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
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
		strings.ToUpper(string(status)), a.Name, r.RoundText(), protocol.Plural(snap.Progress.FindingsSoFar+len(v.Issues), "finding"))
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
	return fmt.Sprintf("Not reviewed in this round (%s): %s.", protocol.Plural(len(files), "file"), checkpoint.FirstOf(files, 10))
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

// Conclusion is a whole review's outcome given in one piece, the way a
// loop runner's reviewer reports it: pass or fail, the intent, and the
// issues, each about a file or about none.
type Conclusion struct {
	Passed            bool
	InterpretedIntent string
	IntentSatisfied   *bool
	Issues            []protocol.Finding // a missing severity is important on a fail, minor on a pass
}

// Conclude writes a conclusion as a reviewer who records every file and
// then gives the verdict would, so the files on disk are the ones the
// command line leaves: each file of the review an issue names is
// recorded with its issues (added to what was recorded for it before);
// each file not yet recorded is recorded without findings (the
// conclusion covers the whole change); issues about no file of the
// review go with the verdict. The input is checked whole before the
// first write. A retry after a failure records nothing twice.
func (s *Service) Conclude(ctx context.Context, c Conclusion) (Result, error) {
	a, h, err := s.heldReview("verdict")
	if err != nil {
		return Result{}, err
	}
	snap, err := a.Fresh(ctx)
	if err != nil {
		return Result{}, err
	}
	var reviewed, files []string // a review the session does not hold is refused by its first write
	found := 0
	if p := snap.Progress; p != nil {
		reviewed, files, found = p.FilesReviewed, slices.Concat(p.FilesReviewed, p.FilesRemaining), p.FindingsSoFar
	}
	byFile, v, err := s.sortIssues(c, files)
	if err != nil {
		return Result{}, err
	}
	if !c.Passed && len(c.Issues) == 0 && found == 0 {
		return Result{}, usage("name at least one issue (file, line, type, description, suggestion)",
			"a fail needs issues: the implementer must know what to fix")
	}
	recorded := []string{}
	for _, f := range files {
		issues, named := byFile[f]
		again := slices.Contains(reviewed, f)
		if again && !named {
			continue
		}
		if _, err := a.Record(ctx, h, checkpoint.FileRecord{File: f, Findings: orEmpty(issues), Add: again}); err != nil {
			return Result{}, fmt.Errorf("record %s: %w", f, err)
		}
		recorded = append(recorded, f)
	}
	res, err := s.Verdict(ctx, v)
	if err != nil {
		return Result{}, err
	}
	res.Text = fmt.Sprintf("Recorded %s of the review.\n%s", protocol.Plural(len(recorded), "file"), res.Text)
	res.Data = map[string]any{"recorded": recorded, "verdict": res.Data} // the files recorded by this call, in review order
	return res, nil
}

// sortIssues checks every issue and sorts it to its file of the review,
// or to the verdict when it names none of them; a file is read as the
// record command reads it.
func (s *Service) sortIssues(c Conclusion, files []string) (map[string][]protocol.Finding, protocol.Verdict, error) {
	v := protocol.Verdict{Passed: c.Passed, InterpretedIntent: c.InterpretedIntent, IntentSatisfied: c.IntentSatisfied}
	byFile := map[string][]protocol.Finding{}
	severity := protocol.SeverityImportant // of an issue that names none
	if c.Passed {
		severity = protocol.SeverityMinor
	}
	for i, f := range c.Issues {
		f.Severity = cmp.Or(f.Severity, severity)
		if f.File != "" {
			file, err := recordPath(s.here(), s.workingDir(), f.File)
			if err != nil {
				return nil, v, fmt.Errorf("issues[%d].file: %w", i, err)
			}
			f.File = file
		}
		if err := f.Validate(); err != nil {
			var inv *protocol.InvalidError
			if errors.As(err, &inv) && inv.File == "" {
				inv.File = fmt.Sprintf("issues[%d]", i)
			}
			return nil, v, err
		}
		if slices.Contains(files, f.File) {
			byFile[f.File] = append(byFile[f.File], f)
		} else {
			v.Issues = append(v.Issues, f)
		}
	}
	return byFile, v, v.Validate()
}
