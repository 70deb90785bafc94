package review

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/specdev/specdev/checkpoint"
	"github.com/specdev/specdev/protocol"
)

// The text of the briefings, written from briefingData section by
// section, so that a resume briefing repeats its round's first briefing.

// howToReview is the method a reviewer new to the loop gets once, with
// the first briefing of a full review (and with a resume, since a new
// session has not seen it): a follow-up does not repeat it.
const howToReview = `How to review:
  1. Intent first: say what the change is for before judging the code (give it with --intent).
  2. Evidence before claims: read each file; run the tests and commands you rely on.
  3. Record each file as soon as it is reviewed; a finding is "SEVERITY: what is wrong" with --line and --suggestion.
     critical: breaks correctness, security or data; important: must change before merge; minor: worth fixing.
  4. Ask for changes only for real problems (unmet intent, wrong behaviour, missing tests, security), not style.
  5. Pass only when every file is recorded and nothing important is open; fail with a --summary the implementer can act on.
What to check: the change does what its intent needs (edge cases, errors handled, not only the happy path);
  tests cover it; it follows the project's patterns; no dead code or one-use abstractions; no secret or unsafe input.
`

// writeFullBriefing: a review read in full, round 1 or a later round
// that could not be a follow-up (then with the previous round's
// findings), or a resume, which says everything the round's first
// briefing said and then, instead of the files to review, the progress
// so far with the findings recorded.
func writeFullBriefing(b *strings.Builder, a *checkpoint.Assignment, c *checkpoint.Claim, d briefingData) {
	r := d.Request
	if c.Kind == checkpoint.ClaimNew {
		fmt.Fprintf(b, "Review claimed: %s (gate %s, round %s)%s\n", a.Name, r.Gate, r.RoundText(), fallbackNote(d.Plan))
	} else {
		kind := ""
		if d.Plan.FollowUp() {
			kind = fmt.Sprintf("; a follow-up of round %d", d.PreviousRound)
		}
		fmt.Fprintf(b, "Resuming review: %s (gate %s, round %s%s)%s\n", a.Name, r.Gate, r.RoundText(), kind, fallbackNote(d.Plan))
	}
	switch c.Kind {
	case checkpoint.ClaimTakeover:
		fmt.Fprintf(b, "Taken over from session %s (no activity for %s); you are %s\n", oneLine(c.From), Human(c.Idle), d.Session)
	case checkpoint.ClaimResumed:
		fmt.Fprintf(b, "Picked up after session %s released it; you are %s\n", oneLine(c.From), d.Session)
	case checkpoint.ClaimReclaim:
		fmt.Fprintf(b, "You already hold this review (session %s, mode %s); your lease is renewed: %s (the previous lease no longer works)\n",
			d.Session, d.Mode, d.Lease)
	case checkpoint.ClaimOwn:
		fmt.Fprintf(b, "You already hold this review (session %s, lease %s, mode %s)\n", d.Session, d.Lease, d.Mode)
	}
	fmt.Fprintf(b, "Session: %s  ·  lease %s  ·  mode %s", d.Session, d.Lease, d.Mode)
	if d.Head != "" {
		fmt.Fprintf(b, "  ·  head %s", short(d.Head))
	}
	b.WriteString("\n")
	writeContext(b, d)
	b.WriteString("\n" + howToReview)
	if c.Kind == checkpoint.ClaimNew {
		fmt.Fprintf(b, "\nFiles to review (%d):\n", len(d.ToReview))
		writeToReview(b, d.ToReview)
	} else {
		writeProgress(b, d, c.Progress)
	}
}

// writeFollowUpBriefing: the reviewer of the previous round reads only
// what changed since, verifying its own findings. It repeats nothing of
// the first briefing: the same session has it.
func writeFollowUpBriefing(b *strings.Builder, a *checkpoint.Assignment, d briefingData) {
	r := d.Request
	fmt.Fprintf(b, "Follow-up review of %s, round %s\n", a.Name, r.RoundText())
	writeContext(b, d)
	b.WriteString("To review: ")
	sameFiles := func(f toReviewFile, changed string) bool { return !f.HadFindings && f.File == changed }
	if d.Changes != nil && d.Request.Delta != nil && slices.EqualFunc(d.ToReview, d.Request.Delta.Changed, sameFiles) { // exactly the changed files
		b.WriteString("the changes above")
		d.ToReview = nil
	}
	for i, f := range d.ToReview {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(f.File)
		if f.HadFindings {
			b.WriteString(" (had findings)")
		}
	}
	if len(d.ToReview) == 0 && d.Changes == nil {
		b.WriteString("nothing (no change and no finding to re-check): give the verdict")
	}
	if n := len(d.Unchanged); n > 0 {
		fmt.Fprintf(b, "; %s unchanged, not to re-read", protocol.Plural(n, "file"))
	}
	b.WriteString("\n")
}

