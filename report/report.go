// Package report renders review_report.md, the human-readable view of a
// review: a header (assignment, gate, round, status, reviewer, takeovers),
// the pre-flight results, one section per reviewed file with its findings,
// the files not yet reviewed, and the verdict. In a later round of the same
// loop, the earlier rounds are kept above an addendum for the current one.
//
// Invariants:
//   - Render is pure: the output depends only on its arguments (no clock,
//     no I/O, no map iteration order), and the arguments are not modified.
//   - Every piece of text that comes from an agent or a human passes through
//     escape, which folds it onto one line and backslash-escapes Markdown,
//     so it can never start a line, open a heading, or forge the
//     "## Verdict" section or a verdict line. Pre-flight output, the only
//     multi-line text, is kept verbatim inside a code fence longer than any
//     run of backticks in it, so it cannot close the fence early.
//   - The report is rendered, never parsed back: review_progress.json is the
//     source of truth.
package report

import (
	"cmp"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/specdev/specdev/protocol"
)

// Render returns review_report.md for a request and its progress.
func Render(r *protocol.Request, p *protocol.Progress) []byte {
	r = cmp.Or(r, &protocol.Request{})
	past, cur := rounds(r, p)
	var w writer
	writeHeader(&w, r, cur.p)
	if len(past) == 0 {
		writeBody(&w, cur)
		return w.b
	}
	for _, old := range past {
		w.section("# Round ", strconv.Itoa(old.number), " (", escape(string(old.status)), ")", old.heading())
		writeBody(&w, old)
	}
	w.section("# Addendum: Round ", strconv.Itoa(r.Round), cur.heading())
	writeBody(&w, cur)
	return w.b
}

// rounds splits what the report shows into the finished rounds of the loop
// and the current one. A progress left over from another request is either
// the previous round of the same loop (the request opened the next round
// and nobody has claimed it yet) or unrelated (a new loop); either way the
// current round starts from the request alone.
func rounds(r *protocol.Request, p *protocol.Progress) (past []round, cur round) {
	var recs []protocol.RoundRecord
	if p.BelongsTo(r) {
		recs, cur = p.PreviousRounds, currentRound(r, p)
	} else {
		cur = currentRound(r, &protocol.Progress{FilesTotal: len(r.ChangedFiles), FilesRemaining: r.ChangedFiles})
		cur.unclaimed = true
		switch {
		case p == nil || r.Round <= 1 || p.Round > r.Round:
		case p.Round == r.Round: // an abandoned attempt at this round: only the rounds before it
			recs = p.PreviousRounds
		default:
			recs = append(slices.Clone(p.PreviousRounds), p.Record())
		}
	}
	for _, rec := range recs {
		past = append(past, pastRound(rec))
	}
	return past, cur
}

// writeHeader writes the title and the lines about the request as a whole.
func writeHeader(w *writer, r *protocol.Request, p *protocol.Progress) {
	w.line("# Review Report")
	w.line("Assignment: ", escape(assignmentName(r)), " | Gate: ", escape(r.Gate),
		" | Round: ", escape(r.RoundText()), " | Status: ", statusWord(r.Status))
	if ids := strings.Join(requestParts(r, p), " | "); ids != "" {
		w.line(ids)
	}
	labelled(w, "Notes from implementer: ", r.Notes)
	labelled(w, "Guidance from a human: ", r.Guidance)
	if c := r.AgentCost; c != nil {
		w.line("Agents, this round: ", escape(c.Round.String()), " | this loop: ", escape(c.Loop.String()))
	}
	for _, t := range p.Takeovers {
		w.line(takeoverLine(t))
	}
}

// requestParts are "Request: …", "Head: …" and "Reviewer: …", each left
// out when unknown.
func requestParts(r *protocol.Request, p *protocol.Progress) []string {
	reviewer := escape(p.SessionID)
	if mode := escape(string(p.Mode)); reviewer != "" && mode != "" {
		reviewer += " (" + mode + " mode)"
	}
	var parts []string
	for _, part := range [][2]string{{"Request: ", escape(r.RequestID)}, {"Head: ", escape(prefix(r.HeadCommit, 7))}, {"Reviewer: ", reviewer}} {
		if part[1] != "" {
			parts = append(parts, part[0]+part[1])
		}
	}
	return parts
}

func takeoverLine(t protocol.Takeover) string {
	s := "Taken over from " + escape(t.From) + " by " + escape(t.To)
	if !t.At.IsZero() {
		s += " at " + t.At.UTC().Format(time.RFC3339)
	}
	why := map[string]string{"stale": "no activity", "force": "forced", "resume": "resumed after a release"}[t.Reason]
	if idle := escape(t.Idle); t.Reason == "stale" && idle != "" {
		why += " for " + idle
	}
	if why = cmp.Or(why, escape(t.Reason)); why != "" {
		s += " (" + why + ")"
	}
	return s
}

// statusWord is the status as the header shows it: IN PROGRESS.
func statusWord(s protocol.Status) string {
	switch {
	case s == protocol.StatusNone:
		return "NO REQUEST"
	case s.Valid():
		return strings.ToUpper(strings.ReplaceAll(string(s), "_", " "))
	}
	return escape(string(s))
}

// assignmentName is the assignment's folder name (from assignment_path),
// or its id when the request names no path.
func assignmentName(r *protocol.Request) string {
	if r.AssignmentPath != "" {
		return path.Base(r.AssignmentPath)
	}
	return r.AssignmentID
}
