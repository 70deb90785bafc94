package checkpoint

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/specdev/specdev/internal/shellword"
	"github.com/specdev/specdev/protocol"
)

// Holder is who writes to a review: the reviewer session and the lease
// its claim got (the fencing token).
type Holder struct {
	Session string
	Lease   string
}

// flags are the command-line flags that name the holder.
func (h Holder) flags() string {
	if h.Lease == "" {
		return "--session " + shellword.Word(h.Session)
	}
	return "--session " + shellword.Word(h.Session) + " --lease " + h.Lease
}

// holding runs fn only if h still holds the assignment's review: the
// fencing check of every mutating reviewer command. A displaced session
// gets a *DisplacedError saying who took over and when; a lease that is
// not the current one (the same session claimed again) a *LeaseError.
func (a *Assignment) holding(ctx context.Context, h Holder, fn func(*Tx, *protocol.Request, *protocol.Progress) error) error {
	return a.Update(ctx, func(tx *Tx) error {
		r, p := tx.Request, tx.Progress
		if r == nil || p == nil || !progressBelongs(p, r) {
			return conflict("claim a review: "+ClaimCommand(h.Session), "session %s holds no review of %s", h.Session, a.Name)
		}
		if p.SessionID != h.Session {
			return a.notHolder(h.Session, p)
		}
		if p.Lease != "" && h.Lease != p.Lease {
			return leaseError(a.Name, h, p)
		}
		if r.Status != protocol.StatusInProgress {
			return conflict("pick up another review: "+ClaimCommand(h.Session),
				"review %s is %s; session %s can no longer change it", a.Name, describeStatus(r.Status), h.Session)
		}
		return fn(tx, r, p)
	})
}

func (a *Assignment) notHolder(session string, p *protocol.Progress) error {
	for i := len(p.Takeovers) - 1; i >= 0; i-- {
		t := p.Takeovers[i]
		if t.From == session && t.To != session {
			return &DisplacedError{Assignment: a.Name, Session: session, By: t.To, At: t.At.Time, Reason: takeoverReason(t)}
		}
	}
	return conflict("claim another review: "+ClaimCommand(session),
		"review %s is held by session %s, not %s", a.Name, p.SessionID, session)
}

// leaseError says when the session's current lease was given, if a
// re-claim gave it.
func leaseError(name string, h Holder, p *protocol.Progress) error {
	e := &LeaseError{Assignment: name, Session: h.Session, Given: h.Lease}
	for i := len(p.Takeovers) - 1; i >= 0; i-- {
		if t := p.Takeovers[i]; t.From == h.Session && t.To == h.Session {
			e.RenewedAt = t.At.Time
			break
		}
	}
	return e
}

func takeoverReason(t protocol.Takeover) string {
	switch t.Reason {
	case "stale":
		return "no activity for " + t.Idle
	case "force":
		return "forced takeover"
	case "resume":
		return "resumed after a release"
	case "reclaim":
		return "the same session claimed it again"
	}
	return t.Reason
}

// PreflightDone stores the preflight result. A failed gate hands the
// request back to the implementer at once (no reviewer effort is spent, no
// round of the loop is used); a passed one starts the reviewing phase.
func (a *Assignment) PreflightDone(ctx context.Context, h Holder, res protocol.PreflightResult) (Snapshot, error) {
	session := h.Session
	var out Snapshot
	err := a.holding(ctx, h, func(tx *Tx, r *protocol.Request, p *protocol.Progress) error {
		p.Preflight = &res
		p.LastActivity = protocol.At(tx.Now)
		tx.Log(protocol.EventPreflight, session, map[string]any{"passed": res.Passed, "exit_code": res.ExitCode,
			"duration_ms": res.DurationMS})
		if res.Passed {
			p.Phase = phaseFor(p)
			out = Snapshot{Request: r, Progress: p}
			return nil
		}
		// back to the implementer, unreviewed: no round of the loop, no
		// reviewer remembered for it (decideRound is not called)
		v := &protocol.Verdict{Passed: false, Summary: "pre-flight gate failed: " + preflightWhat(res)}
		p.Verdict, p.Phase = v, protocol.PhaseDone
		r.Status, r.PreflightFailed, r.ReviewerNotes, r.CompletedAt = protocol.StatusFailed, true, v.Summary, protocol.At(tx.Now)
		tx.Log(protocol.EventFailed, session, map[string]any{"summary": v.Summary, "findings": 0, "preflight": true})
		out = Snapshot{Request: r, Progress: p}
		return nil
	})
	return out, err
}

