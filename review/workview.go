package review

import (
	"cmp"
	"fmt"
	"strings"
	"time"

	"github.com/specdev/specdev/checkpoint"
	"github.com/specdev/specdev/protocol"
)

const waitNext = "wait for the verdict: specdev work --timeout 10m"

// workData is the --json data of specdev work.
type workData struct {
	Assignment    string                    `json:"assignment"`
	Status        string                    `json:"status"`
	Paused        bool                      `json:"paused,omitempty"`
	Request       *protocol.Request         `json:"request,omitempty"`
	Reviewer      string                    `json:"reviewer,omitempty"`
	FilesReviewed int                       `json:"files_reviewed"`
	FilesTotal    int                       `json:"files_total"`
	Summary       string                    `json:"summary,omitempty"`
	Findings      []protocol.Finding        `json:"findings,omitempty"`
	Resolved      []protocol.Resolved       `json:"resolved,omitempty"`        // earlier findings the reviewer verified fixed
	Origins       []string                  `json:"finding_origins,omitempty"` // for each finding of a later round: new or carried_over
	Reviewed      *reviewedRange            `json:"reviewed,omitempty"`
	NotReviewed   []string                  `json:"not_reviewed,omitempty"` // a fail before every file was read
	Preflight     *protocol.PreflightResult `json:"preflight,omitempty"`
	Report        string                    `json:"report,omitempty"`            // the report's path from the project root, once there is one
	OthersNeed    []NeedItem                `json:"others_need_human,omitempty"` // other assignments waiting for a human
	Repeated      []protocol.Finding        `json:"repeated_findings,omitempty"` // stuck: the blocking findings the round before had found already
	ChangedSince  []string                  `json:"changed_since_review,omitempty"`
	reviewedSums  map[string]string         // a pass: each reviewed file's digest as the review read it
}

// workView is the implementer's view of an assignment and whether the
// implementer is waiting on someone else (a reviewer or a human).
func workView(a *checkpoint.Assignment, snap checkpoint.Snapshot, now time.Time, staleAfter time.Duration) (Result, bool) {
	r := snap.Request
	if r == nil {
		return Result{State: "idle", Data: workData{Assignment: a.Name, Status: "none"},
			Text: fmt.Sprintf("No review requested yet for %s.", a.Name),
			Next: "when the work is ready: specdev work request --notes \"…\""}, false
	}
	shown := *r
	shown.Journal = nil // specdev's own bookkeeping of its transactions (specdev history shows the events), not for the implementer
	d := workData{Assignment: a.Name, Status: string(r.Status), Request: &shown, Summary: r.ReviewerNotes, FilesTotal: len(r.ChangedFiles)}
	if snap.Current() {
		p := snap.Progress
		d.Reviewer, d.FilesReviewed, d.FilesTotal, d.Preflight = p.SessionID, len(p.FilesReviewed), p.FilesTotal, p.Preflight
	}
	head := fmt.Sprintf("%s, round %s", a.Name, r.RoundText())
	res := Result{State: string(r.Status), Next: waitNext, Code: Waiting}
	switch status := r.Status; {
	case r.NamesNoFiles(): // nobody can claim it: the implementer acts
		res.Next = "list the files: specdev work request (it completes this request)"
		res.Text = fmt.Sprintf("Review requested: %s, but the request names no files to review (written by another tool); no reviewer can claim it.", head)
	case status == protocol.StatusPending:
		res.Text = fmt.Sprintf("Review pending: %s (gate %s), %s, requested %s ago. Waiting for a reviewer.",
			head, r.Gate, protocol.Plural(len(r.ChangedFiles), "file"), Human(now.Sub(r.Timestamp.Time)))
	case status == protocol.StatusInProgress:
		res.Text = inProgressText(head, snap, now, staleAfter)
	case status == protocol.StatusAwaitingApproval:
		res.Text = fmt.Sprintf("Review awaiting a human's approval: %s. The reviewer proposes %s.\nA human decides with: specdev check approve|reject --assignment %s",
			head, strings.ToUpper(r.ProposedVerdict), a.Name)
	case status == protocol.StatusPassed, status == protocol.StatusFailed:
		res = decidedView(snap, head, &d)
	case status == protocol.StatusBlocked && r.BlockedReason == protocol.BlockedStuck:
		res.State, res.Code, res.Text = "stuck", Blocked, stuckText(snap, head, &d) // a human must act: nothing to wait for
		res.Next = "a human reads the findings, then runs: specdev work unblock (the implementer goes on) or specdev work cancel"
	case status == protocol.StatusBlocked && !r.CompletedAt.IsZero(): // the loop's last round was rejected
		res = decidedView(snap, head, &d)
		res.State, res.Code = string(status), Blocked
		res.Text += fmt.Sprintf("That was the last round the loop's limit of %s allows: a human must unblock the loop.", protocol.Plural(r.MaxRounds, "round"))
		res.Next = "a human reads the findings, then runs: specdev work unblock --rounds 1 (the implementer goes on) or specdev work cancel"
	case status == protocol.StatusBlocked:
		res.Code, res.Next = Blocked, "a human runs: specdev work unblock --rounds 1 (or: specdev work cancel)"
		res.Text = fmt.Sprintf("Review loop blocked: %s, round %d would pass the limit of %s. A human must unblock the loop.", a.Name, r.Round, protocol.Plural(r.MaxRounds, "round"))
	case status == protocol.StatusCancelled:
		res.Code, res.Next = OK, askAgainNext(r)
		res.Text = fmt.Sprintf("Review request of %s was cancelled.", a.Name)
	}
	if r.Guidance != "" && r.Status != protocol.StatusPassed {
		res.Text = strings.TrimRight(res.Text, "\n") + "\nGuidance from a human: " + oneLine(r.Guidance)
	}
	if r.Checkpoint {
		res = checkpointView(res, d)
	}
	res.Data = d
	return res, r.Status.Active() && !r.NamesNoFiles() // pending, in review, awaiting a human
}

