package protocol

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Severity ranks a finding.
type Severity string

// The severities of a finding, most severe first.
const (
	SeverityCritical  Severity = "critical"
	SeverityImportant Severity = "important"
	SeverityMinor     Severity = "minor"
)

// Severities lists the valid severities, most severe first.
var Severities = []Severity{SeverityCritical, SeverityImportant, SeverityMinor}

// Finding is one issue a reviewer found. Line 0 means "no particular line".
type Finding struct {
	File        string   `json:"file,omitempty" check:"file"`
	Line        int      `json:"line,omitzero" check:"line"`
	Severity    Severity `json:"severity" specdev:"required" check:"severity"`
	Category    string   `json:"category,omitempty" check:"category"`
	Description string   `json:"description" specdev:"required" check:"description"`
	Suggestion  string   `json:"suggestion,omitempty" check:"finding"`
}

// Location is "file:line", "file", or "" when neither is known.
func (f Finding) Location() string {
	if f.Line > 0 && f.File != "" {
		return f.File + ":" + strconv.Itoa(f.Line)
	}
	return f.File
}

// Same reports whether f and o are one finding, as a later round finds
// it again: about the same file, with the same text (case and spaces
// aside), or at the same line with the same severity.
func (f Finding) Same(o Finding) bool {
	if f.File != o.File {
		return false
	}
	if strings.EqualFold(strings.TrimSpace(f.Description), strings.TrimSpace(o.Description)) {
		return true
	}
	return f.Line > 0 && f.Line == o.Line && f.Severity == o.Severity
}

// Repeats returns a rejection's blocking (critical and important)
// findings if the round before had found every one of them already, and
// nil if any of them is new or there is none: a loop that only repeats
// itself is stuck.
func Repeats(findings []Finding, before RoundRecord) []Finding {
	earlier := before.AllFindings()
	var repeated []Finding
	for _, f := range findings {
		if f.Severity == SeverityMinor {
			continue
		}
		if !slices.ContainsFunc(earlier, f.Same) {
			return nil
		}
		repeated = append(repeated, f)
	}
	return repeated
}

// ParseFindingFlag reads the command-line form "SEVERITY: text", the
// severity case-insensitively ("IMPORTANT" works).
func ParseFindingFlag(s string) (Finding, error) {
	sevText, text, ok := strings.Cut(s, ":")
	sev := Severity(strings.ToLower(strings.TrimSpace(sevText)))
	if !ok || strings.TrimSpace(text) == "" || !slices.Contains(Severities, sev) {
		return Finding{}, fmt.Errorf("finding %s must look like \"SEVERITY: what is wrong\", SEVERITY one of critical, important, minor", QuotePrefix(s))
	}
	return Finding{Severity: sev, Description: strings.TrimSpace(text)}, nil
}

func itoa(n int) string { return strconv.Itoa(n) }

// Verdict is a reviewer's structured verdict, as given on the command line
// or in a verdict file (validated against schemas/verdict.schema.json).
type Verdict struct {
	Passed            bool      `json:"passed" specdev:"required"`
	Summary           string    `json:"summary,omitempty" check:"text"`
	InterpretedIntent string    `json:"interpreted_intent,omitempty" check:"text"`
	IntentSatisfied   *bool     `json:"intent_satisfied,omitempty"`
	Issues            []Finding `json:"issues,omitempty" check:"issues"`
}

// Word is "pass" or "fail".
func (v *Verdict) Word() string {
	if v.Passed {
		return VerdictPass
	}
	return VerdictFail
}