func preflightWhat(res protocol.PreflightResult) string {
	if res.Error != "" {
		return res.Error
	}
	return fmt.Sprintf("%s exited with %d", strings.Join(res.Command, " "), res.ExitCode)
}

// FileRecord is one file reviewed: its findings, and the previous
// round's findings about it (or about no file) verified fixed, by their
// numbers in the briefing's list (protocol.RoundRecord.AllFindings).
type FileRecord struct {
	File     string
	Findings []protocol.Finding
	Resolved []int
	Add      bool // keep the file's earlier findings and add these
}

// Recorded is what recording a file did: the review after it, and what
// an earlier record of the same file held.
type Recorded struct {
	Snapshot
	Again    bool               // the file had been recorded before
	Replaced []protocol.Finding // the earlier findings the record replaced (none with Add)
	Skipped  int                // Add: findings left out as already recorded for the file
}

// Record marks one file of the review reviewed with its findings. It
// replaces what an earlier record of the same file stored, so a retry is
// safe, and Recorded says what was replaced; with Add it keeps the file's
// earlier findings and adds these, leaving out any already recorded, so
// a retry is safe too.
func (a *Assignment) Record(ctx context.Context, h Holder, rec FileRecord) (Recorded, error) {
	return a.record(ctx, h, rec)
}

// notInReviewHint names the files still to record (a path is read as git
// reads it, from the current folder: a subfolder's path differs from the
// briefing's).
func notInReviewHint(p *protocol.Progress) string {
	const shown = 5
	const paths = "paths are read from the current folder, and the briefing's from the project root"
	n := len(p.FilesRemaining)
	if n == 0 {
		return "every file of the review is recorded (recording one again replaces its findings); " + paths
	}
	list := strings.Join(p.FilesRemaining[:min(n, shown)], ", ")
	if n > shown {
		list += fmt.Sprintf(", and %d more", n-shown)
	}
	return "still to record: " + list + "; " + paths
}

func (a *Assignment) record(ctx context.Context, h Holder, rec FileRecord) (Recorded, error) {
	session, file, findings, add := h.Session, rec.File, rec.Findings, rec.Add
	var out Recorded
	err := a.holding(ctx, h, func(tx *Tx, r *protocol.Request, p *protocol.Progress) error {
		if p.Phase == protocol.PhasePreflight {
			return conflict("wait for the preflight gate; "+ClaimCommand(session)+" shows the briefing",
				"the preflight gate of %s has not finished", a.Name)
		}
		if !slices.Contains(p.FilesReviewed, file) && !slices.Contains(p.FilesRemaining, file) {
			return &protocol.UsageError{Msg: fmt.Sprintf("%s is not one of the %s of review %s", file, plural(p.FilesTotal, "file"), a.Name),
				Hint: notInReviewHint(p)}
		}
		if p.Plan != nil { // a file carried over unchanged that the reviewer read after all
			p.Plan.Unchanged = slices.DeleteFunc(p.Plan.Unchanged, func(f string) bool { return f == file })
		}
		if err := resolve(p, file, rec.Resolved, add); err != nil {
			return err
		}
		if err := a.recordDigest(ctx, r, p, file); err != nil {
			return err
		}
		out = Recorded{Again: slices.Contains(p.FilesReviewed, file)}
		if add {
			out.Skipped = addFindings(p, file, findings)
		} else {
			out.Replaced = replaceFindings(p, file, findings)
		}
		if !out.Again {
			p.FilesReviewed = append(p.FilesReviewed, file)
			p.FilesRemaining = slices.DeleteFunc(p.FilesRemaining, func(f string) bool { return f == file })
		}
		p.FindingsSoFar = len(p.Findings)
		p.LastActivity = protocol.At(tx.Now)
		p.Phase = phaseFor(p)
		detail := map[string]any{"file": file, "findings": len(findings), "replaced": out.Again && !add}
		if len(rec.Resolved) > 0 {
			detail["resolved"] = rec.Resolved
		}
		if add {
			detail["added"] = true
		} else if out.Again {
			detail["replaced_findings"] = len(out.Replaced)
		}
		tx.Log(protocol.EventFileReviewed, session, detail)
		out.Snapshot = Snapshot{Request: r, Progress: p}
		return nil
	})
	return out, err
}

// replaceFindings swaps the file's findings and returns the ones it
// removed.
func replaceFindings(p *protocol.Progress, file string, findings []protocol.Finding) (replaced []protocol.Finding) {
	replaced = []protocol.Finding{}
	p.Findings = slices.DeleteFunc(p.Findings, func(f protocol.Finding) bool {
		if f.File == file {
			replaced = append(replaced, f)
		}
		return f.File == file
	})
	for _, f := range findings {
		f.File = file
		p.Findings = append(p.Findings, f)
	}
	return replaced
}