func inProgressText(head string, snap checkpoint.Snapshot, now time.Time, staleAfter time.Duration) string {
	if !snap.Current() {
		return fmt.Sprintf("Review in progress: %s.", head)
	}
	p := snap.Progress
	idle, skewed := snap.Idle(now)
	text := fmt.Sprintf("Review in progress: %s (reviewer %s, phase %s), %d/%d files reviewed, %s so far, last activity %s.",
		head, oneLine(p.SessionID), p.Phase, len(p.FilesReviewed), p.FilesTotal, protocol.Plural(p.FindingsSoFar, "finding"), ActivityAgo(idle, skewed))
	if idle >= staleAfter {
		text += fmt.Sprintf("\nThe reviewer looks gone (no activity for over %s); the next reviewer to claim it takes it over.", staleAfter)
	}
	return text
}

// decidedView shows a decided round: what it read, the reviewer's
// summary, the findings and the earlier ones verified fixed. A pass may
// note findings that do not block it: the implementer sees them here,
// not only in the report. A rejection marks each finding new or still
// open and names the files it left unread; a manual-mode implementer is
// then paused until a human runs specdev work continue (d.Paused says
// so in the --json data). Either way nobody is waited for.
func decidedView(snap checkpoint.Snapshot, head string, d *workData) Result {
	r, passed := snap.Request, snap.Request.Status == protocol.StatusPassed
	d.Findings, d.Reviewed = findingsOf(snap), reviewedRangeOf(snap)
	res := Result{State: string(r.Status), Code: ChangesRequested, Next: "fix the findings, then run: specdev work request"}
	var b strings.Builder
	if passed {
		res.Code, res.Next = OK, "nothing more for this review; for the next change: specdev work request"
		fmt.Fprintf(&b, "Review passed: %s%s.\n", head, byReviewer(d.Reviewer))
	} else {
		fmt.Fprintf(&b, "Review failed: %s%s\n", head, byReviewer(d.Reviewer))
	}
	writeReviewedAt(&b, d.Reviewed)
	if pf := d.Preflight; pf != nil && !pf.Passed { // a fail: a pass needs the gate's pass
		writePreflightFailure(&b, pf) // the summary only repeats it
		if r.PreflightFailed {
			fmt.Fprintf(&b, "No round was used: the next request is round %d again.\n", r.Round)
		}
		res.Next = fmt.Sprintf("make the pre-flight gate pass (%s), then run: specdev work request", strings.Join(pf.Command, " "))
	} else {
		writeSummary(&b, snap)
	}
	if !passed {
		d.Origins = findingOrigins(snap, d.Findings)
	} else if len(d.Findings) > 0 {
		fmt.Fprintf(&b, "Passed with %s:\n", protocol.Plural(len(d.Findings), "finding"))
	}
	prev, _ := previousRound(snap)
	writeRoundFindings(&b, d.Findings, d.Origins, prev.Round)
	d.Resolved = writeResolved(&b, snap)
	if passed && snap.Current() {
		d.reviewedSums = protocol.ReviewedDigests(r, snap.Progress)
	}
	if snap.Current() && len(snap.Progress.FilesRemaining) > 0 && (d.Preflight == nil || d.Preflight.Passed) {
		d.NotReviewed = snap.Progress.FilesRemaining
		b.WriteString(notReviewedText(d.NotReviewed) + "\n")
	}
	res.Text = b.String()
	if checkpoint.Paused(r) {
		d.Paused = true
		res.State, res.Code = "paused", Blocked
		res.Text += "Paused for a human (manual mode): a person reads the findings and decides how to go on."
		res.Next = "a human runs: specdev work continue [--guidance \"…\"]"
	}
	return res
}

