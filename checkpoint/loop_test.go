package checkpoint

import (
	"context"
	"errors"
	"maps"
	"strings"
	"testing"

	"github.com/specdev/specdev/protocol"
)

// fakeSum is a fake content digest: 64 hex digits made of one.
func fakeSum(c string) string { return strings.Repeat(c, 64) }

var (
	offByOne = protocol.Finding{Severity: protocol.SeverityImportant, Line: 2, Description: "off by one"}
	leak     = protocol.Finding{Severity: protocol.SeverityCritical, Line: 9, Description: "file handle leaks"}
	naming   = protocol.Finding{Severity: protocol.SeverityMinor, Line: 4, Description: "name the constant"}
)

// loopRound requests a review of a.go with the given content digest, and
// has rv-1 claim it, record a.go with the findings and give the verdict;
// decidedRound in manual mode proposes it and has a human decide it.
func loopRound(t *testing.T, a *Assignment, content string, pass bool, findings ...protocol.Finding) *protocol.Request {
	return decidedRound(t, a, content, pass, protocol.ModeAuto, findings...)
}

func decidedRound(t *testing.T, a *Assignment, content string, pass bool, mode protocol.Mode, findings ...protocol.Finding) *protocol.Request {
	t.Helper()
	ctx := context.Background()
	in := NewRequest{ChangedFiles: []string{"a.go"}, Coverage: Coverage{FileDigests: map[string]string{"a.go": fakeSum(content)}}}
	if _, err := a.RequestReview(ctx, in); err != nil {
		t.Fatal(err)
	}
	c, err := a.Claim(ctx, ClaimOptions{Session: "rv-1", Mode: mode})
	if err != nil {
		t.Fatal(err)
	}
	h := Holder{"rv-1", c.Lease}
	if _, err := a.Record(ctx, h, FileRecord{File: "a.go", Findings: findings}); err != nil {
		t.Fatal(err)
	}
	snap, err := a.GiveVerdict(ctx, h, protocol.Verdict{Passed: pass, Summary: "s"})
	if err == nil && mode == protocol.ModeManual {
		snap, err = a.Decide(ctx, pass, "decided")
	}
	if err != nil {
		t.Fatal(err)
	}
	return snap.Request
}

// A request with the same files and content as the loop's last rejected
// round is refused and writes nothing; any change, another kind of
// review, or a round that was never reviewed lets it through.
func TestStalledRequestRefused(t *testing.T) {
	tests := []struct {
		name    string
		content string
		staged  bool
		files   []string
		stalled bool
	}{
		{"nothing changed", "1", false, []string{"a.go"}, true},
		{"a file changed", "2", false, []string{"a.go"}, false},
		{"a file added", "1", false, []string{"a.go", "b.go"}, false},
		{"the staged change instead", "1", true, []string{"a.go"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := testAssignment(t)
			loopRound(t, a, "1", false, offByOne)
			before := dirFiles(t, a.Dir)
			sums := map[string]string{}
			for _, f := range tt.files {
				sums[f] = fakeSum(tt.content)
			}
			r, err := a.RequestReview(context.Background(), NewRequest{ChangedFiles: tt.files,
				Coverage: Coverage{FileDigests: sums, Staged: tt.staged}})
			if !tt.stalled {
				if err != nil || r.Round != 2 {
					t.Fatalf("RequestReview: round %v, %v; want round 2", r, err)
				}
				return
			}
			if !errors.Is(err, protocol.ErrConflict) || !strings.Contains(err.Error(), "nothing changed since round 1's review") {
				t.Fatalf("RequestReview: %v, want a conflict naming round 1", err)
			}
			after := dirFiles(t, a.Dir)
			delete(before, LockFile)
			delete(after, LockFile)
			if !maps.Equal(before, after) {
				t.Errorf("the refused request changed files")
			}
		})
	}
}

