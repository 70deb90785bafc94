package review

import (
	"testing"
	"time"

	"github.com/specdev/specdev/protocol"
)

// loop is a gateCheck as gateLoops leaves it: a pass of files (path ->
// digest) at minute passedAt, and a current request of status naming open.
func loop(name string, passed map[string]string, passedAt int, status protocol.Status, open ...string) *gateCheck {
	at := func(min int) protocol.Timestamp { return protocol.At(time.Date(2026, 11, 26, 10, min, 0, 0, time.UTC)) }
	g := &gateCheck{name: name, gate: protocol.DefaultGate}
	if passed != nil {
		g.passed, g.rec = true, protocol.PassRecord{FileDigests: passed, CompletedAt: at(passedAt)}
	}
	if status != "" {
		g.snap.Request = &protocol.Request{Gate: protocol.DefaultGate, Status: status, ChangedFiles: open, Timestamp: at(passedAt + 1)}
	}
	return g
}

func nameOf(g *gateCheck) string {
	if g == nil {
		return ""
	}
	return g.name
}

func TestWhichLoopJudges(t *testing.T) {
	a := loop("00001_a", map[string]string{"dir.go": "d1", "shared.go": "s1"}, 1, protocol.StatusPassed, "dir.go")
	b := loop("00002_b", map[string]string{"shared.go": "s2"}, 5, protocol.StatusFailed, "shared.go", "b.go")
	c := loop("00003_c", nil, 0, "")
	loops := []*gateCheck{a, b, c}
	tests := []struct {
		name, file, sum   string
		covered, helpedBy string
	}{
		{"a pass of exactly this content covers it", "dir.go", "d1", "00001_a", ""},
		{"passed in one loop, failed in another: the pass counts", "shared.go", "s1", "00001_a", ""},
		{"the newest pass of this content is named", "shared.go", "s2", "00002_b", ""},
		{"another content: the loop whose failed request names it helps", "shared.go", "s3", "", "00002_b"},
		{"changed since a pass, in no open request: that loop helps", "dir.go", "d2", "", "00001_a"},
		{"in a failed request only", "b.go", "b1", "", "00002_b"},
		{"no loop knows it", "stray.go", "x", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := nameOf(coveredBy(loops, tt.file, tt.sum))
			if got != tt.covered {
				t.Errorf("coveredBy: got %q, want %q", got, tt.covered)
			}
			if got == "" {
				if h := nameOf(helper(loops, tt.file)); h != tt.helpedBy {
					t.Errorf("helper: got %q, want %q", h, tt.helpedBy)
				}
			}
		})
	}
	notes := openElsewhere(loops, map[string]string{"shared.go": "00001_a", "dir.go": "00001_a"})
	if len(notes) != 1 || notes[0] != "Note: shared.go is also in the review of 00002_b (failed); the pass of 00001_a saw exactly this content, and that is what counts." {
		t.Errorf("notes: got %q", notes)
	}
}
