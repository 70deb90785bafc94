package tests

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gofrs/flock"

	"github.com/specdev/specdev/checkpoint"
)

// Workers of the lock tests (see worker_test.go).
func init() {
	// holdbump NAME WHO: one counted update that, once counted, prints
	// "locked" and keeps the lock until stdin closes, then commits.
	workers["holdbump"] = worker{2, func(ctx context.Context, st *checkpoint.Store, args []string) error {
		a, err := st.Assignment(args[0])
		if err != nil {
			return err
		}
		return a.Update(ctx, func(tx *checkpoint.Tx) error {
			if _, err := bump(tx, args[1]); err != nil {
				return err
			}
			fmt.Println("locked")
			_, err := io.Copy(io.Discard, os.Stdin)
			return err
		})
	}}
	// flocknames NAME,NAME…: flock the lock files of the assignments as a
	// process other than specdev would (no holder line), print "locked",
	// and keep them until stdin closes.
	workers["flocknames"] = worker{1, func(ctx context.Context, st *checkpoint.Store, args []string) error {
		for _, name := range strings.Split(args[0], ",") {
			fl := flock.New(filepath.Join(st.Dir, checkpoint.AssignmentsDir, name, checkpoint.LockFile))
			if ok, err := fl.TryLock(); !ok {
				return fmt.Errorf("lock %s: %v", name, err)
			}
		}
		fmt.Println("locked")
		_, err := io.Copy(io.Discard, os.Stdin)
		return err
	}}
}

// TestLockFileDeletedWhileHeld: a writer holds an assignment's lock while
// its lock file is deleted (git clean -x). A second writer, which finds no
// lock file and creates a new one, must not get in until the first has
// committed: both updates land, in order, and none is lost.
func TestLockFileDeletedWhileHeld(t *testing.T) {
	_, dir := newProject(t, "60s")
	st := testStore(t, dir)
	a := addAssignment(t, st, "00001_deleted", "src/a.go")
	first := startWorker(t, "holdbump", dir, a.Name, "w1")
	if line, _ := first.next(); line != "locked" {
		t.Fatalf("first writer said %q, want locked: %s", line, first.errText())
	}
	if err := os.Remove(filepath.Join(a.Dir, checkpoint.LockFile)); err != nil {
		t.Fatal(err)
	}

	second := startWorker(t, "count", dir, a.Name, "1", "w2")
	secondDone := make(chan int, 1)
	go func() { secondDone <- second.wait() }()
	select {
	case code := <-secondDone:
		t.Fatalf("the second writer finished (exit %d: %s) while the first still held the lock", code, second.errText())
	case <-time.After(500 * time.Millisecond): // every chance to get in wrongly
	}
	first.closeStdin()
	if code := first.wait(); code != 0 {
		t.Fatalf("first writer exited with %d: %s", code, first.errText())
	}
	if code := <-secondDone; code != 0 {
		t.Fatalf("second writer exited with %d: %s", code, second.errText())
	}

	snap, err := a.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	if got, err := counterOf(snap.Request.Extra); err != nil || got != 2 {
		t.Errorf("counter = %d (%v), want 2: an acknowledged update was lost", got, err)
	}
	events, _, err := a.History()
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, e := range events[1:] {
		order = append(order, fmt.Sprintf("%s:%d", e.Session, eventCounter(e)))
	}
	if got := strings.Join(order, " "); got != "w1:1 w2:2" {
		t.Errorf("history after the request = %q, want %q", got, "w1:1 w2:2")
	}
	if _, err := os.Lstat(filepath.Join(a.Dir, checkpoint.LockFile)); err != nil {
		t.Errorf("lock file: %v, want it recreated", err)
	}
}

