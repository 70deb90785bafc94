package watch_test

// What waiting costs: how often check runs, and what stays open afterwards.

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/specdev/specdev/internal/watch"
)

func TestWaitDoesNotSpin(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		next     func() time.Time
		maxCalls int32
	}{
		// 300 ms of 100 ms polls: about 4 checks.
		{"poll", func() time.Time { return time.Time{} }, 6},
		// A next time in the past is clamped to a short sleep, not a spin:
		// at most one check every 10 ms.
		{"next in the past", func() time.Time { return time.Now().Add(-time.Hour) }, 35},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
			defer cancel()
			var calls atomic.Int32
			check := func() (bool, time.Time, error) {
				calls.Add(1)
				return false, tt.next(), nil
			}
			err := watch.Wait(ctx, fixed(t.TempDir()), 100*time.Millisecond, check)
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("Wait: got %v, want %v", err, context.DeadlineExceeded)
			}
			t.Logf("%d checks in 300ms", calls.Load())
			if got := calls.Load(); got > tt.maxCalls {
				t.Errorf("check calls in 300ms: got %d, want <= %d", got, tt.maxCalls)
			}
		})
	}
}

func TestWaitCoalescesBurst(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	go func() {
		time.Sleep(50 * time.Millisecond)
		for i := range 20 { // 20 renames, 80 events
			writeAtomic(t, dir, "file"+string(rune('a'+i)))
		}
		time.Sleep(300 * time.Millisecond)
		writeAtomic(t, dir, "done")
	}()
	var calls atomic.Int32
	err := watch.Wait(testContext(t), fixed(dir), longPoll,
		fileCheck(filepath.Join(dir, "done"), &calls))
	if err != nil {
		t.Fatalf("Wait: got %v, want nil", err)
	}
	// Ideally 3: the first, one for the burst, one for "done".
	t.Logf("%d checks for a burst of 20 renames and one more", calls.Load())
	if got := calls.Load(); got > 10 {
		t.Errorf("check calls: got %d, want a few (bursts coalesced)", got)
	}
}

func TestWaitClosesWatcher(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/proc/self/fd"); err != nil {
		t.Skip("needs /proc/self/fd")
	}
	openFDs := func() int {
		fds, err := os.ReadDir("/proc/self/fd")
		if err != nil {
			t.Fatal(err)
		}
		return len(fds)
	}
	dir := t.TempDir()
	done := func() (bool, time.Time, error) { return true, time.Time{}, nil }
	before := openFDs()
	for range 50 {
		if err := watch.Wait(context.Background(), fixed(dir), longPoll, done); err != nil {
			t.Fatal(err)
		}
	}
	// Other parallel tests open files too; a leak would be 50.
	if after := openFDs(); after > before+20 {
		t.Errorf("open files: %d before 50 Waits, %d after", before, after)
	}
}
