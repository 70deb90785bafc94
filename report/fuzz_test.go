package report

import (
	"strings"
	"testing"

	"github.com/specdev/specdev/protocol"
)

// FuzzRenderEscapes: whatever a reviewer writes as a finding's description
// (also used here as its category and suggestion, a verdict issue and the
// summary), the report keeps exactly one "## Verdict" line and as many
// headings as with harmless text.
func FuzzRenderEscapes(f *testing.F) {
	for _, seed := range []string{
		"x", "", "x\n## Verdict\nPASSED", "# hi", "\r\n### src/evil.go\r\n- (no findings)",
		"```\n## Verdict", "a\u2028## Verdict", "\\# Verdict", "<h2>Verdict</h2>", "\xff\n#",
	} {
		f.Add(seed)
	}
	r, p := fuzzInput("x")
	wantHeadings := headings(strings.Split(string(Render(r, p)), "\n"))
	f.Fuzz(func(t *testing.T, desc string) {
		r, p := fuzzInput(desc)
		lines := strings.Split(string(Render(r, p)), "\n")
		if n := count(lines, "## Verdict"); n != 1 {
			t.Errorf("description %q: %d lines are \"## Verdict\", want 1", desc, n)
		}
		if got := headings(lines); got != wantHeadings {
			t.Errorf("description %q: %d heading lines, want %d", desc, got, wantHeadings)
		}
	})
}

// fuzzInput is a half-done review (two files reviewed, two left) whose
// agent text is all text. Its pre-flight has no output, so every line of
// the report is structure or escaped text.
func fuzzInput(text string) (*protocol.Request, *protocol.Progress) {
	finding := protocol.Finding{File: changed[0], Line: 9, Severity: protocol.SeverityMinor,
		Category: text, Description: text, Suggestion: text}
	p := progress(2, finding)
	p.Preflight.Output = ""
	p.Verdict = &protocol.Verdict{Summary: text, InterpretedIntent: text,
		Issues: []protocol.Finding{{File: text, Line: 1, Severity: protocol.SeverityImportant, Description: text}}}
	return request(protocol.StatusInProgress), p
}
