package tests

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/specdev/specdev/checkpoint"
	"github.com/specdev/specdev/protocol"
)

// TestConcurrentUpdates: 8 processes doing 50 locked read-modify-writes
// each lose no update: the counter ends at exactly 400, and the history
// holds the 400 events in counter order, each a whole line.
func TestConcurrentUpdates(t *testing.T) {
	const procs, each = 8, 50
	_, dir := newProject(t, "60s")
	st := testStore(t, dir)
	a := addAssignment(t, st, "00001_counter", "src/counter.go")

	workers := make([]*proc, procs)
	for i := range workers {
		workers[i] = startWorker(t, "count", dir, a.Name, strconv.Itoa(each), fmt.Sprintf("w%d", i))
	}
	for i, w := range workers {
		if code := w.wait(); code != 0 {
			t.Fatalf("worker %d exited with %d: %s", i, code, w.errText())
		}
	}

	snap, err := a.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	if got, err := counterOf(snap.Request.Extra); err != nil || got != procs*each {
		t.Errorf("counter in %s = %d (%v), want %d", protocol.RequestFile, got, err, procs*each)
	}
	raw := readFile(t, filepath.Join(a.Dir, protocol.HistoryFile))
	if got, want := countLines(raw), 1+procs*each; got != want || raw[len(raw)-1] != '\n' {
		t.Errorf("%s has %d newline-terminated lines (ends with %q), want %d", protocol.HistoryFile, got, raw[len(raw)-1], want)
	}
	events, torn, err := a.History()
	if err != nil || torn {
		t.Fatalf("History() torn=%v err=%v", torn, err)
	}
	if len(events) != 1+procs*each || events[0].Event != protocol.EventRequested {
		t.Fatalf("history: %d events starting with %q, want %d starting with requested", len(events), events[0].Event, 1+procs*each)
	}
	perWorker := map[string]int{}
	for i, e := range events[1:] {
		if got := eventCounter(e); got != i+1 {
			t.Fatalf("history event %d has counter %d, want %d (updates overlapped or were lost)", i+2, got, i+1)
		}
		perWorker[e.Session]++
	}
	for i := range procs {
		if got := perWorker[fmt.Sprintf("w%d", i)]; got != each {
			t.Errorf("worker w%d logged %d events, want %d", i, got, each)
		}
	}
}

// TestClaimRaceProcesses: two processes claim the same pending request at
// the same moment, 25 times over. Each time exactly one wins, the other is
// told the review is held (busy) or no longer pending (conflict), and the
// history has exactly one "claimed" event, by the winner.
func TestClaimRaceProcesses(t *testing.T) {
	const rounds = 25
	_, dir := newProject(t, "60s")
	st := testStore(t, dir)
	sessions := []string{"rv-a", "rv-b"}
	claimers := make([]*proc, len(sessions))
	for i, s := range sessions {
		claimers[i] = startWorker(t, "claim", dir, s)
	}
	for i, c := range claimers {
		if line, ok := c.next(); line != "ready" {
			t.Fatalf("claimer %s said %q (running %v), want ready: %s", sessions[i], line, ok, c.output()+"\n"+c.errText())
		}
	}
	wins := map[string]int{}
	for round := range rounds {
		a := addAssignment(t, st, fmt.Sprintf("%05d_race", round+1), "src/race.go")
		for _, c := range claimers {
			c.send(a.Name) // both are blocked reading: they claim at once
		}
		winner := ""
		for i, c := range claimers {
			line, ok := c.next()
			if !ok {
				t.Fatalf("claimer %s exited: %s", sessions[i], c.errText())
			}
			switch {
			case line == "won "+a.Name:
				if winner != "" {
					t.Errorf("%s: both %s and %s won the claim", a.Name, winner, sessions[i])
				}
				winner = sessions[i]
			case strings.HasPrefix(line, "lost "+a.Name+" busy:"), strings.HasPrefix(line, "lost "+a.Name+" conflict:"):
			default:
				t.Errorf("%s: claimer %s said %q, want won, or lost as busy or conflict", a.Name, sessions[i], line)
			}
		}
		if winner == "" {
			t.Fatalf("%s: nobody won the claim", a.Name)
		}
		wins[winner]++
		checkClaimedOnce(t, a, winner)
	}
	for i, c := range claimers {
		c.closeStdin()
		if code := c.wait(); code != 0 {
			t.Errorf("claimer %s exited with %d: %s", sessions[i], code, c.errText())
		}
	}
	t.Logf("wins: %v", wins)
}

// checkClaimedOnce asserts the review is in progress, held by session,
// with exactly one "claimed" event in its history, by session.
func checkClaimedOnce(t *testing.T, a *checkpoint.Assignment, session string) {
	t.Helper()
	snap, err := a.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	if snap.Request.Status != protocol.StatusInProgress || snap.Progress == nil || snap.Progress.SessionID != session {
		t.Errorf("%s: status %s held by %+v, want in_progress held by %s", a.Name, snap.Request.Status, snap.Progress, session)
	}
	events, _, err := a.History()
	if err != nil {
		t.Fatal(err)
	}
	var claims []string
	for _, e := range events {
		if e.Event == protocol.EventClaimed {
			claims = append(claims, e.Session)
		}
	}
	if len(claims) != 1 || claims[0] != session {
		t.Errorf("%s: claimed events by %v, want exactly one by %s", a.Name, claims, session)
	}
}

// TestLockBusyThenFreedByKill: while another process holds an assignment's
// lock, an update gives up after lock_timeout with a *BusyError naming
// that process; once the holder is killed -9, its lock is free again.
func TestLockBusyThenFreedByKill(t *testing.T) {
	_, dir := newProject(t, "60s")
	st := testStore(t, dir)
	a := addAssignment(t, st, "00001_locked", "src/a.go")
	holder := startWorker(t, "hold", dir, a.Name)
	if line, _ := holder.next(); line != "locked" {
		t.Fatalf("holder said %q, want locked: %s", line, holder.errText())
	}

	ctx := context.Background()
	st.Config.LockTimeout = protocol.Duration(50 * time.Millisecond)
	err := a.Update(ctx, func(*checkpoint.Tx) error {
		t.Error("the update ran while another process held the lock")
		return nil
	})
	var busy *checkpoint.BusyError
	if !errors.As(err, &busy) || !errors.Is(err, checkpoint.ErrBusy) {
		t.Fatalf("Update while locked = %v (%T), want a *checkpoint.BusyError", err, err)
	}
	wantHolder := fmt.Sprintf("pid %d (test worker hold %s)", holder.cmd.Process.Pid, a.Name)
	if busy.Assignment != a.Name || !strings.HasPrefix(busy.Holder, wantHolder) || !strings.Contains(err.Error(), wantHolder) {
		t.Errorf("BusyError = %+v (%q), want assignment %s and holder %q…", busy, err, a.Name, wantHolder)
	}

	holder.kill()
	if code := holder.wait(); code != -1 {
		t.Fatalf("holder exited with %d, want killed: %s", code, holder.errText())
	}
	st.Config.LockTimeout = protocol.Duration(60 * time.Second)
	ran := false
	if err := a.Update(ctx, func(*checkpoint.Tx) error { ran = true; return nil }); err != nil || !ran {
		t.Fatalf("Update after the holder died: ran=%v err=%v, want it to run", ran, err)
	}
	if _, err := os.Stat(filepath.Join(a.Dir, checkpoint.LockFile)); err != nil {
		t.Errorf("lock file: %v, want it kept", err)
	}
}
