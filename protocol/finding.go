package protocol

import (
	"fmt"
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

// ParseSeverity reads a severity case-insensitively ("IMPORTANT" works).
func ParseSeverity(s string) (Severity, error) {
	sev := Severity(strings.ToLower(strings.TrimSpace(s)))
	for _, known := range Severities {
		if sev == known {
			return sev, nil
		}
	}
	return "", fmt.Errorf("severity %s is not one of critical, important, minor", QuotePrefix(s))
}

// Finding is one issue a reviewer found. Line 0 means "no particular line".
type Finding struct {
	File        string   `json:"file,omitempty"`
	Line        int      `json:"line,omitempty"`
	Severity    Severity `json:"severity" specdev:"required"`
	Category    string   `json:"category,omitempty"`
	Description string   `json:"description" specdev:"required"`
	Suggestion  string   `json:"suggestion,omitempty"`
}

// Location is "file:line", "file", or "" when neither is known.
func (f Finding) Location() string {
	if f.Line > 0 && f.File != "" {
		return f.File + ":" + strconv.Itoa(f.Line)
	}
	return f.File
}

// ParseFindingFlag reads the command-line form "SEVERITY: text".
func ParseFindingFlag(s string) (Finding, error) {
	sevText, text, ok := strings.Cut(s, ":")
	if !ok || strings.TrimSpace(text) == "" {
		return Finding{}, fmt.Errorf("finding %s must look like \"SEVERITY: what is wrong\", SEVERITY one of critical, important, minor", QuotePrefix(s))
	}
	sev, err := ParseSeverity(sevText)
	if err != nil {
		return Finding{}, err
	}
	return Finding{Severity: sev, Description: strings.TrimSpace(text)}, nil
}

func itoa(n int) string { return strconv.Itoa(n) }
