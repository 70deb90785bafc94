package checkpoint

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gofrs/flock"

	"github.com/specdev/specdev/protocol"
)

// TestLockBusyNamesHolder: while another flock handle holds the lock, an
// update gives up after lock_timeout with a *BusyError naming the holder
// the lock file records, runs nothing and leaves the lock file as it was;
// once released, the update runs and the lock file names this process.
func TestLockBusyNamesHolder(t *testing.T) {
	tests := []struct {
		name, lockFile, wantHolder, wantInMessage string
	}{
		{"holder recorded", "pid 4242 (specdev check record, session rv-x) since 2026-02-11T10:30:00Z\n",
			"pid 4242 (specdev check record, session rv-x) since 2026-02-11T10:30:00Z", "locked by pid 4242 (specdev check record, session rv-x)"},
		{"empty lock file", "", "", "locked by another specdev process"},
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
			if *busy != want || !strings.Contains(err.Error(), tt.wantInMessage) {
				t.Errorf("BusyError = %+v (%q), want %+v saying %q", *busy, err, want, tt.wantInMessage)
			}
			if got := dirFiles(t, a.Dir)[LockFile]; got != tt.lockFile {
				t.Errorf("the waiting process changed the lock file to %q", got)
			}

			if err := other.Unlock(); err != nil {
				t.Fatal(err)
			}
			ran := false
			if err := a.Update(context.Background(), func(*Tx) error { ran = true; return nil }); err != nil || !ran {
				t.Fatalf("Update after the release: ran=%v err=%v", ran, err)
			}
			me := fmt.Sprintf("pid %d (%s) since ", os.Getpid(), a.store.Holder)
			if got, ok := dirFiles(t, a.Dir)[LockFile]; !ok || !strings.HasPrefix(got, me) {
				t.Errorf("lock file after the update = %q (exists %v), want it kept, naming %q…", got, ok, me)
			}
		})
	}
}
