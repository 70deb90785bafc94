package tests

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/specdev/specdev/checkpoint"
	"github.com/specdev/specdev/protocol"
)

// slowGate is a pre-flight gate that records its pid and its child's,
// then waits long (unless the file fast exists), as a test suite would.
const slowGate = `#!/bin/sh
echo $$ > gate.pid
[ -e fast ] && exit 0
sleep 60 &
echo $! > child.pid
wait
`

// gateProject makes a project whose gate is slowGate, allowed to run
// here, with one pending request, and returns its root.
func gateProject(t *testing.T) (root string, a *checkpoint.Assignment) {
	return gateProjectWith(t, slowGate)
}

// gateProjectWith is gateProject with another gate script.
func gateProjectWith(t *testing.T, gate string) (root string, a *checkpoint.Assignment) {
	t.Helper()
	root, dir := newProject(t, "10s")
	writeTestFile(t, filepath.Join(dir, protocol.DefaultPreflightScript), gate, 0o755)
	if out, stderr, code := runSpecdev(t, root, "allow"); code != 0 {
		t.Fatalf("specdev allow: exit %d\n%s%s", code, out, stderr)
	}
	a = addAssignment(t, testStore(t, dir), "00001_gate", "a.go")
	return root, a
}

// TestSignalDuringPreflight: SIGTERM to specdev check while the gate runs
// kills the gate's whole process group, gives the review back (pending,
// its progress kept in the preflight phase, "released" logged with the
// reason) so that the next check runs the gate again, and exits 130 with
// one line saying so.
func TestSignalDuringPreflight(t *testing.T) {
	root, a := gateProject(t)
	check := startSpecdev(t, root, "check", "--session", "rv-1")
	gate := waitPid(t, filepath.Join(root, "gate.pid"))
	child := waitPid(t, filepath.Join(root, "child.pid"))
	if err := check.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code := check.wait(); code != 130 {
		t.Fatalf("specdev check exited %d after SIGTERM, want 130; stderr:\n%s", code, check.errText())
	}
	if got, want := check.errText(), "specdev: interrupted: the pre-flight gate was stopped and the review given back (pending); the next specdev check runs the gate again\n"; got != want {
		t.Errorf("stderr:\n%q\nwant\n%q", got, want)
	}
	for name, pid := range map[string]int{"gate": gate, "its child": child} {
		if alive(pid) {
			t.Errorf("the %s (pid %d) outlived specdev check", name, pid)
		}
	}
	snap, err := a.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	if snap.Request.Status != protocol.StatusPending || snap.Progress.Phase != protocol.PhasePreflight || snap.Progress.Preflight != nil {
		t.Errorf("after the interrupt: status %s, phase %s, preflight %v; want pending, preflight, none",
			snap.Request.Status, snap.Progress.Phase, snap.Progress.Preflight)
	}
	events, _, err := a.History()
	if err != nil || len(events) == 0 {
		t.Fatalf("history: %v", err)
	}
	if last := events[len(events)-1]; last.Event != protocol.EventReleased || last.Detail["reason"] != "interrupted" {
		t.Errorf("last event %s %v, want released with reason interrupted", last.Event, last.Detail)
	}
	// The next reviewer resumes it and the gate runs again.
	writeTestFile(t, filepath.Join(root, "fast"), "", 0o644)
	out, stderr, code := runSpecdev(t, root, "check", "--session", "rv-2")
	if code != 0 || !strings.Contains(out, "Pre-flight: .specdev/verify-gates.sh passed") {
		t.Errorf("the next check: exit %d\n%s%s", code, out, stderr)
	}
}

// TestSignalDuringWait: Ctrl+C while work --timeout waits prints one line
// and exits 130.
func TestSignalDuringWait(t *testing.T) {
	root, _ := gateProject(t)
	work := startSpecdev(t, root, "work", "--timeout", "10m")
	time.Sleep(300 * time.Millisecond) // let it start waiting
	if err := work.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	if code := work.wait(); code != 130 {
		t.Fatalf("specdev work exited %d after SIGINT, want 130; stderr:\n%s", code, work.errText())
	}
	if got := work.errText(); got != "specdev: interrupted: stopped by a signal\n" {
		t.Errorf("stderr %q, want exactly one line", got)
	}
	if out := work.output(); out != "" {
		t.Errorf("stdout %q, want nothing", out)
	}
}

