package report

import (
	"strings"

	"github.com/specdev/specdev/protocol"
)

// writeVerdict writes the "## Verdict" section of one round: the verdict
// line, then whatever the reviewer and the human said about it.
func writeVerdict(w *writer, v round) {
	w.section("## Verdict")
	w.line(verdictLine(v))
	vd, d := v.p.Verdict, v.p.Decision
	if vd != nil {
		labelled(w, "Summary: ", vd.Summary)
		labelled(w, "Interpreted intent: ", vd.InterpretedIntent)
		if vd.IntentSatisfied != nil {
			w.line("Intent satisfied: ", map[bool]string{true: "yes", false: "no"}[*vd.IntentSatisfied])
		}
	}
	if d != nil {
		labelled(w, "Human decision notes: ", d.Notes)
	}
	if vd != nil && len(vd.Issues) > 0 {
		w.line("Issues:")
		for _, f := range vd.Issues {
			writeFinding(w, f, escape(f.Location()))
		}
	}
}

// verdictLine is the first line under "## Verdict": a finished status in
// the header's words (PASSED, BLOCKED…). A finished status wins over the
// progress; until there is one, the line says what is missing.
func verdictLine(v round) string {
	switch {
	case v.status == protocol.StatusCancelled, v.status == protocol.StatusBlocked:
		return statusWord(v.status)
	case v.p.PreflightFailed():
		return "FAILED - pre-flight gate failed"
	case v.status == protocol.StatusAwaitingApproval:
		return awaitingLine(v)
	case v.status == protocol.StatusPassed, v.status == protocol.StatusFailed:
		return statusWord(v.status) + decisionSuffix(v.p.Decision)
	case v.remaining() > 0:
		return "PENDING - " + protocol.Plural(v.remaining(), "file") + " remaining"
	}
	return "PENDING - all files reviewed, verdict not yet given"
}

// awaitingLine names the proposal: the request's proposed verdict, else
// the one in the progress.
func awaitingLine(v round) string {
	proposed := v.proposed
	if proposed == "" && v.p.Verdict != nil {
		proposed = v.p.Verdict.Word()
	}
	if word := escape(strings.ToUpper(proposed)); word != "" {
		return "AWAITING APPROVAL - reviewer proposes " + word
	}
	return "AWAITING APPROVAL"
}

func decisionSuffix(d *protocol.Decision) string {
	if d == nil {
		return ""
	}
	return map[bool]string{true: " (approved by a human)", false: " (rejected by a human)"}[d.Approved]
}

// labelled writes "label text" unless text is empty once escaped.
func labelled(w *writer, label, text string) {
	if text = escape(text); text != "" {
		w.line(label, text)
	}
}
