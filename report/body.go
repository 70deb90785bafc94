package report

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/specdev/specdev/protocol"
)

// round is what one round's body shows. The current round and every
// finished one become a round, so that one renderer draws them all.
type round struct {
	number    int
	status    protocol.Status
	proposed  string             // the verdict a manual-mode reviewer proposes
	p         *protocol.Progress // files, findings, pre-flight, verdict, decision
	plan      protocol.RoundPlan // the commit it read, and for a later round how (Kind "" when not known)
	past      bool               // finished: unreviewed files are counted, not listed
	unclaimed bool               // no reviewer has taken this round yet
}

func currentRound(r *protocol.Request, p *protocol.Progress) round {
	v := round{number: r.Round, status: r.Status, proposed: r.ProposedVerdict, p: p, plan: protocol.RoundPlan{HeadCommit: r.ReviewedCommit()}}
	if p.Plan != nil {
		v.plan = *p.Plan
	}
	return v
}

func pastRound(rec protocol.RoundRecord) round {
	return round{number: rec.Round, status: rec.Status, past: true,
		plan: protocol.RoundPlan{HeadCommit: rec.HeadCommit, Kind: rec.Plan, Since: rec.Since, Unchanged: rec.Unchanged},
		p: &protocol.Progress{FilesTotal: rec.FilesTotal, FilesReviewed: rec.FilesReviewed,
			Preflight: rec.Preflight, Findings: rec.Findings, Resolved: rec.Resolved, Verdict: rec.Verdict, Decision: rec.Decision}}
}

// remaining is how many files of the round were not reviewed.
func (v round) remaining() int {
	if v.past {
		return max(v.p.FilesTotal-len(v.p.FilesReviewed), 0)
	}
	return len(v.p.FilesRemaining)
}

// writeBody writes the sections of one round.
func writeBody(w *writer, v round) {
	writePreflight(w, v)
	writeReviewed(w, v.p, v.plan.Unchanged)
	writeResolved(w, v.p.Resolved)
	writeUnchanged(w, v)
	writeNotReviewed(w, v)
	writeVerdict(w, v)
}

// writeUnchanged lists the files a follow-up round carried over from the
// round before without re-reading them.
func writeUnchanged(w *writer, v round) {
	if len(v.plan.Unchanged) == 0 {
		return
	}
	w.section("## Unchanged Since Round ", strconv.Itoa(v.number-1), " (not re-read)")
	for _, file := range v.plan.Unchanged {
		w.line("- ", escape(file))
	}
}

// heading is what a round's heading says besides its number: the commit
// it read and, for a later round, how it was read.
func (v round) heading() string {
	var parts []string
	pl := v.plan
	if head := escape(prefix(pl.HeadCommit, 7)); head != "" {
		parts = append(parts, "reviewed at "+head)
	}
	switch {
	case pl.Kind == protocol.PlanFollowUp && pl.Since != "":
		since, head := escape(prefix(pl.Since, 7)), escape(prefix(pl.HeadCommit, 7))
		parts = append(parts, "follow-up of the changes since "+since+" ("+codeSpan("git diff "+since+".."+head)+")")
	case pl.Kind == protocol.PlanFollowUp:
		parts = append(parts, "follow-up")
	case pl.Kind == protocol.PlanFull && pl.Reason != "":
		parts = append(parts, "full review ("+escape(strings.ReplaceAll(pl.Reason, "_", " "))+")")
	}
	if len(parts) == 0 {
		return ""
	}
	return " — " + strings.Join(parts, "; ")
}

func writePreflight(w *writer, v round) {
	w.section("## Pre-flight Results")
	res := v.p.Preflight
	switch {
	case res == nil && v.unclaimed:
		w.line("not run yet")
	case res == nil && v.p.Phase == protocol.PhasePreflight:
		w.line("running…")
	case res == nil:
		w.line("not configured")
	case res.Passed:
		w.line(command(res.Command), " passed (", seconds(res.DurationMS), ")")
	case escape(res.Error) != "":
		w.line("FAILED: ", escape(res.Error))
	default:
		w.line("FAILED: ", command(res.Command), " exited with ", strconv.Itoa(res.ExitCode),
			" (", seconds(res.DurationMS), ")")
	}
	if res != nil && res.Output != "" {
		w.fenced(res.Output)
	}
}

