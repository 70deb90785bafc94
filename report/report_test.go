package report

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/specdev/specdev/protocol"
)

var update = flag.Bool("update", false, "rewrite golden files")

type renderCase struct {
	name   string
	input  func() (*protocol.Request, *protocol.Progress)
	rounds int                                // rounds the report shows, when not 1
	check  func(t *testing.T, lines []string) // extra assertions on the report's lines outside code fences
}

var renderCases = []renderCase{
	{name: "claimed", input: claimed},
	{name: "half_reviewed", input: halfReviewed},
	{name: "passed", input: passed},
	{name: "failed", input: failed},
	{name: "awaiting_approval", input: awaitingApproval},
	{name: "preflight_failed", input: preflightFailed},
	{name: "round2_addendum", input: round2Addendum, rounds: 2},
	{name: "round3_follow_up", input: round3FollowUp, rounds: 3},
	{name: "next_round_pending", input: nextRoundPending, rounds: 2},
	{name: "approved_by_human", input: approvedByHuman},
	{name: "forgery", input: forgery, check: checkForgery},
}

// TestRender compares each case with testdata/<case>.md; run
// go test ./report -update to rewrite them, then read the diff.
func TestRender(t *testing.T) {
	for _, tc := range renderCases {
		t.Run(tc.name, func(t *testing.T) {
			r, p := tc.input()
			got := Render(r, p)
			golden := filepath.Join("testdata", tc.name+".md")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./report -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("Render differs from %s (go test ./report -update rewrites it)\n%s", golden, firstDiff(got, want))
			}
			lines := outsideFences(got)
			rounds := max(tc.rounds, 1)
			if n := count(lines, "## Verdict"); n != rounds {
				t.Errorf("%d lines are \"## Verdict\", want %d (one per round)", n, rounds)
			}
			if tc.check != nil {
				tc.check(t, lines)
			}
		})
	}
}

// checkForgery: agent text that looks like report structure stays inside
// its own line, escaped.
func checkForgery(t *testing.T, lines []string) {
	if n := count(lines, "## Verdict"); n != 1 {
		t.Errorf("%d lines are \"## Verdict\", want 1", n)
	}
	var verdicts []string
	for i, line := range lines {
		if strings.HasPrefix(line, "PASSED") {
			verdicts = append(verdicts, line)
			if i == 0 || lines[i-1] != "## Verdict" {
				t.Errorf("line %d %q starts with PASSED but is not the verdict line", i+1, line)
			}
		}
	}
	if len(verdicts) != 1 {
		t.Errorf("lines starting with PASSED: %q, want exactly the real verdict", verdicts)
	}
	want := map[string]int{"# Review Report": 1, "## Files Reviewed": 1, "## Pre-flight Results": 1}
	for heading, n := range want {
		if got := count(lines, heading); got != n {
			t.Errorf("%d lines are %q, want %d", got, heading, n)
		}
	}
	if got, want := headings(lines), 9; got != want {
		t.Errorf("%d heading lines, want %d (title, 4 sections, 4 files)", got, want)
	}
}

// TestRenderDeterministic: the same input gives the same bytes, and
// rendering leaves the input as it was.
func TestRenderDeterministic(t *testing.T) {
	for _, tc := range renderCases {
		t.Run(tc.name, func(t *testing.T) {
			r, p := tc.input()
			before := encode(t, r, p)
			first, second := Render(r, p), Render(r, p)
			if !bytes.Equal(first, second) {
				t.Errorf("two renders differ\n%s", firstDiff(second, first))
			}
			if after := encode(t, r, p); after != before {
				t.Errorf("Render changed its input:\nbefore %s\nafter  %s", before, after)
			}
		})
	}
}

// TestRenderMissingInput: no progress yet (or no request) still renders,
// listing the request's files as not yet reviewed.
func TestRenderMissingInput(t *testing.T) {
	got := string(Render(request(protocol.StatusPending), nil))
	for _, want := range []string{"Status: PENDING", "not run yet", "- (none yet)", "- docs/auth.md", "PENDING - 4 files remaining"} {
		if !strings.Contains(got, want) {
			t.Errorf("report without progress lacks %q:\n%s", want, got)
		}
	}
	if got := string(Render(nil, nil)); !strings.HasPrefix(got, "# Review Report\n") {
		t.Errorf("Render(nil, nil) = %q, want a report", got)
	}
}

func encode(t *testing.T, r *protocol.Request, p *protocol.Progress) string {
	t.Helper()
	data, err := json.Marshal([]any{r, p})
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// outsideFences returns the report's lines, leaving out those inside
// fenced code blocks (the pre-flight output), which Markdown does not read
// as structure.
func outsideFences(report []byte) []string {
	var out []string
	fence := ""
	for line := range strings.Lines(string(report)) {
		line = strings.TrimSuffix(line, "\n")
		switch {
		case fence == "" && strings.HasPrefix(line, "```"):
			fence = line
		case fence != "":
			if strings.HasPrefix(line, fence) && strings.Trim(line, "`") == "" {
				fence = ""
			}
		default:
			out = append(out, line)
		}
	}
	return out
}

func count(lines []string, want string) int {
	n := 0
	for _, line := range lines {
		if line == want {
			n++
		}
	}
	return n
}

func headings(lines []string) int {
	n := 0
	for _, line := range lines {
		if strings.HasPrefix(line, "#") {
			n++
		}
	}
	return n
}

// firstDiff shows the first line where got and want differ.
func firstDiff(got, want []byte) string {
	g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := 0; i < max(len(g), len(w)); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl || i >= len(g) || i >= len(w) {
			return "line " + strconv.Itoa(i+1) + ":\n got  " + quote(gl) + "\n want " + quote(wl)
		}
	}
	return "(same lines)"
}

func quote(s string) string {
	data, _ := json.Marshal(s)
	return string(data)
}
