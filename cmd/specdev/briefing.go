package main

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/specdev/specdev/checkpoint"
	"github.com/specdev/specdev/protocol"
)

// fileSummary is one reviewed file in a briefing.
type fileSummary struct {
	File     string `json:"file"`
	Findings int    `json:"findings"`
}

// briefingData is the --json data of a claim.
type briefingData struct {
	Assignment       string                    `json:"assignment"`
	Session          string                    `json:"session"`
	Lease            string                    `json:"lease"`
	Kind             checkpoint.ClaimKind      `json:"kind"`
	TakenOverFrom    string                    `json:"taken_over_from,omitempty"`
	Request          *protocol.Request         `json:"request"`
	Mode             protocol.Mode             `json:"mode"`
	Phase            protocol.Phase            `json:"phase"`
	Preflight        *protocol.PreflightResult `json:"preflight,omitempty"`
	FilesTotal       int                       `json:"files_total"`
	Reviewed         []fileSummary             `json:"reviewed"`
	Remaining        []string                  `json:"remaining"`
	PreviousFindings []protocol.Finding        `json:"previous_findings,omitempty"`
	OtherLoops       []otherLoop               `json:"other_loops,omitempty"`
	Commands         map[string]string         `json:"commands"`
}

// briefing tells the reviewer what to review and exactly how to record it:
// the full briefing for a new claim, the resume briefing otherwise.
func briefing(a *checkpoint.Assignment, c *checkpoint.Claim, session string, generated bool, now time.Time) Result {
	r, p := c.Request, c.Progress
	d := briefingData{
		Assignment: a.Name, Session: session, Lease: c.Lease, Kind: c.Kind, Request: r, Mode: p.Mode, Phase: p.Phase,
		Preflight: p.Preflight, FilesTotal: p.FilesTotal, Remaining: orEmpty(p.FilesRemaining),
		Reviewed: []fileSummary{}, Commands: reviewerCommands(checkpoint.Holder{Session: session, Lease: c.Lease}),
	}
	if c.Kind == checkpoint.ClaimTakeover || c.Kind == checkpoint.ClaimResumed {
		d.TakenOverFrom = c.From
	}
	d.OtherLoops = otherLoops(a, r)
	byFile := p.FindingsByFile()
	for _, f := range p.FilesReviewed {
		d.Reviewed = append(d.Reviewed, fileSummary{f, len(byFile[f])})
	}
	if n := len(p.PreviousRounds); n > 0 {
		prev := p.PreviousRounds[n-1]
		d.PreviousFindings = append([]protocol.Finding{}, prev.Findings...)
		if prev.Verdict != nil {
			d.PreviousFindings = append(d.PreviousFindings, prev.Verdict.Issues...)
		}
	}
	var b strings.Builder
	if c.Kind == checkpoint.ClaimNew {
		writeNewBriefing(&b, a, d, generated)
	} else {
		writeResumeBriefing(&b, a, c, d, now)
	}
	fmt.Fprintf(&b, "\nRecord each file as you finish it (this is your checkpoint):\n  %s\n", d.Commands["record"])
	fmt.Fprintf(&b, "Then: %s\n", d.Commands["verdict"])
	if generated {
		fmt.Fprintf(&b, "Your session id is %s and your lease %s: pass both to every command (or export SPECDEV_SESSION=%s SPECDEV_LEASE=%s).\n",
			session, c.Lease, session, c.Lease)
	}
	next := "give the verdict: " + d.Commands["verdict"]
	if len(p.FilesRemaining) > 0 {
		next = "review " + p.FilesRemaining[0]
		if len(p.FilesReviewed) > 0 {
			next = "continue reviewing from " + p.FilesRemaining[0]
		}
	}
	return Result{State: "claimed", Data: d, Text: b.String(), Next: next}
}

