package tests

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/specdev/specdev/internal/gitremote"
	"github.com/specdev/specdev/protocol"
)

// TestRemoteLoopAcrossMachines: a whole review loop between two clones
// that share nothing but a remote served by git daemon. The reviewer's
// waiting poll wakes on the implementer's request, which it has no folder
// for yet; the implementer's wait wakes on the verdict; a failed round,
// the fix, the follow-up round and the pass go through the remote, and
// the gate opens by what the remote holds. Afterwards both machines have
// the same report and history.
func TestRemoteLoopAcrossMachines(t *testing.T) {
	m := twoMachines(t, true, configJSON(`"remote_poll": "300ms"`))
	a, b := m.a, m.b
	writeFiles(t, a, map[string]string{"login.go": "package login\n"})
	gitIn(t, a, "add", "-A")
	gitIn(t, a, "commit", "-q", "-m", "login")
	if err := os.MkdirAll(filepath.Join(a, ".specdev", "assignments", "00001_login"), 0o755); err != nil {
		t.Fatal(err)
	}

	waiting := startSpecdev(t, b, "--json", "check", "--session", "rv-b", "--timeout", "60s")
	time.Sleep(500 * time.Millisecond) // the poll is waiting
	want(t, a, 0, []string{"Review requested: 00001_login"}, "work", "request", "--notes", "throttle logins")
	if code := waiting.wait(); code != 0 {
		t.Fatalf("the waiting check exited %d: %s %s", code, waiting.output(), waiting.errText())
	}
	var r reply
	if err := json.Unmarshal([]byte(waiting.output()), &r); err != nil || r.Data.Assignment != "00001_login" || r.Data.Kind != "new" {
		t.Fatalf("the waiting check: %v, %+v", err, r)
	}
	lease := r.Data.Lease

	verdict := startSpecdev(t, a, "work", "--timeout", "60s")
	want(t, b, 0, []string{"Recorded login.go: 1 finding"}, asReviewer("rv-b", lease, "check", "record", "login.go", "--finding", "important: no limit on attempts")...)
	want(t, b, 0, []string{"Verdict: FAILED"}, asReviewer("rv-b", lease, "check", "verdict", "fail", "--summary", "add the limit")...)
	if code := verdict.wait(); code != 4 || !strings.Contains(verdict.output(), "no limit on attempts") {
		t.Fatalf("the waiting work: exit %d, want 4 with the finding:\n%s\n%s", code, verdict.output(), verdict.errText())
	}

	writeFiles(t, a, map[string]string{"login.go": "package login\n\nconst maxAttempts = 5\n"})
	gitIn(t, a, "commit", "-q", "-am", "limit attempts")
	want(t, a, 0, []string{"round 2 of 3"}, "work", "request")
	_, lease = claimIn(t, b, "rv-b")
	want(t, b, 0, nil, asReviewer("rv-b", lease, "check", "record", "login.go", "--resolved", "1")...)
	want(t, b, 0, []string{"Verdict: PASSED"}, asReviewer("rv-b", lease, "check", "verdict", "pass", "--summary", "limited")...)

	want(t, a, 0, []string{"Review passed: 00001_login, round 2 of 3"}, "work")
	want(t, a, 0, []string{"Gate review open"}, "gate", "--remote", "origin")
	want(t, a, 0, []string{"00001_login  -      passed  2 of 3"}, "status", "--remote")

	report := stateFile(t, a, "00001_login", "review_report.md")
	for _, text := range []string{"Status: PASSED", "Round 1 (failed)", "no limit on attempts", "limited"} {
		if !strings.Contains(report, text) {
			t.Errorf("the report lacks %q:\n%s", text, report)
		}
	}
	for _, file := range []string{"review_report.md", "review_history.jsonl", "review_request.json", "review_progress.json", ".specdev.remote"} {
		if got, wantText := stateFile(t, b, "00001_login", file), stateFile(t, a, "00001_login", file); got != wantText {
			t.Errorf("%s differs between the machines:\n%s\n---\n%s", file, got, wantText)
		}
	}
	if id := strings.TrimSpace(stateFile(t, a, "00001_login", ".specdev.remote")); id != remoteID(t, a, "00001_login") {
		t.Errorf(".specdev.remote holds %s, the remote %s", id, remoteID(t, a, "00001_login"))
	}
	var events []string
	for line := range strings.Lines(stateFile(t, b, "00001_login", "review_history.jsonl")) {
		var e protocol.Event
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatal(err)
		}
		events = append(events, string(e.Event))
	}
	wantEvents := "requested claimed file_reviewed failed requested"
	if got := strings.Join(events, " "); !strings.HasPrefix(got, wantEvents) || !strings.HasSuffix(got, "claimed file_reviewed passed") {
		t.Errorf("history: %s; want %s … claimed file_reviewed passed", got, wantEvents)
	}
}

// TestRemoteReviewersRace: 16 reviewers, 8 on each machine, drain 100
// requests through one remote served by git daemon. Each review is
// claimed exactly once, and no recorded file is lost: every review passes
// with one claim, one pass and one file_reviewed event per file.
func TestRemoteReviewersRace(t *testing.T) {
	const reviewers, requests = 16, 100
	m := twoMachines(t, true, configJSON(`"lock_timeout": "60s"`))
	st := testStore(t, filepath.Join(m.a, ".specdev"))
	st.Remote = gitremote.New(m.a, "origin") // as specdev work request does it, without collecting a change
	names := make([]string, requests)
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := w; i < requests; i += 4 {
				names[i] = addAssignment(t, st, fmt.Sprintf("%05d_race", i+1), fmt.Sprintf("src/f%03d.go", i)).Name
			}
		})
	}
	wg.Wait()

	start := time.Now()
	claimed := make([][]string, reviewers)
	for i := range reviewers {
		root := []string{m.a, m.b}[i%2]
		wg.Go(func() {
			for { // a poll that found every pending review locked for a moment ends a drain early
				got := drainAs(t, root, fmt.Sprintf("rv-%d", i))
				if len(got) == 0 {
					return
				}
				claimed[i] = append(claimed[i], got...)
			}
		})
	}
	wg.Wait()
	t.Logf("%d reviewers on two machines drained %d requests in %v; claims per reviewer: %v", reviewers, requests, time.Since(start).Round(time.Millisecond), lens(claimed))

	all := slices.Concat(claimed...)
	slices.Sort(all)
	if !slices.Equal(all, names) {
		t.Errorf("the sessions claimed %d reviews (%d distinct), want each of the %d exactly once", len(all), len(slices.Compact(slices.Clone(all))), requests)
	}
	want(t, m.a, 3, nil, "check", "--session", "rv-last") // copies every final state here
	st.Remote = nil
	for _, name := range names {
		checkPassedOnce(t, st, name)
	}
}