// A rejection whose every blocking finding repeats one of the round
// before stops the loop as stuck; a new blocking finding, only minor
// ones, round 1, or stop_on_repeat false leave it failed.
func TestStuckWhenFindingsRepeat(t *testing.T) {
	moved := offByOne
	moved.Line, moved.Description = 3, "Off by one " // same text, another line
	relabelled := offByOne
	relabelled.Description = "wrong bound" // same line and severity
	no := false
	tests := []struct {
		name   string
		first  []protocol.Finding
		second []protocol.Finding
		off    bool
		stuck  bool
		mode   protocol.Mode
	}{
		{"the same finding", []protocol.Finding{offByOne}, []protocol.Finding{offByOne}, false, true, ""},
		{"the same text elsewhere, and a new minor one", []protocol.Finding{offByOne, leak}, []protocol.Finding{moved, naming}, false, true, ""},
		{"the same line and severity", []protocol.Finding{offByOne}, []protocol.Finding{relabelled}, false, true, ""},
		{"one new blocking finding", []protocol.Finding{offByOne}, []protocol.Finding{offByOne, leak}, false, false, ""},
		{"only minor findings repeat", []protocol.Finding{naming}, []protocol.Finding{naming}, false, false, ""},
		{"stop_on_repeat false", []protocol.Finding{offByOne}, []protocol.Finding{offByOne}, true, false, ""},
		{"rejected by a human", []protocol.Finding{offByOne}, []protocol.Finding{offByOne}, false, true, protocol.ModeManual},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := testAssignment(t)
			if tt.off {
				a.store.Config.StopOnRepeat = &no
			}
			decidedRound(t, a, "1", false, tt.mode, tt.first...)
			r := decidedRound(t, a, "2", false, tt.mode, tt.second...)
			stuck := r.Status == protocol.StatusBlocked && r.BlockedReason == protocol.BlockedStuck && r.Loops[r.Gate].Stuck
			if stuck != tt.stuck || !stuck && r.Status != protocol.StatusFailed {
				t.Fatalf("after round 2: status %s, reason %q, loop %+v; want stuck %v", r.Status, r.BlockedReason, r.Loops[r.Gate], tt.stuck)
			}
			if r.Loops[r.Gate].RoundsFailed != 2 {
				t.Errorf("rounds_failed = %d, want 2", r.Loops[r.Gate].RoundsFailed)
			}
		})
	}
}

// A stuck loop stays stuck through a cancel until a human unblocks it:
// the stuck rejection goes back to failed (its findings are the
// implementer's), a request made while stuck back to pending.
func TestStuckLiftedOnlyByUnblock(t *testing.T) {
	ctx := context.Background()
	a := testAssignment(t)
	loopRound(t, a, "1", false, offByOne)
	loopRound(t, a, "2", false, offByOne)
	if _, err := a.RequestReview(ctx, NewRequest{ChangedFiles: []string{"a.go"}}); !errors.Is(err, ErrBlocked) {
		t.Fatalf("a request while stuck: %v, want blocked", err)
	}
	if _, err := a.Cancel(ctx); err != nil {
		t.Fatal(err)
	}
	r, err := a.RequestReview(ctx, NewRequest{ChangedFiles: []string{"a.go"}})
	if !errors.Is(err, ErrBlocked) || r.BlockedReason != protocol.BlockedStuck || r.Round != 3 {
		t.Fatalf("a request after a cancel: %v (%+v), want blocked as stuck in round 3", err, r)
	}
	if r, err = a.Unblock(ctx, 1); err != nil || r.Status != protocol.StatusPending || r.Loops[r.Gate].Stuck || r.MaxRounds != 3 {
		t.Fatalf("unblock: %+v, %v; want pending round 3 of 3, no longer stuck", r, err)
	}

	b := testAssignment(t)
	loopRound(t, b, "1", false, offByOne)
	loopRound(t, b, "2", false, offByOne)
	r, err = b.Unblock(ctx, 2)
	if err != nil || r.Status != protocol.StatusFailed || r.BlockedReason != "" || r.MaxRounds != 4 {
		t.Fatalf("unblock of the stuck rejection: %+v, %v; want failed, at least 2 more rounds (4)", r, err)
	}
	if r = loopRound(t, b, "3", false, leak); r.Round != 3 || r.Status != protocol.StatusFailed {
		t.Fatalf("the next round: %d %s, want round 3 failed", r.Round, r.Status)
	}
}

