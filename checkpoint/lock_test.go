package checkpoint

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gofrs/flock"

	"github.com/specdev/specdev/protocol"
)

// TestLockBusyNamesHolder: while another flock handle holds the lock, an
// update gives up after lock_timeout with a *BusyError naming the holder
// line's process, runs nothing and leaves the lock file as it was. The
// holder line is believed only while its process lives: a line left by a
// process that is gone, no line, or a line that is not a holder line
// reads "another process". Once released, the update
// runs, the lock file names this process while it holds the lock, and the
// line is cleared when it lets go.
func TestLockBusyNamesHolder(t *testing.T) {
	mine := fmt.Sprintf("pid %d (specdev check record, session rv-x) since 2026-02-11T10:30:00Z", os.Getpid())
	stale := "pid 999999999 (specdev check record, session rv-old) since 2026-02-11T10:30:00Z"
	tests := []struct {
		name, lockFile, wantHolder string
	}{
		{"holder line names the holder", mine + "\n", mine},
		{"holder line left by a process that is gone", stale + "\n", ""},
		{"empty lock file", "", ""},
		{"not a holder line", "garbage\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := testAssignment(t)
			writeFiles(t, a.Dir, map[string]string{LockFile: tt.lockFile})
			other := flock.New(a.path(LockFile))
			if ok, err := other.TryLock(); !ok {
				t.Fatalf("taking the lock: %v", err)
			}
			wait := 50 * time.Millisecond
			a.store.Config.LockTimeout = protocol.Duration(wait)
			err := a.Update(context.Background(), func(*Tx) error {
				t.Error("the update ran while the lock was held")
				return nil
			})
			var busy *BusyError
			if !errors.As(err, &busy) || !errors.Is(err, ErrBusy) {
				t.Fatalf("Update = %v (%T), want a *BusyError", err, err)
			}
			want := BusyError{Assignment: a.Name, Holder: tt.wantHolder, Waited: wait}
			wantText := "locked by another process;"
			if tt.wantHolder != "" {
				wantText = "locked by " + tt.wantHolder + ";"
			}
			if *busy != want || !strings.Contains(err.Error(), wantText) {
				t.Errorf("BusyError = %+v (%q), want %+v saying %q", *busy, err, want, wantText)
			}
			if got := dirFiles(t, a.Dir)[LockFile]; got != tt.lockFile {
				t.Errorf("the waiting process changed the lock file to %q", got)
			}

			if err := other.Unlock(); err != nil {
				t.Fatal(err)
			}
			me := fmt.Sprintf("pid %d (%s) since ", os.Getpid(), a.store.Holder)
			var during string
			if err := a.Update(context.Background(), func(*Tx) error { during = dirFiles(t, a.Dir)[LockFile]; return nil }); err != nil {
				t.Fatalf("Update after the release: %v", err)
			}
			if !strings.HasPrefix(during, me) {
				t.Errorf("lock file while holding it = %q, want it naming %q…", during, me)
			}
			if got, ok := dirFiles(t, a.Dir)[LockFile]; !ok || strings.SplitN(got, "\n", 2)[0] != "" {
				t.Errorf("lock file after the update = %q (exists %v), want it kept with an empty holder line", got, ok)
			}
		})
	}
}

// TestLockNoWait: an assignment from withoutWait gives up at once (Waited
// 0, no "gave up after" in the message) however long lock_timeout is.
func TestLockNoWait(t *testing.T) {
	a := testAssignment(t)
	other := flock.New(a.path(LockFile))
	if ok, err := other.TryLock(); !ok {
		t.Fatalf("taking the lock: %v", err)
	}
	defer other.Unlock()
	a.store.Config.LockTimeout = protocol.Duration(time.Hour)
	err := a.withoutWait().Update(context.Background(), func(*Tx) error {
		t.Error("the update ran while the lock was held")
		return nil
	})
	var busy *BusyError
	if !errors.As(err, &busy) || busy.Waited != 0 || strings.Contains(err.Error(), "gave up") {
		t.Fatalf("Update without waiting = %v, want a *BusyError that waited 0", err)
	}
}

