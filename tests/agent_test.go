package tests

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/specdev/specdev/protocol"
)

// TestAgentsInParallel: specdev check --agent claude --parallel 4 over 8
// waiting reviews runs a fake agent on each, every review claimed once
// and passed once, and never more than 4 agents at once (at least 2, or
// it did not run them side by side).
func TestAgentsInParallel(t *testing.T) {
	t.Parallel()
	root, dir := newProject(t, "10s")
	st := testStore(t, dir)
	var names []string
	for i := 1; i <= 8; i++ {
		name := fmt.Sprintf("%05d_loop", i)
		addAssignment(t, st, name, "a.go", "b.go")
		names = append(names, name)
	}
	for _, f := range []string{"a.go", "b.go"} {
		if err := os.WriteFile(filepath.Join(root, f), []byte("package a\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fake := t.TempDir()
	if err := os.WriteFile(filepath.Join(fake, "script"), []byte("pass delay=300ms\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(specdevBin(), "check", "--agent", "claude", "--parallel", "4")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "PATH="+binDir+string(os.PathListSeparator)+os.Getenv("PATH"), "FAKE_AGENT_DIR="+fake)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("specdev check --agent claude --parallel 4: %v\n%s", err, out)
	}
	for _, name := range names {
		checkPassedOnce(t, st, name)
		if !strings.Contains(string(out), name+", round 1, by claude: verdict given, the review is passed.") {
			t.Errorf("the output does not report %s passed:\n%s", name, out)
		}
	}
	spans := readSpans(t, filepath.Join(fake, "spans"))
	if len(spans) != 8 {
		t.Fatalf("%d agent runs, want 8", len(spans))
	}
	if most := mostAtOnce(spans); most > 4 || most < 2 {
		t.Errorf("at most %d agents ran at once, want 2 to 4", most)
	}
}

// TestSignalDuringAgent: SIGTERM to specdev check --agent kills the
// agent's whole process group (the child it started too), gives the
// review back with its progress and reason "interrupted", and exits 130.
func TestSignalDuringAgent(t *testing.T) {
	t.Parallel()
	root, dir := newProject(t, "10s")
	a := addAssignment(t, testStore(t, dir), "00001_login", "a.go", "b.go")
	writeTestFile(t, filepath.Join(root, "a.go"), "package a\n", 0o644)
	writeTestFile(t, filepath.Join(root, "b.go"), "package a\n", 0o644)
	fake := t.TempDir()
	writeTestFile(t, filepath.Join(fake, "script"), "hang 1\n", 0o644)
	cmd := exec.Command(specdevBin(), "check", "--agent", "claude")
	cmd.Dir = root
	cmd.Env = append(withoutSpecdevVars(os.Environ()), "PATH="+binDir+string(os.PathListSeparator)+os.Getenv("PATH"), "FAKE_AGENT_DIR="+fake)
	check := startProc(t, cmd)
	child := waitPid(t, filepath.Join(fake, "hang.pid"))
	if err := check.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code := check.wait(); code != 130 {
		t.Fatalf("specdev check --agent exited %d after SIGTERM, want 130; stderr:\n%s", code, check.errText())
	}
	if alive(child) {
		t.Errorf("the agent's child (pid %d) outlived specdev check --agent", child)
	}
	snap, err := a.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	if snap.Request.Status != protocol.StatusPending || len(snap.Progress.FilesReviewed) != 1 {
		t.Errorf("after the interrupt: status %s, reviewed %v; want pending with one file kept", snap.Request.Status, snap.Progress.FilesReviewed)
	}
	events, _, err := a.History()
	if err != nil {
		t.Fatal(err)
	}
	var released, ran bool
	for _, e := range events {
		released = released || e.Event == protocol.EventReleased && e.Detail["reason"] == "interrupted"
		ran = ran || e.Event == protocol.EventAgentRun && e.Detail["outcome"] == "stopped"
	}
	if !released || !ran {
		t.Errorf("history lacks released (interrupted) %v or agent_run (stopped) %v: %+v", released, ran, events)
	}
}

// readSpans reads the fake agent's "start end" lines.
func readSpans(t *testing.T, path string) [][2]int64 {
	t.Helper()
	var spans [][2]int64
	for _, line := range strings.Split(strings.TrimSpace(string(readFile(t, path))), "\n") {
		f := strings.Fields(line)
		start, err1 := strconv.ParseInt(f[0], 10, 64)
		end, err2 := strconv.ParseInt(f[1], 10, 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("spans: bad line %q", line)
		}
		spans = append(spans, [2]int64{start, end})
	}
	return spans
}

// mostAtOnce is the largest number of spans that overlap.
func mostAtOnce(spans [][2]int64) int {
	type edge struct {
		at    int64
		delta int
	}
	var edges []edge
	for _, s := range spans {
		edges = append(edges, edge{s[0], 1}, edge{s[1], -1})
	}
	sort.Slice(edges, func(i, j int) bool {
		return edges[i].at < edges[j].at || edges[i].at == edges[j].at && edges[i].delta < edges[j].delta
	})
	n, most := 0, 0
	for _, e := range edges {
		n += e.delta
		most = max(most, n)
	}
	return most
}