// addFindings appends the findings the file does not have yet and says
// how many it left out as already there.
func addFindings(p *protocol.Progress, file string, findings []protocol.Finding) (skipped int) {
	for _, f := range findings {
		f.File = file
		if slices.Contains(p.Findings, f) {
			skipped++
			continue
		}
		p.Findings = append(p.Findings, f)
	}
	return skipped
}

func phaseFor(p *protocol.Progress) protocol.Phase {
	if len(p.FilesRemaining) == 0 {
		return protocol.PhaseWritingReport
	}
	return protocol.PhaseReviewing
}

// GiveVerdict records the reviewer's verdict. A pass is refused while files
// remain or after a failed preflight. In auto mode the review becomes
// passed or failed; in manual mode awaiting_approval with the proposal.
func (a *Assignment) GiveVerdict(ctx context.Context, h Holder, v protocol.Verdict) (Snapshot, error) {
	session := h.Session
	var out Snapshot
	err := a.holding(ctx, h, func(tx *Tx, r *protocol.Request, p *protocol.Progress) error {
		if v.Passed && len(p.FilesRemaining) > 0 {
			return conflict("record the remaining files first: specdev check record <file> "+h.flags(),
				"cannot pass: %d of %d files not yet reviewed (next: %s)", len(p.FilesRemaining), p.FilesTotal, p.FilesRemaining[0])
		}
		if v.Passed && p.PreflightFailed() {
			return conflict("the review can only fail", "cannot pass: the preflight gate failed")
		}
		if p.Phase == protocol.PhasePreflight {
			return conflict("wait for the preflight gate", "the preflight gate of %s has not finished", a.Name)
		}
		if v.Passed {
			if err := a.changedUnderReview(ctx, r, p, h); err != nil {
				return err
			}
		}
		if !v.Passed && strings.TrimSpace(v.Summary) == "" && len(p.Findings) == 0 && len(v.Issues) == 0 {
			return &protocol.UsageError{Msg: "a fail needs a --summary or recorded findings: the implementer must know what to fix",
				Hint: "specdev check verdict fail --summary \"what must change\" " + h.flags()}
		}
		if p.Mode == protocol.ModeManual {
			propose(tx, r, p, &v, session)
		} else {
			finish(tx, r, p, &v, session)
		}
		out = Snapshot{Request: r, Progress: p}
		return nil
	})
	return out, err
}

// finish closes the review with a verdict (auto mode, or a failed preflight).
func finish(tx *Tx, r *protocol.Request, p *protocol.Progress, v *protocol.Verdict, session string) {
	p.Verdict = v
	p.Phase = protocol.PhaseDone
	p.LastActivity = protocol.At(tx.Now)
	r.ReviewerNotes = v.Summary
	r.CompletedAt = protocol.At(tx.Now)
	r.AgentSession = nil // an agent runner keeps its agent's session once the agent is done (AgentRan)
	decideRound(tx, r, v.Passed)
	if v.Passed {
		r.Status = protocol.StatusPassed
		r.ReviewerSessionID = ""
		tx.Log(protocol.EventPassed, session, map[string]any{"summary": v.Summary})
		return
	}
	r.Status = protocol.StatusFailed
	r.ReviewerSessionID = session
	tx.Log(protocol.EventFailed, session, map[string]any{"summary": v.Summary, "findings": len(p.Findings) + len(v.Issues)})
	stopForHuman(tx, r, p)
}

// propose leaves the verdict to a human (manual mode).
func propose(tx *Tx, r *protocol.Request, p *protocol.Progress, v *protocol.Verdict, session string) {
	p.Verdict = v
	p.Phase = protocol.PhaseDone
	p.LastActivity = protocol.At(tx.Now)
	r.Status = protocol.StatusAwaitingApproval
	r.AgentSession = nil
	r.ProposedVerdict = v.Word()
	r.ReviewerNotes = v.Summary
	r.ReviewerSessionID = session
	tx.Log(protocol.EventVerdictProposed, session, map[string]any{"verdict": v.Word(), "summary": v.Summary})
}

