package tests

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/specdev/specdev/checkpoint"
	"github.com/specdev/specdev/protocol"
	"github.com/specdev/specdev/report"
)

// crashStats counts what the kills left behind, to show the test hit the
// windows it is about.
type crashStats struct {
	temps, torn, unacked, split, staleReport int
}

// TestCrashKill9MidUpdate kills a writer with SIGKILL at a random moment,
// 100 times, and checks after each kill that the state files decode with
// full validation, that no acknowledged update was lost, that the history
// reads, and that the next update repairs what the kill left (temp files,
// a torn history line) and renders a report that matches the files.
func TestCrashKill9MidUpdate(t *testing.T) {
	const runs = 100
	_, dir := newProject(t, "60s")
	st := testStore(t, dir)
	a := addAssignment(t, st, "00001_crash", "src/a.go", "src/b.go", "src/c.go")
	if _, err := a.Claim(context.Background(), checkpoint.ClaimOptions{Session: "rv-crash"}); err != nil {
		t.Fatal(err)
	}
	var stats crashStats
	for run := range runs {
		// Each run starts with a fresh history, so reading it stays cheap.
		if err := os.Remove(filepath.Join(a.Dir, protocol.HistoryFile)); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		ack := killMidUpdate(t, run, dir, a)
		checkAfterKill(t, run, a, ack, &stats)
		checkRepair(t, run, a)
		if t.Failed() {
			break
		}
	}
	t.Logf("%d kills: temp files left %d times, torn history %d, unacknowledged update on disk %d, request and progress from different updates %d, report behind %d",
		runs, stats.temps, stats.torn, stats.unacked, stats.split, stats.staleReport)
}

// killMidUpdate starts a writer, kills it 0-30 ms after its first ack, and
// returns the last update it acknowledged.
func killMidUpdate(t *testing.T, run int, dir string, a *checkpoint.Assignment) int {
	t.Helper()
	w := startWorker(t, "crashloop", dir, a.Name, "rv-crash")
	first, ok := w.next()
	if !ok {
		t.Fatalf("run %d: writer exited before its first ack (code %d): %s", run, w.wait(), w.errText())
	}
	time.Sleep(time.Duration(rand.IntN(31)) * time.Millisecond)
	w.kill()
	lines := append([]string{first}, w.rest()...)
	if code := w.wait(); code != -1 {
		t.Fatalf("run %d: writer exited with %d before the kill: %s", run, code, w.errText())
	}
	last := lines[len(lines)-1]
	n, err := strconv.Atoi(strings.TrimPrefix(last, "ack "))
	if err != nil || !strings.HasPrefix(last, "ack ") {
		t.Fatalf("run %d: last line of the writer %q, want ack N", run, last)
	}
	return n
}

// checkAfterKill: every state file is whole and valid, and holds the last
// acknowledged update or the one after it (done but not yet acknowledged).
func checkAfterKill(t *testing.T, run int, a *checkpoint.Assignment, ack int, stats *crashStats) {
	t.Helper()
	req, prog := decodeState(t, run, a)
	rc, err := counterOf(req.Extra)
	if err != nil {
		t.Errorf("run %d: %s: %v", run, protocol.RequestFile, err)
	}
	pc, err := counterOf(prog.Extra)
	if err != nil {
		t.Errorf("run %d: %s: %v", run, protocol.ProgressFile, err)
	}
	for _, c := range []struct {
		file string
		n    int
	}{{protocol.RequestFile, rc}, {protocol.ProgressFile, pc}} {
		if c.n < ack || c.n > ack+1 {
			t.Errorf("run %d: %s holds update %d, last acknowledged %d: want %d or %d", run, c.file, c.n, ack, ack, ack+1)
		}
	}
	if rc != pc {
		stats.split++
	}
	if rc > ack {
		stats.unacked++
	}
	if len(tempFiles(t, a.Dir)) > 0 {
		stats.temps++
	}
	if !bytes.Equal(checkpoint.ReportBody(readFile(t, filepath.Join(a.Dir, checkpoint.ReportFile))), report.Render(req, prog)) {
		stats.staleReport++
	}
	events, torn, err := a.History()
	if err != nil {
		t.Errorf("run %d: History() after the kill: %v", run, err)
		return
	}
	if torn {
		stats.torn++
	}
	last := -1
	for _, e := range events {
		if c := eventCounter(e); c >= 0 {
			if c <= last {
				t.Errorf("run %d: history counter %d after %d: an update was counted twice", run, c, last)
			}
			last = c
		}
	}
	if last < ack || last > ack+1 {
		t.Errorf("run %d: last history event has counter %d, last acknowledged %d: want %d or %d", run, last, ack, ack, ack+1)
	}
}

// checkRepair: the next update leaves no temp files, a history ending in a
// newline whose last event is this update, and a report rendered from the
// files as they are.
func checkRepair(t *testing.T, run int, a *checkpoint.Assignment) {
	t.Helper()
	var n int
	err := a.Update(context.Background(), func(tx *checkpoint.Tx) error {
		var err error
		if n, err = bump(tx, "repair"); err != nil {
			return err
		}
		return grow(tx, n)
	})
	if err != nil {
		t.Fatalf("run %d: the update after the kill: %v", run, err)
	}
	if temps := tempFiles(t, a.Dir); len(temps) > 0 {
		t.Errorf("run %d: temp files left after the repairing update: %v", run, temps)
	}
	raw := readFile(t, filepath.Join(a.Dir, protocol.HistoryFile))
	if len(raw) == 0 || raw[len(raw)-1] != '\n' {
		t.Errorf("run %d: %s does not end with a newline after the repairing update", run, protocol.HistoryFile)
	}
	events, torn, err := a.History()
	if err != nil || torn || len(events) == 0 || eventCounter(events[len(events)-1]) != n {
		t.Errorf("run %d: history after the repair: %d events, torn=%v, err=%v; want the last to count %d", run, len(events), torn, err, n)
	}
	req, prog := decodeState(t, run, a)
	rc, _ := counterOf(req.Extra)
	pc, _ := counterOf(prog.Extra)
	if rc != n || pc != n {
		t.Errorf("run %d: after the repairing update %d the request holds %d and the progress %d", run, n, rc, pc)
	}
	if got, want := checkpoint.ReportBody(readFile(t, filepath.Join(a.Dir, checkpoint.ReportFile))), report.Render(req, prog); !bytes.Equal(got, want) {
		t.Errorf("run %d: %s does not match the state files:\n%s", run, checkpoint.ReportFile, firstDiff(got, want))
	}
}

// decodeState decodes the request and progress with full validation.
func decodeState(t *testing.T, run int, a *checkpoint.Assignment) (*protocol.Request, *protocol.Progress) {
	t.Helper()
	req, err := protocol.DecodeRequest(protocol.RequestFile, readFile(t, filepath.Join(a.Dir, protocol.RequestFile)))
	if err != nil {
		t.Fatalf("run %d: %v", run, err)
	}
	prog, err := protocol.DecodeProgress(protocol.ProgressFile, readFile(t, filepath.Join(a.Dir, protocol.ProgressFile)))
	if err != nil {
		t.Fatalf("run %d: %v", run, err)
	}
	return req, prog
}

// firstDiff shows the first line where got and want differ.
func firstDiff(got, want []byte) string {
	g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := range max(len(g), len(w)) {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return fmt.Sprintf("line %d:\n got: %q\nwant: %q", i+1, gl, wl)
		}
	}
	return "(same lines)"
}
