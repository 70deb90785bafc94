package watch

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"
)

// TestWaitWithoutWatcher replaces newWatcher, so it is not parallel: the
// parallel tests (in package watch_test, same binary) start only after it
// has finished and restored it.
func TestWaitWithoutWatcher(t *testing.T) {
	saved := newWatcher
	t.Cleanup(func() { newWatcher = saved })
	newWatcher = func() (*fsnotify.Watcher, error) {
		return nil, errors.New("inotify_init: too many open files")
	}

	dir := t.TempDir()
	target := filepath.Join(dir, "review_request.json")
	time.AfterFunc(50*time.Millisecond, func() {
		if err := os.WriteFile(target, nil, 0o644); err != nil {
			t.Error(err)
		}
	})
	var calls int
	check := func() (bool, time.Time, error) {
		calls++
		_, err := os.Stat(target)
		return err == nil, time.Time{}, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	start := time.Now()
	if err := Wait(ctx, func() []string { return []string{dir} }, 50*time.Millisecond, check); err != nil {
		t.Fatalf("Wait: got %v, want nil", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("Wait took %v with a 50ms poll", d)
	}
	if calls < 2 {
		t.Errorf("check calls: got %d, want >= 2 (driven by the poll)", calls)
	}
}