// TestPollSkipsLockedReviews: with three pending reviews locked by a stuck
// process, a poll does not wait lock_timeout for each in turn: it claims
// the free one, and the next poll says nothing is claimable, listing the
// locked reviews as held by "another process" (the process writes no
// holder line; the stale line left in one lock file names a process that
// is gone, so it is not believed). A command aimed
// at one of them waits lock_timeout, or --timeout if shorter.
func TestPollSkipsLockedReviews(t *testing.T) {
	root, dir := newProject(t, "2s")
	st := testStore(t, dir)
	var locked []string
	for _, name := range []string{"00001_a", "00002_b", "00003_c", "00004_free"} {
		a := addAssignment(t, st, name, "src/"+name+".go")
		if name != "00004_free" {
			locked = append(locked, a.Name)
		}
	}
	stale := "pid 999999999 (specdev check record, session rv-old) since 2026-02-11T10:30:00Z\n"
	if err := os.WriteFile(filepath.Join(dir, checkpoint.AssignmentsDir, "00001_a", checkpoint.LockFile), []byte(stale), 0o644); err != nil {
		t.Fatal(err)
	}
	stuck := startWorker(t, "flocknames", dir, strings.Join(locked, ","))
	if line, _ := stuck.next(); line != "locked" {
		t.Fatalf("locker said %q, want locked: %s", line, stuck.errText())
	}
	const holder = "another process"

	out, stderr, code := runSpecdev(t, root, "--json", "check", "--session", "rv-a")
	if code != 0 || !strings.Contains(out, `"assignment": "00004_free"`) {
		t.Fatalf("first poll: exit %d, want 0 claiming 00004_free:\n%s%s", code, out, stderr)
	}

	out, stderr, code = runSpecdev(t, root, "--json", "check", "--session", "rv-b")
	var reply struct {
		State string `json:"state"`
		Data  struct {
			Locked []struct {
				Holder      string   `json:"holder"`
				Assignments []string `json:"assignments"`
			} `json:"locked"`
		} `json:"data"`
	}
	if err := json.Unmarshal([]byte(out), &reply); err != nil || code != 3 || reply.State != "idle" {
		t.Fatalf("second poll: exit %d, state %q (%v), want 3 and idle:\n%s%s", code, reply.State, err, out, stderr)
	}
	if l := reply.Data.Locked; len(l) != 1 || l[0].Holder != holder || strings.Join(l[0].Assignments, ",") != strings.Join(locked, ",") {
		t.Errorf("second poll's locked = %+v, want %v locked by %q", l, locked, holder)
	}

	out, _, code = runSpecdev(t, root, "check", "--session", "rv-b")
	want := fmt.Sprintf("Locked by %s: 00001_a, 00002_b, 00003_c (skipped; a poll does not wait for locks)\n", holder)
	if code != 3 || !strings.Contains(out, "No review is waiting for a reviewer.\n") || !strings.Contains(out, want) {
		t.Errorf("text poll: exit %d:\n%s\nwant exit 3 saying %q", code, out, want)
	}

	// A command aimed at one assignment waits for its lock, then is BUSY,
	// not naming the stale line.
	out, stderr, code = runSpecdev(t, root, "check", "--session", "rv-b", "--assignment", "00001")
	want = fmt.Sprintf("specdev: assignment 00001_a is locked by %s; gave up after 2s\n", holder)
	if code != 5 || out != "" || !strings.HasPrefix(stderr, want) {
		t.Errorf("check --assignment 00001: exit %d, stdout %q, stderr %q; want 5 and %q", code, out, stderr, want)
	}

	// With --timeout, the whole call is bounded, lock waits included: the
	// wait for the lock ends with the call, and says so.
	out, stderr, code = runSpecdev(t, root, "check", "--session", "rv-b", "--assignment", "00001", "--timeout", "500ms")
	want = fmt.Sprintf("Still not claimable: assignment 00001_a is locked by %s; gave up after ", holder)
	if code != 3 || !strings.Contains(out, want) || strings.Contains(out, "gave up after 2s") {
		t.Errorf("check --assignment 00001 --timeout 500ms: exit %d:\n%s%s\nwant exit 3 saying %q", code, out, stderr, want)
	}

	stuck.closeStdin()
	if code := stuck.wait(); code != 0 {
		t.Fatalf("locker exited with %d: %s", code, stuck.errText())
	}
	out, stderr, code = runSpecdev(t, root, "check", "--session", "rv-b")
	if code != 0 || !strings.HasPrefix(out, "Review claimed: 00001_a ") {
		t.Errorf("poll after the locker let go: exit %d, want 0 claiming 00001_a:\n%s%s", code, out, stderr)
	}
}