// writeResolved lists the earlier findings the reviewer verified fixed.
func writeResolved(b *strings.Builder, snap checkpoint.Snapshot) []protocol.Resolved {
	if !snap.Current() || len(snap.Progress.Resolved) == 0 {
		return nil
	}
	resolved := snap.Progress.Resolved
	fmt.Fprintf(b, "Verified fixed by the reviewer (%d of round %d's findings):\n", len(resolved), resolved[0].Round)
	for _, r := range resolved {
		writeFinding(b, "  ", r.Finding, "")
	}
	return resolved
}

// writeSummary prints the reviewer's summary, what the reviewer
// understood the change to be for and whether it does that, and a
// human's decision notes.
func writeSummary(b *strings.Builder, snap checkpoint.Snapshot) {
	if !snap.Current() || snap.Progress.Verdict == nil {
		writeLabelled(b, "Summary", snap.Request.ReviewerNotes)
		return
	}
	v := snap.Progress.Verdict
	writeLabelled(b, "Summary", v.Summary)
	writeLabelled(b, "Intent (as the reviewer reads it)", v.InterpretedIntent)
	if v.IntentSatisfied != nil {
		fmt.Fprintf(b, "Intent satisfied: %s\n", map[bool]string{true: "yes", false: "no"}[*v.IntentSatisfied])
	}
	if d := snap.Progress.Decision; d != nil {
		writeLabelled(b, "Human decision", d.Notes)
	}
}

// writeLabelled writes "label: text" on a line, the text made safe, when
// there is text.
func writeLabelled(b *strings.Builder, label, text string) {
	if text != "" {
		fmt.Fprintf(b, "%s: %s\n", label, oneLine(text))
	}
}

func writePreflightFailure(b *strings.Builder, pf *protocol.PreflightResult) {
	what := cmp.Or(pf.Error, fmt.Sprintf("%s exited with %d", strings.Join(pf.Command, " "), pf.ExitCode))
	fmt.Fprintf(b, "Pre-flight gate failed: %s\n", oneLine(what))
	lines := strings.Split(strings.TrimRight(pf.Output, "\n"), "\n")
	if len(lines) > 20 {
		lines = append([]string{"…"}, lines[len(lines)-20:]...)
	}
	for _, l := range lines {
		if l != "" {
			fmt.Fprintf(b, "  | %s\n", oneLine(l))
		}
	}
}

// writeFindings prints findings, each after prefix.
func writeFindings(b *strings.Builder, prefix string, findings []protocol.Finding) {
	for _, f := range findings {
		writeFinding(b, prefix, f, "")
	}
}

// writeFinding prints one finding after prefix, with mark at the end of
// its line, its suggestion below.
func writeFinding(b *strings.Builder, prefix string, f protocol.Finding, mark string) {
	fmt.Fprintf(b, "%s%-10s %s  %s%s\n", prefix, f.Severity, cmp.Or(f.Location(), "(general)"), oneLine(f.Description), mark)
	if f.Suggestion != "" {
		fmt.Fprintf(b, "%s%-10s suggestion: %s\n", strings.Repeat(" ", len(prefix)), "", oneLine(f.Suggestion))
	}
}

// findingsOf returns the current round's findings and the verdict's
// general issues, most severe first.
func findingsOf(snap checkpoint.Snapshot) []protocol.Finding {
	if !snap.Current() {
		return nil
	}
	return snap.Progress.Record().AllFindings()
}

func byReviewer(session string) string {
	if session == "" {
		return ""
	}
	return " (reviewer " + oneLine(session) + ")"
}

// oneLine makes agent or human text safe for the terminal, on one line:
// protocol.SafeText, the one function every terminal view uses.
func oneLine(s string) string { return protocol.SafeText(s) }

func short(commit string) string {
	if len(commit) > 7 {
		return commit[:7]
	}
	return commit
}

// ActivityAgo says how long ago a review was last active, from
// checkpoint.Idle, with a note when its last_activity looks skewed.
func ActivityAgo(idle time.Duration, skewed bool) string {
	text := Human(idle) + " ago"
	if skewed {
		text += " (last_activity is ahead of this clock: clock skew?)"
	}
	return text
}

// Human is a short duration, cut to the unit that matters at its size:
// 812ms, 17s, 17m, 1h5m; a negative one reads as 0s.
func Human(d time.Duration) string {
	unit := time.Minute
	switch {
	case d < time.Second:
		unit = time.Millisecond
	case d < time.Minute:
		unit = time.Second
	}
	return protocol.ShortDuration(max(d, 0).Truncate(unit))
}