// A pass is refused while a reviewed file's content differs from what
// it had when recorded (or, for a file not recorded this round, when
// requested), and nothing is written; recording it again lets it pass.
func TestPassRefusedWhenChangedUnderReview(t *testing.T) {
	ctx := context.Background()
	a := testAssignment(t)
	content := map[string]string{"a.go": fakeSum("1"), "b.go": fakeSum("1")}
	var asked []bool
	a.store.Digest = func(_ context.Context, r *protocol.Request, files []string) (map[string]string, error) {
		asked = append(asked, r.Staged)
		out := map[string]string{}
		for _, f := range files {
			out[f] = content[f]
		}
		return out, nil
	}
	in := NewRequest{ChangedFiles: []string{"a.go", "b.go"}, Coverage: Coverage{Staged: true, FileDigests: maps.Clone(content)}}
	if _, err := a.RequestReview(ctx, in); err != nil {
		t.Fatal(err)
	}
	c, err := a.Claim(ctx, ClaimOptions{Session: "rv-1"})
	if err != nil {
		t.Fatal(err)
	}
	h := Holder{"rv-1", c.Lease}
	record := func(file string) {
		t.Helper()
		if _, err := a.Record(ctx, h, FileRecord{File: file}); err != nil {
			t.Fatal(err)
		}
	}
	content["a.go"] = fakeSum("2") // changed after the request, before the record
	record("a.go")
	record("b.go")
	content["b.go"] = fakeSum("3")
	before := dirFiles(t, a.Dir)
	_, err = a.GiveVerdict(ctx, h, protocol.Verdict{Passed: true})
	if !errors.Is(err, protocol.ErrConflict) || !strings.Contains(err.Error(), "cannot pass: 1 file changed since recorded: b.go") {
		t.Fatalf("pass: %v, want a conflict naming b.go only", err)
	}
	after := dirFiles(t, a.Dir)
	delete(before, LockFile)
	delete(after, LockFile)
	if !maps.Equal(before, after) {
		t.Errorf("the refused pass changed files")
	}
	record("b.go")
	if snap, err := a.GiveVerdict(ctx, h, protocol.Verdict{Passed: true}); err != nil || snap.Request.Status != protocol.StatusPassed {
		t.Fatalf("pass after recording again: %v", err)
	}
	for i, staged := range asked {
		if !staged {
			t.Errorf("digest call %d read the work tree of a staged review", i)
		}
	}
}

// A failed pre-flight gate is no round: the loop's count stays, the next
// request opens the same round again even with nothing changed, and the
// session of the last real round stays the one remembered.
func TestPreflightFailureIsNoRound(t *testing.T) {
	first := testAssignment(t)
	failPreflight(t, first, 1)
	failPreflight(t, first, 1)
	a := testAssignment(t)
	loopRound(t, a, "1", false, offByOne)
	for range 2 {
		r := failPreflight(t, a, 2)
		if r.Status != protocol.StatusFailed || !r.PreflightFailed || r.Loops[r.Gate].RoundsFailed != 1 || r.ReviewerSessionID != "rv-1" {
			t.Fatalf("after the failed gate: status %s, preflight_failed %v, loop %+v, reviewer %q; want failed, true, 1 round, rv-1",
				r.Status, r.PreflightFailed, r.Loops[r.Gate], r.ReviewerSessionID)
		}
	}
}

// failPreflight requests a review of a.go, which must open round want,
// and has rv-2 claim it and fail its pre-flight gate.
func failPreflight(t *testing.T, a *Assignment, want int) *protocol.Request {
	t.Helper()
	ctx := context.Background()
	in := NewRequest{ChangedFiles: []string{"a.go"}, Coverage: Coverage{FileDigests: map[string]string{"a.go": fakeSum("2")}}}
	if r, err := a.RequestReview(ctx, in); err != nil || r.Round != want {
		t.Fatalf("request: %+v, %v; want round %d", r, err, want)
	}
	c, err := a.Claim(ctx, ClaimOptions{Session: "rv-2", Preflight: true})
	if err != nil {
		t.Fatal(err)
	}
	snap, err := a.PreflightDone(ctx, Holder{"rv-2", c.Lease}, protocol.PreflightResult{Command: []string{"gate"}, ExitCode: 1})
	if err != nil {
		t.Fatal(err)
	}
	return snap.Request
}