// Release gives the review back: pending again, progress kept, so that the
// next reviewer resumes instead of starting over. It uses up no round.
// why, if not empty, is logged (e.g. "interrupted").
func (a *Assignment) Release(ctx context.Context, h Holder, why string) (Snapshot, error) {
	session := h.Session
	var out Snapshot
	err := a.holding(ctx, h, func(tx *Tx, r *protocol.Request, p *protocol.Progress) error {
		r.Status = protocol.StatusPending
		r.AgentSession = nil
		p.LastActivity = protocol.At(tx.Now)
		detail := map[string]any{"reviewed": len(p.FilesReviewed), "remaining": len(p.FilesRemaining)}
		if why != "" {
			detail["reason"] = why
		}
		tx.Log(protocol.EventReleased, session, detail)
		out = Snapshot{Request: r, Progress: p}
		return nil
	})
	return out, err
}

// Decide is a human's approval (pass) or rejection (fail) of a review that
// awaits approval.
func (a *Assignment) Decide(ctx context.Context, approve bool, notes string) (Snapshot, error) {
	var out Snapshot
	err := a.Update(ctx, func(tx *Tx) error {
		r, p := tx.Request, tx.Progress
		if r == nil || r.Status != protocol.StatusAwaitingApproval || p == nil {
			return conflict("only a review awaiting approval can be approved or rejected; see specdev status",
				"review %s is %s, not awaiting approval", a.Name, describeStatus(statusOf(r)))
		}
		p.Decision = &protocol.Decision{Approved: approve, Notes: notes, At: protocol.At(tx.Now)}
		r.CompletedAt = protocol.At(tx.Now)
		decideRound(tx, r, approve)
		if notes != "" {
			r.ReviewerNotes = withDecision(r.ReviewerNotes, notes)
		}
		if approve {
			r.Status = protocol.StatusPassed
			r.ReviewerSessionID, r.AgentSession = "", nil
			tx.Log(protocol.EventApproved, "", map[string]any{"proposed": r.ProposedVerdict, "notes": notes})
		} else {
			r.Status = protocol.StatusFailed
			tx.Log(protocol.EventRejected, "", map[string]any{"proposed": r.ProposedVerdict, "reason": notes})
			stopForHuman(tx, r, p)
		}
		out = Snapshot{Request: r, Progress: p}
		return nil
	})
	return out, err
}

// withDecision adds a human's decision notes to the reviewer's notes,
// shortening the reviewer's part first so that the whole stays within the
// field's bound (each was within its own).
func withDecision(reviewer, notes string) string {
	decision := "Human decision: " + notes
	room := protocol.MaxTextLength - utf8.RuneCountInString(decision) - 1 // the newline between
	if room < 2 {
		return clipRunes(decision, protocol.MaxTextLength)
	}
	return strings.TrimSpace(clipRunes(reviewer, room) + "\n" + decision)
}

// clipRunes shortens s to at most max characters, ending in "…" if cut.
func clipRunes(s string, max int) string {
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	return string([]rune(s)[:max-1]) + "…"
}

func statusOf(r *protocol.Request) protocol.Status {
	if r == nil {
		return protocol.StatusNone
	}
	return r.Status
}

// resolve marks the previous round's findings numbered in numbers as
// verified fixed. A finding about another file is refused: it is
// resolved when that file is recorded. Without add, the file's earlier
// marks are replaced, as its findings are.
func resolve(p *protocol.Progress, file string, numbers []int, add bool) error {
	if !add {
		p.Resolved = slices.DeleteFunc(p.Resolved, func(r protocol.Resolved) bool { return r.Finding.File == file })
	}
	if len(numbers) == 0 {
		return nil
	}
	n := len(p.PreviousRounds)
	if n == 0 {
		return &protocol.UsageError{Msg: "--resolved: this is the first round of the loop; there are no earlier findings to resolve",
			Hint: "record the file with its findings, without --resolved"}
	}
	prev := p.PreviousRounds[n-1]
	all := prev.AllFindings()
	for _, num := range numbers {
		if num < 1 || num > len(all) {
			return &protocol.UsageError{Msg: fmt.Sprintf("--resolved %d: round %d has %s", num, prev.Round, plural(len(all), "finding")),
				Hint: fmt.Sprintf("give a number from the briefing's list of round %d's findings (1 to %d)", prev.Round, len(all))}
		}
		f := all[num-1]
		if f.File != "" && f.File != file {
			return &protocol.UsageError{Msg: fmt.Sprintf("--resolved %d: that finding is about %s, not %s", num, f.File, file),
				Hint: "resolve it when you record " + f.File}
		}
		p.Resolved = slices.DeleteFunc(p.Resolved, func(r protocol.Resolved) bool { return r.Round == prev.Round && r.Number == num })
		p.Resolved = append(p.Resolved, protocol.Resolved{Round: prev.Round, Number: num, Finding: f})
	}
	slices.SortFunc(p.Resolved, func(x, y protocol.Resolved) int { return x.Number - y.Number })
	return nil
}