// writeContext: what the reviewer needs besides the files — the range or
// the changes to read, the implementer's notes, the pre-flight result, a
// human's word on the previous round, and its findings to verify.
func writeContext(b *strings.Builder, d briefingData) {
	if d.Worktree != "" {
		fmt.Fprintf(b, "Worktree: read the files in %s, the worktree the request was made in (record and verdict work from any folder of the repository)\n", oneLine(d.Worktree))
	}
	if !d.Plan.FollowUp() || d.Kind != checkpoint.ClaimNew || len(d.Documents) > 0 {
		writeDocuments(b, d) // a follow-up's session was told there is none
	}
	if d.Range != "" && !d.Plan.FollowUp() {
		fmt.Fprintf(b, "Range: %s\n", d.Range)
	}
	if d.Changes != nil && d.Changes.Command != "" {
		fmt.Fprintf(b, "Changes to read: %s\n", d.Changes.Command)
		for line := range strings.SplitSeq(strings.TrimRight(d.Changes.Stat, "\n"), "\n") { // a file each, with its counts
			if line != "" {
				b.WriteString("  " + oneLine(line) + "\n")
			}
		}
	}
	writeLabelled(b, "Notes from implementer", d.Notes)
	if !d.Plan.FollowUp() || d.Kind != checkpoint.ClaimNew || (d.Preflight != nil && !d.Preflight.Passed) {
		writePreflightLine(b, d.Preflight)
	}
	if dec := d.Decision; dec != nil {
		fmt.Fprintf(b, "A human %s in round %d", map[bool]string{true: "approved it", false: "rejected it"}[dec.Approved], dec.Round)
		if dec.Notes != "" {
			fmt.Fprintf(b, ": %s", oneLine(dec.Notes))
		}
		b.WriteString("\n")
	}
	writeLabelled(b, "Guidance from a human", d.Guidance)
	writeLoopContext(b, d)
	if len(d.PreviousFindings) > 0 {
		if d.Plan.FollowUp() {
			fmt.Fprintf(b, "Verify your round-%d findings; look for new issues from the fixes:\n", d.PreviousRound)
		} else {
			fmt.Fprintf(b, "\nFindings of round %d to verify (%d):\n", d.PreviousRound, len(d.PreviousFindings))
		}
		for i, f := range d.PreviousFindings { // numbered as --resolved takes them
			writeFinding(b, fmt.Sprintf("%3d. ", i+1), f, "")
		}
	} else if d.Plan.FollowUp() {
		b.WriteString("Look for new issues the changes introduced.\n")
	}
}

func writeToReview(b *strings.Builder, files []toReviewFile) {
	for _, f := range files {
		fmt.Fprintf(b, "  %s%s\n", f.File, map[bool]string{true: " (unchanged; had findings)"}[f.HadFindings])
	}
}

// writeProgress: the files reviewed in this round with their findings,
// then the ones left.
func writeProgress(b *strings.Builder, d briefingData, p *protocol.Progress) {
	fmt.Fprintf(b, "\nProgress: %d/%d files reviewed, %s so far\n", len(p.FilesReviewed), p.FilesTotal, protocol.Plural(p.FindingsSoFar, "finding"))
	for _, f := range d.Reviewed {
		if len(f.Findings) == 0 {
			fmt.Fprintf(b, "  ✓ %s (no findings)\n", f.File)
			continue
		}
		fmt.Fprintf(b, "  ✓ %s (%s)\n", f.File, protocol.Plural(len(f.Findings), "finding"))
		writeFindings(b, "    ", f.Findings)
	}
	if n := len(d.Unchanged); n > 0 { // said once: --json lists them
		fmt.Fprintf(b, "Unchanged since round %d (not to re-read): %s\n", d.PreviousRound, protocol.Plural(n, "file"))
	}
	if len(d.ToReview) == 0 {
		b.WriteString("Remaining: none — every file is reviewed\n")
		return
	}
	b.WriteString("Remaining:\n")
	writeToReview(b, d.ToReview)
}

// writeCommands: how to record, how to give the verdict, written out in
// every briefing: an agent whose context was compacted has them here.
func writeCommands(b *strings.Builder, d briefingData, generated bool) {
	if d.Plan.FollowUp() && d.Kind == checkpoint.ClaimNew {
		// the same session has the finding syntax from its first briefing
		record := strings.Replace(d.Commands["record"], findingSyntax+" ", "", 1)
		fmt.Fprintf(b, "Record: %s\nThen: %s\n", record, d.Commands["verdict"])
	} else {
		fmt.Fprintf(b, "\nRecord each file as you finish it (this is your checkpoint):\n  %s\n", d.Commands["record"])
		fmt.Fprintf(b, "Then: %s\n", d.Commands["verdict"])
	}
	if generated {
		fmt.Fprintf(b, "Your session id is %s and your lease %s: pass both to every command (or export SPECDEV_SESSION=%s SPECDEV_LEASE=%s).\n",
			d.Session, d.Lease, d.Session, d.Lease)
	}
}

// fallbackWhy says why a later round is reviewed in full, by the plan's
// reason (a change too large says how large, in fallbackNote).
var fallbackWhy = map[string]string{
	protocol.FallbackOtherSession:  "as another session reviewed the previous round",
	protocol.FallbackGateChanged:   "as the previous round was of another gate",
	protocol.FallbackCommitGone:    "as the last reviewed commit is gone (rewritten history)",
	protocol.FallbackChangeUnknown: "as the request does not say what changed since the previous round",
}

// fallbackNote says why a later round is reviewed in full.
func fallbackNote(plan *protocol.RoundPlan) string {
	const full = ": a full review, "
	switch {
	case plan == nil || plan.Reason == "":
		return ""
	case plan.Reason == protocol.FallbackChangeTooLarge:
		percent := 100 // of nothing: all of it
		if whole := plan.TotalLines; whole > 0 {
			percent = (plan.ChangedLines*100 + whole/2) / whole
		}
		return fmt.Sprintf("%sas the change since the previous round is %d%% of the review", full, percent)
	}
	return full + fallbackWhy[plan.Reason] // a valid progress file names one of them
}

func writePreflightLine(b *strings.Builder, pf *protocol.PreflightResult) {
	if pf == nil {
		b.WriteString("Pre-flight: not configured\n")
		return
	}
	fmt.Fprintf(b, "Pre-flight: %s passed (%s)\n", oneLine(strings.Join(pf.Command, " ")), Human(time.Duration(pf.DurationMS)*time.Millisecond))
}