// command is the pre-flight argv as one code span.
func command(argv []string) string {
	if s := protocol.SafeText(strings.Join(argv, " ")); s != "" {
		return codeSpan(s)
	}
	return "the pre-flight command"
}

// seconds is a duration in milliseconds as "0.4s", or "2m5s" from a minute on.
func seconds(ms int64) string {
	d := time.Duration(max(ms, 0)) * time.Millisecond
	if d < time.Minute {
		return strconv.FormatFloat(d.Seconds(), 'f', 1, 64) + "s"
	}
	return d.Round(time.Second).String()
}

// writeReviewed writes one subsection per reviewed file, in review order.
// Findings whose file is not among the reviewed ones (which the checkpoint
// does not produce) are listed last rather than dropped.
func writeReviewed(w *writer, p *protocol.Progress, unchanged []string) {
	w.section("## Files Reviewed")
	skip := make(map[string]bool, len(unchanged))
	for _, f := range unchanged {
		skip[f] = true
	}
	if len(p.FilesReviewed) <= len(skip) {
		w.line("- (none yet)")
	}
	first, next := groupByFile(p.Findings)
	reviewed := make(map[string]bool, len(p.FilesReviewed))
	for _, file := range p.FilesReviewed {
		reviewed[file] = true
		if skip[file] {
			continue
		}
		w.section("### ", escape(file))
		i, ok := first[file]
		if !ok {
			w.line("- (no findings)")
		}
		for ; ok && i >= 0; i = next[i] {
			writeFinding(w, p.Findings[i], lineRef(p.Findings[i]))
		}
	}
	others := slices.DeleteFunc(slices.Clone(p.Findings), func(f protocol.Finding) bool { return reviewed[f.File] })
	if len(others) > 0 {
		w.section("### Findings outside the reviewed files")
		for _, f := range others {
			writeFinding(w, f, escape(f.Location()))
		}
	}
}

// writeResolved lists the earlier findings the round verified fixed.
func writeResolved(w *writer, resolved []protocol.Resolved) {
	if len(resolved) == 0 {
		return
	}
	w.section("## Verified Fixed (findings of round ", strconv.Itoa(resolved[0].Round), ")")
	for _, r := range resolved {
		writeFinding(w, r.Finding, escape(r.Finding.Location()))
	}
}

// groupByFile chains the findings of each file in order: first[file] is
// the index of its first finding, next[i] that of the one after finding i
// (-1 after its last). Two allocations, however many files have findings.
func groupByFile(findings []protocol.Finding) (first map[string]int, next []int) {
	first = make(map[string]int, len(findings))
	next = make([]int, len(findings))
	for i := len(findings) - 1; i >= 0; i-- { // backwards: each file's chain is built from its end
		file := findings[i].File
		next[i] = -1
		if j, ok := first[file]; ok {
			next[i] = j
		}
		first[file] = i
	}
	return first, next
}

func writeNotReviewed(w *writer, v round) {
	w.section("## Files Not Yet Reviewed")
	n := v.remaining()
	switch {
	case n == 0:
		w.line("- (none)")
	case v.past:
		w.line("- (", protocol.Plural(n, "file"), " not reviewed)")
	default:
		for _, file := range v.p.FilesRemaining {
			w.line("- ", escape(file))
		}
	}
}

// writeFinding writes "- SEVERITY [category]: description (where)" and its
// suggestion. where is already escaped; "" leaves the parentheses out.
func writeFinding(w *writer, f protocol.Finding, where string) {
	w.add("- ", severityWord(f.Severity))
	if category := escape(f.Category); category != "" {
		w.add(" [", category, "]")
	}
	w.add(":")
	if text := escape(f.Description); text != "" {
		w.add(" ", text)
	}
	if where != "" {
		w.add(" (", where, ")")
	}
	w.line()
	labelled(w, "  Suggestion: ", f.Suggestion)
}

func severityWord(s protocol.Severity) string {
	return cmp.Or(escape(strings.ToUpper(string(s))), "FINDING")
}

// lineRef is "line 42", or "" for a finding about the whole file.
func lineRef(f protocol.Finding) string {
	if f.Line > 0 {
		return "line " + strconv.Itoa(f.Line)
	}
	return ""
}