func reviewerCommands(h checkpoint.Holder) map[string]string {
	ids := "--session " + h.Session
	if h.Lease != "" {
		ids += " --lease " + h.Lease
	}
	return map[string]string{
		"record":  fmt.Sprintf("specdev check record <file> %s [--finding \"important: …\" --line N]", ids),
		"verdict": fmt.Sprintf("specdev check verdict pass|fail --summary \"…\" %s", ids),
		"release": fmt.Sprintf("specdev check release %s", ids),
	}
}

func writeNewBriefing(b *strings.Builder, a *checkpoint.Assignment, d briefingData, generated bool) {
	r := d.Request
	fmt.Fprintf(b, "Review claimed: %s (gate %s, round %s)\n", a.Name, r.Gate, r.RoundText())
	fmt.Fprintf(b, "Session: %s  ·  lease %s  ·  mode %s", d.Session, d.Lease, d.Mode)
	if r.HeadCommit != "" {
		fmt.Fprintf(b, "  ·  head %s", short(r.HeadCommit))
	}
	b.WriteString("\n")
	writeRange(b, r)
	if r.Notes != "" {
		fmt.Fprintf(b, "Notes from implementer: %s\n", oneLine(r.Notes))
	}
	writePreflightLine(b, d.Preflight)
	writeLoopContext(b, d)
	if len(d.PreviousFindings) > 0 {
		fmt.Fprintf(b, "\nFindings of the previous round to verify (%d):\n", len(d.PreviousFindings))
		writeFindings(b, d.PreviousFindings)
	}
	fmt.Fprintf(b, "\nFiles to review (%d):\n", len(d.Remaining))
	for _, f := range d.Remaining {
		fmt.Fprintf(b, "  %s\n", f)
	}
}

func writeResumeBriefing(b *strings.Builder, a *checkpoint.Assignment, c *checkpoint.Claim, d briefingData, now time.Time) {
	r, p := c.Request, c.Progress
	fmt.Fprintf(b, "Resuming review: %s (gate %s, round %s)\n", a.Name, r.Gate, r.RoundText())
	switch c.Kind {
	case checkpoint.ClaimTakeover:
		fmt.Fprintf(b, "Taken over from session %s (no activity for %s); you are %s\n", oneLine(c.From), human(c.Idle), d.Session)
	case checkpoint.ClaimResumed:
		fmt.Fprintf(b, "Picked up after session %s released it; you are %s\n", oneLine(c.From), d.Session)
	case checkpoint.ClaimReclaim:
		fmt.Fprintf(b, "You already hold this review (session %s, mode %s); your lease is renewed: %s (the previous lease no longer works)\n",
			d.Session, p.Mode, d.Lease)
	default:
		fmt.Fprintf(b, "You already hold this review (session %s, lease %s, mode %s)\n", d.Session, d.Lease, p.Mode)
	}
	writePreflightLine(b, p.Preflight)
	writeLoopContext(b, d)
	fmt.Fprintf(b, "Progress: %d/%d files reviewed, %s so far\n", len(p.FilesReviewed), p.FilesTotal, plural(p.FindingsSoFar, "finding"))
	for _, f := range d.Reviewed {
		fmt.Fprintf(b, "  ✓ %s (%s)\n", f.File, plural(f.Findings, "finding"))
	}
	if len(p.FilesRemaining) == 0 {
		b.WriteString("Remaining: none — every file is reviewed\n")
		return
	}
	b.WriteString("Remaining:\n")
	for _, f := range p.FilesRemaining {
		fmt.Fprintf(b, "  %s\n", f)
	}
}

func writePreflightLine(b *strings.Builder, pf *protocol.PreflightResult) {
	if pf == nil {
		b.WriteString("Pre-flight: not configured\n")
		return
	}
	fmt.Fprintf(b, "Pre-flight: %s passed (%s)\n", oneLine(strings.Join(pf.Command, " ")), human(time.Duration(pf.DurationMS)*time.Millisecond))
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

func fileExists(path string) bool {
	info, err := os.Stat(path)
	return err == nil && !info.IsDir()
}
