package main

import (
	"fmt"
	"strings"

	"github.com/specdev/specdev/checkpoint"
	"github.com/specdev/specdev/protocol"
)

// CheckVerdictCmd gives the reviewer's verdict.
type CheckVerdictCmd struct {
	Outcome         string `arg:"" optional:"" help:"pass or fail (may be left out with --file)." predictor:"outcome"`
	Summary         string `help:"One paragraph for the implementer." placeholder:"TEXT"`
	Intent          string `help:"What you understood the change to be for." placeholder:"TEXT"`
	IntentSatisfied *bool  `help:"Whether the change does what it is for." negatable:""`
	File            string `help:"A verdict JSON file (see specdev schema verdict), or - for stdin." placeholder:"FILE|-" predictor:"file"`
}

// Run records the verdict under the lock, if the session still holds the review.
func (c *CheckVerdictCmd) Run(app *App) error {
	if err := c.checkFlags(); err != nil {
		return err
	}
	v, err := c.verdict(app)
	if err != nil {
		return err
	}
	a, h, err := heldReview(app, "verdict")
	if err != nil {
		return err
	}
	session := h.Session
	snap, err := a.GiveVerdict(app.ctx, h, v)
	if err != nil {
		return err
	}
	r := snap.Request
	data := map[string]any{"assignment": a.Name, "session": session, "request": r, "verdict": v}
	if r.Status == protocol.StatusAwaitingApproval {
		return app.emit(Result{State: string(r.Status), Data: data,
			Text: fmt.Sprintf("Verdict proposed: %s for %s (round %s). A human approves or rejects it.",
				strings.ToUpper(v.Word()), a.Name, r.RoundText()),
			Next: fmt.Sprintf("a human runs: specdev check approve --assignment %s (pass) or specdev check reject --assignment %s --reason \"…\" (fail); meanwhile: %s", a.Name, a.Name, checkpoint.ClaimCommand(session))})
	}
	text := fmt.Sprintf("Verdict: %s for %s (round %s, %s). The implementer sees it with specdev work.",
		strings.ToUpper(string(r.Status)), a.Name, r.RoundText(), plural(snap.Progress.FindingsSoFar+len(v.Issues), "finding"))
	if left := snap.Progress.FilesRemaining; len(left) > 0 {
		text += "\n" + notReviewedText(left)
		data["not_reviewed"] = left
	}
	return app.emit(Result{State: string(r.Status), Data: data, Text: text,
		Next: "pick up the next review: " + checkpoint.ClaimCommand(session)})
}

// verdict builds the verdict from the file (strict) and the flags.
func (c *CheckVerdictCmd) verdict(app *App) (protocol.Verdict, error) {
	var v protocol.Verdict
	if c.File != "" {
		data, label, err := readInput(app, c.File)
		if err != nil {
			return v, err
		}
		fromFile, err := protocol.DecodeVerdict(label, data)
		if err != nil {
			return v, err
		}
		v = *fromFile
	}
	switch c.Outcome {
	case "pass", "fail":
		if c.File != "" && v.Word() != c.Outcome {
			return v, usage("make the argument and the file's \"passed\" agree, or leave the argument out",
				fmt.Sprintf("the verdict file says %s but the argument says %s", v.Word(), c.Outcome))
		}
		v.Passed = c.Outcome == "pass"
	case "":
		if c.File == "" {
			return v, usage("specdev check verdict pass|fail --summary \"…\" --session ID", "verdict needs pass or fail")
		}
	default:
		return v, usage("use pass or fail", "unknown verdict "+protocol.QuotePrefix(c.Outcome))
	}
	if c.Summary != "" {
		v.Summary = c.Summary
	}
	if c.Intent != "" {
		v.InterpretedIntent = c.Intent
	}
	if c.IntentSatisfied != nil {
		v.IntentSatisfied = c.IntentSatisfied
	}
	return v, nil
}

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

// CheckReleaseCmd gives a review back with its progress kept.
type CheckReleaseCmd struct{}

// Run releases the session's review.
func (c *CheckReleaseCmd) Run(app *App) error {
	a, h, err := heldReview(app, "release")
	if err != nil {
		return err
	}
	session := h.Session
	snap, err := a.Release(app.ctx, h, "")
	if err != nil {
		return err
	}
	p := snap.Progress
	text := fmt.Sprintf("Released %s: %d/%d files reviewed are kept.", a.Name, len(p.FilesReviewed), p.FilesTotal)
	if len(p.FilesRemaining) > 0 {
		text += " The next reviewer resumes from " + p.FilesRemaining[0] + "."
	}
	return app.emit(Result{State: "released", Text: text, Next: "pick up a review when ready: " + checkpoint.ClaimCommand(session),
		Data: map[string]any{"assignment": a.Name, "session": session, "files_reviewed": len(p.FilesReviewed), "files_total": p.FilesTotal}})
}
