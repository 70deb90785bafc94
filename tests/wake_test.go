package tests

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// awaitExit waits for a waiting command that should return long before
// its own --timeout (60s): it must have woken on the event, not run out.
func awaitExit(t *testing.T, p *proc, why string) int {
	t.Helper()
	exited := make(chan int, 1)
	go func() { exited <- p.wait() }()
	select {
	case code := <-exited:
		return code
	case <-time.After(30 * time.Second):
		t.Fatalf("%s: still waiting 30s later (its --timeout is 60s)", why)
		return -1
	}
}

// TestWorkWakesOnManualPause: a manual-mode implementer waiting with
// work --timeout returns as soon as the reviewer's rejection pauses it for
// a human (exit 6), and a wait started after the pause returns at once.
func TestWorkWakesOnManualPause(t *testing.T) {
	root, _ := newProject(t, "10s")
	must := func(want int, args ...string) string {
		t.Helper()
		out, stderr, code := runSpecdev(t, root, args...)
		if code != want {
			t.Fatalf("specdev %v: exit %d, want %d\n%s%s", args, code, want, out, stderr)
		}
		return out
	}
	if err := os.Mkdir(filepath.Join(root, ".specdev", "assignments", "00001_login"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeTestFile(t, filepath.Join(root, "a.go"), "package a\n", 0o644)
	must(0, "work", "request", "--files", "a.go", "--mode", "manual")
	work := startSpecdev(t, root, "work", "--timeout", "60s")
	time.Sleep(200 * time.Millisecond)
	must(0, "check", "--session", "rv-1")
	lease := leaseOf(t, root, "00001_login")
	must(0, "check", "verdict", "fail", "--summary", "throttle resets", "--session", "rv-1", "--lease", lease)
	if code := awaitExit(t, work, "work --timeout after the rejection"); code != 6 {
		t.Fatalf("work --timeout exited %d, want 6 (paused for a human)\n%s", code, work.output())
	}
	if out := work.output(); !strings.Contains(out, "Paused for a human (manual mode)") {
		t.Errorf("work output:\n%s", out)
	}
	again := startSpecdev(t, root, "work", "--timeout", "60s")
	if code := awaitExit(t, again, "work --timeout started after the pause"); code != 6 {
		t.Fatalf("exit %d, want 6", code)
	}
	if out := must(0, "status"); !strings.Contains(out, "paused for a human") {
		t.Errorf("status does not say paused:\n%s", out)
	}
}

// TestWorkSaysWhenTheFolderIsGone: an assignment folder removed while
// work --timeout waits on it is reported (exit 8), not taken for "no
// review requested yet".
func TestWorkSaysWhenTheFolderIsGone(t *testing.T) {
	root, dir := newProject(t, "10s")
	addAssignment(t, testStore(t, dir), "00001_gone", "a.go")
	work := startSpecdev(t, root, "work", "--timeout", "60s")
	time.Sleep(200 * time.Millisecond)
	// The folder goes at once (a rename out of the store), as RemoveAll,
	// which deletes the files first, would let work see a folder without
	// its request and rightly say that.
	if err := os.Rename(filepath.Join(dir, "assignments", "00001_gone"), filepath.Join(t.TempDir(), "gone")); err != nil {
		t.Fatal(err)
	}
	if code := awaitExit(t, work, "work --timeout after the folder was removed"); code != 8 {
		t.Fatalf("exit %d, want 8\n%s%s", code, work.output(), work.errText())
	}
	if msg := work.errText(); !strings.Contains(msg, "the assignment folder .specdev/assignments/00001_gone is gone") {
		t.Errorf("stderr: %s", msg)
	}
}

// leaseOf reads the lease of an assignment's review from its progress.
func leaseOf(t *testing.T, root, assignment string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, ".specdev", "assignments", assignment, "review_progress.json"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, _ := strings.Cut(string(data), `"lease": "`)
	lease, _, _ := strings.Cut(rest, `"`)
	return lease
}

// TestWorkSaysWhenTheRequestIsGone: a review_request.json deleted while
// work --timeout waits on it is reported (exit 8), not taken for "no
// review requested yet".
func TestWorkSaysWhenTheRequestIsGone(t *testing.T) {
	root, dir := newProject(t, "10s")
	addAssignment(t, testStore(t, dir), "00001_gone", "a.go")
	work := startSpecdev(t, root, "work", "--timeout", "60s")
	time.Sleep(200 * time.Millisecond)
	if err := os.Remove(filepath.Join(dir, "assignments", "00001_gone", "review_request.json")); err != nil {
		t.Fatal(err)
	}
	if code := awaitExit(t, work, "work --timeout after the request was removed"); code != 8 {
		t.Fatalf("exit %d, want 8\n%s%s", code, work.output(), work.errText())
	}
	if msg := work.errText(); !strings.Contains(msg, ".specdev/assignments/00001_gone/review_request.json is gone: it was removed while waiting") {
		t.Errorf("stderr: %s", msg)
	}
}
