package tests

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/specdev/specdev/checkpoint"
)

// orphanGate starts `sleep 300 &` and waits for it, as a test suite
// does. Run again (once child.pid exists), it notes in overlap.pid the
// first run's child if that still runs, and passes.
const orphanGate = `#!/bin/sh
if [ -e child.pid ]; then
	p=$(cat child.pid)
	if [ -e /proc/$p ] && ! grep -q ') Z ' /proc/$p/stat; then echo "$p" > overlap.pid; fi
	exit 0
fi
echo $$ > gate.pid
sleep 300 &
echo $! > child.pid
wait
`

// TestKilledCheckLeavesNoGate: kill -9 of specdev check while its gate
// runs leaves the gate's child alive in the gate's process group (the
// kernel kills only the gate's first process). The record of the group
// in the assignment folder lets the next claim end it before it runs
// the gate again: only one gate runs, and nothing is left.
func TestKilledCheckLeavesNoGate(t *testing.T) {
	root, a := gateProjectWith(t, orphanGate)
	check := startSpecdev(t, root, "check", "--session", "rv-1")
	gate := waitPid(t, filepath.Join(root, "gate.pid"))
	child := waitPid(t, filepath.Join(root, "child.pid"))
	// specdev records the gate's group once the gate has started, which
	// may be after the gate wrote its pid
	var record struct{ PGID int }
	var data []byte
	var err error
	for end := time.Now().Add(10 * time.Second); record.PGID != gate && time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if data, err = os.ReadFile(filepath.Join(a.Dir, checkpoint.GateRunFile)); err == nil {
			err = json.Unmarshal(data, &record)
		}
	}
	if record.PGID != gate {
		t.Fatalf("the running gate's record: %q (%v), want the group %d", data, err, gate)
	}
	if err := check.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	check.wait()
	if !alive(child) {
		t.Fatal("the gate's child died with specdev check: nothing was left to end")
	}

	out, stderr, code := runSpecdev(t, root, "check", "--session", "rv-1")
	if code != 0 || !strings.Contains(out, "Pre-flight: .specdev/verify-gates.sh passed") {
		t.Fatalf("the next claim: exit %d\n%s%s", code, out, stderr)
	}
	if overlap, err := os.ReadFile(filepath.Join(root, "overlap.pid")); err == nil {
		t.Errorf("the second gate ran while the first one's child %s still ran", strings.TrimSpace(string(overlap)))
	}
	if alive(child) {
		t.Errorf("the first gate's child (pid %d) outlived the next claim", child)
	}
	if _, err := os.Lstat(filepath.Join(a.Dir, checkpoint.GateRunFile)); err == nil {
		t.Error("the gate's record is left after the gate ended")
	}
}