// TestTakeoverStopsTheGate: a review taken over (--force) while its
// holder's gate runs stops that gate at once, and the holder exits 8
// saying who took it; the new holder's gate is the only one left.
func TestTakeoverStopsTheGate(t *testing.T) {
	root, _ := gateProject(t)
	check := startSpecdev(t, root, "check", "--session", "rv-1")
	gate := waitPid(t, filepath.Join(root, "gate.pid"))
	waitPid(t, filepath.Join(root, "child.pid"))
	writeTestFile(t, filepath.Join(root, "fast"), "", 0o644)
	out, stderr, code := runSpecdev(t, root, "check", "--session", "rv-2", "--force")
	if code != 0 {
		t.Fatalf("check --force: exit %d\n%s%s", code, out, stderr)
	}
	if code := check.wait(); code != 8 {
		t.Fatalf("the displaced check exited %d, want 8; stderr:\n%s", code, check.errText())
	}
	if msg := check.errText(); !strings.Contains(msg, "the pre-flight gate was stopped: session rv-1 no longer holds review 00001_gate: taken over by rv-2") {
		t.Errorf("stderr of the displaced check:\n%s", msg)
	}
	if alive(gate) {
		t.Errorf("the displaced holder's gate (pid %d) still runs", gate)
	}
}

// TestLeaseHeldDuringLongStep: while a step more than twice as long as
// stale_after runs under KeepAlive, the review never looks stale: another
// session's claim is refused as held by a live session, every time. (The
// heartbeat comes every stale_after/4: only a stall of three quarters of
// stale_after, 1.5s here, could fail it.)
func TestLeaseHeldDuringLongStep(t *testing.T) {
	_, dir := newProject(t, "10s")
	st := testStore(t, dir)
	st.Config.StaleAfter = protocol.Duration(2 * time.Second)
	a := addAssignment(t, st, "00001_lease", "a.go")
	c, err := a.Claim(context.Background(), checkpoint.ClaimOptions{Session: "rv-1"})
	if err != nil {
		t.Fatal(err)
	}
	h := checkpoint.Holder{Session: "rv-1", Lease: c.Lease}
	var tries int
	lost := a.KeepAlive(context.Background(), h, func(ctx context.Context) {
		for end := time.Now().Add(4500 * time.Millisecond); time.Now().Before(end); tries++ {
			time.Sleep(100 * time.Millisecond)
			_, err := a.Claim(context.Background(), checkpoint.ClaimOptions{Session: "rv-2"})
			var held *checkpoint.HeldError
			if !errors.As(err, &held) {
				t.Errorf("%s before the end of a step with stale_after 2s, another claim got %v, want held by a live session", time.Until(end), err)
				return
			}
		}
	})
	if lost != nil {
		t.Fatalf("KeepAlive: %v", lost)
	}
	if tries < 10 {
		t.Fatalf("only %d claims tried", tries)
	}
}

func startSpecdev(t *testing.T, root string, args ...string) *proc {
	t.Helper()
	cmd := exec.Command(specdevBin(), args...)
	cmd.Dir = root
	cmd.Env = withoutSpecdevVars(os.Environ())
	return startProc(t, cmd)
}

// waitPid waits for a pid file to be written and returns the pid.
func waitPid(t *testing.T, path string) int {
	t.Helper()
	for end := time.Now().Add(20 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		data, err := os.ReadFile(path)
		if pid, perr := strconv.Atoi(string(bytes.TrimSpace(data))); err == nil && perr == nil {
			return pid
		}
	}
	t.Fatalf("%s was not written", path)
	return 0
}

// alive reports whether pid runs (a zombie waiting to be reaped does not).
func alive(pid int) bool {
	for end := time.Now().Add(3 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil || strings.Contains(string(stat), ") Z ") {
			return false
		}
	}
	return true
}

func writeTestFile(t *testing.T, path, content string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
}