// TestOpenLockedChecksIdentity: a lock taken on a file that is no longer
// the lock file at the path (deleted, or replaced by another file) is not
// a lock at all; isLockFile says so with errReplaced.
func TestLockChecksIdentity(t *testing.T) {
	tests := []struct {
		name   string
		change func(t *testing.T, path string)
	}{
		{"unchanged", func(*testing.T, string) {}},
		{"deleted", func(t *testing.T, path string) {
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
		}},
		{"replaced", func(t *testing.T, path string) {
			if err := os.WriteFile(path+".new", nil, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(path+".new", path); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := testAssignment(t)
			fh, _, err := openState(a.path(LockFile), a.rel(LockFile), os.O_CREATE|os.O_RDWR, 0o644)
			if err != nil {
				t.Fatal(err)
			}
			defer fh.Close()
			if ok, err := tryFlock(fh); !ok {
				t.Fatalf("taking the lock: %v", err)
			}
			tt.change(t, a.path(LockFile))
			err = folderLock{dir: a.Dir, rel: a.RelDir()}.isLockFile(fh)
			if want := tt.name != "unchanged"; errors.Is(err, errReplaced) != want || (!want && err != nil) {
				t.Errorf("isLockFile = %v, want errReplaced: %v", err, want)
			}
		})
	}
}

// TestLockFileDeletedWhileHeld: with the lock file deleted while a writer
// holds the lock (git clean -x), a second writer creates a new lock file
// but does not get in until the first lets go.
func TestLockFileDeletedWhileHeld(t *testing.T) {
	a := testAssignment(t)
	a.store.Config.LockTimeout = protocol.Duration(time.Minute)
	ctx := context.Background()
	inside, release, firstDone := make(chan struct{}), make(chan struct{}), make(chan error)
	go func() {
		firstDone <- a.Update(ctx, func(*Tx) error {
			close(inside)
			<-release
			return nil
		})
	}()
	<-inside
	if err := os.Remove(a.path(LockFile)); err != nil {
		t.Fatal(err)
	}
	secondIn := make(chan struct{})
	secondDone := make(chan error)
	go func() {
		secondDone <- a.Update(ctx, func(*Tx) error { close(secondIn); return nil })
	}()
	select {
	case <-secondIn:
		t.Fatal("a second writer got in while the first held the lock whose file was deleted")
	case <-time.After(300 * time.Millisecond): // it had every chance to get in
	}
	close(release)
	if err := <-firstDone; err != nil {
		t.Fatalf("first update: %v", err)
	}
	if err := <-secondDone; err != nil {
		t.Fatalf("second update: %v", err)
	}
	if _, err := os.Lstat(a.path(LockFile)); err != nil {
		t.Errorf("lock file after both: %v, want it recreated", err)
	}
}

// TestLockFileSymlink: a lock file that is a symlink is never opened
// through: every transaction is refused with a *LinkError naming it, and
// the file it points to is left byte for byte as it was.
func TestLockFileSymlink(t *testing.T) {
	a := testAssignment(t)
	outside := filepath.Join(t.TempDir(), "outside")
	const content = "someone else's file\nno newline at the end"
	if err := os.WriteFile(outside, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, a.path(LockFile)); err != nil {
		t.Fatal(err)
	}
	err := a.Update(context.Background(), func(*Tx) error {
		t.Error("the update ran through a symlinked lock file")
		return nil
	})
	var link *LinkError
	if !errors.As(err, &link) || !errors.Is(err, protocol.ErrInvalid) || !strings.HasPrefix(link.Msg, a.rel(LockFile)+" is a symlink") {
		t.Fatalf("Update = %v (%T), want a *LinkError naming %s", err, err, a.rel(LockFile))
	}
	if got, _ := os.ReadFile(outside); string(got) != content {
		t.Errorf("the file outside was changed to %q", got)
	}
}
