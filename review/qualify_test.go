package review

import (
	"testing"

	"github.com/specdev/specdev/checkpoint"
)

// Each command that acts on one assignment gets --assignment; a line
// that names an assignment already, and a group's command, stay as
// they are.
func TestQualify(t *testing.T) {
	tests := []struct{ in, want string }{
		{"wait for the verdict: specdev work --timeout 10m",
			"wait for the verdict: specdev work --assignment 00001_a --timeout 10m"},
		{"wait for the verdict (specdev work --timeout 10m) or withdraw it (specdev work cancel)",
			"wait for the verdict (specdev work --assignment 00001_a --timeout 10m) or withdraw it (specdev work cancel --assignment 00001_a)"},
		{"a human runs: specdev work unblock --rounds 1 (or: specdev work continue)",
			"a human runs: specdev work unblock --assignment 00001_a --rounds 1 (or: specdev work continue --assignment 00001_a)"},
		{"a human decides: specdev check approve|reject, or specdev decide",
			"a human decides: specdev check approve|reject --assignment 00001_a, or specdev decide --assignment 00001_a"},
		{"ask for a review: specdev work request --staged --assignment 00002_b", "ask for a review: specdev work request --staged --assignment 00002_b"},
		{"wait for the group: specdev work --group api --timeout 10m", "wait for the group: specdev work --group api --timeout 10m"},
		{"poll again: specdev check --session rv-a", "poll again: specdev check --session rv-a"},
		{"line one: specdev work\nline two: specdev work request --assignment 00001_a",
			"line one: specdev work --assignment 00001_a\nline two: specdev work request --assignment 00001_a"},
	}
	for _, tt := range tests {
		if got := qualify(tt.in, "00001_a"); got != tt.want {
			t.Errorf("qualify(%q)\n got %q\nwant %q", tt.in, got, tt.want)
		}
	}
}

// A hint given the assignment keeps the error's message and outcome code.
func TestRehintedKeepsTheCode(t *testing.T) {
	err := &checkpoint.StateError{Msg: "a review is already pending", Hint: "withdraw it (specdev work cancel)"}
	re := &rehinted{err: err, hint: qualify(err.Hint, "00001_a")}
	if CodeOf(re) != CodeOf(err) || re.Error() != err.Error() || HintOf(re) != "withdraw it (specdev work cancel --assignment 00001_a)" {
		t.Fatalf("code %v (want %v), message %q, hint %q", CodeOf(re), CodeOf(err), re.Error(), HintOf(re))
	}
}
