package watch_test

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

// longPoll is a poll interval no test waits for: a test that returns well
// before it was woken by an event or a next time, not by the poll.
const longPoll = 10 * time.Second

// slow is the generous bound for "woke up promptly"; the product target is
// 100 ms, measured by benchmarks, not by tests that could flake.
const slow = 2 * time.Second

// writeAtomic writes a file the way the product does: temp file in the same
// folder, then rename.
func writeAtomic(t *testing.T, dir, name string) {
	t.Helper()
	tmp := filepath.Join(dir, "."+name+".tmp")
	if err := os.WriteFile(tmp, []byte(`{"status":"pending"}`), 0o644); err != nil {
		t.Error(err)
		return
	}
	if err := os.Rename(tmp, filepath.Join(dir, name)); err != nil {
		t.Error(err)
	}
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func fixed(dirs ...string) func() []string {
	return func() []string { return dirs }
}

// fileCheck is a check that is done once path exists, counting its calls.
func fileCheck(path string, calls *atomic.Int32) func() (bool, time.Time, error) {
	return func() (bool, time.Time, error) {
		calls.Add(1)
		return exists(path), time.Time{}, nil
	}
}

func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func TestWaitWakesOnNewFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	target := filepath.Join(dir, "review_request.json")
	wrote := make(chan time.Time, 1)
	go func() {
		time.Sleep(200 * time.Millisecond)
		writeAtomic(t, dir, "review_request.json")
		wrote <- time.Now()
	}()

	var calls int
	var saw time.Time
	check := func() (bool, time.Time, error) {
		calls++
		if exists(target) {
			saw = time.Now()
			return true, time.Time{}, nil
		}
		return false, time.Time{}, nil
	}
	err := watch.Wait(testContext(t), fixed(dir), longPoll, check)
	returned := time.Now()
	if err != nil {
		t.Fatalf("Wait: got %v, want nil", err)
	}
	w := <-wrote
	// Wait returns after closing its inotify instance, which waits for a
	// kernel grace period (usually well under 20 ms, more on a busy host).
	t.Logf("check saw the file %v after the rename, Wait returned %v after it; %d checks",
		saw.Sub(w), returned.Sub(w), calls)
	if latency := returned.Sub(w); latency > slow {
		t.Errorf("Wait returned %v after the write, want well under %v", latency, slow)
	}
}

func TestWaitWatchesFolderCreatedLater(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	sub := filepath.Join(root, "00002_feature_login")
	target := filepath.Join(sub, "review_request.json")

	checked := make(chan struct{}, 100)
	check := func() (bool, time.Time, error) {
		checked <- struct{}{}
		return exists(target), time.Time{}, nil
	}
	wrote := make(chan time.Time, 1)
	go func() {
		<-checked // Wait has started and watches root
		if err := os.Mkdir(sub, 0o755); err != nil {
			t.Error(err)
			return
		}
		select {
		case <-checked: // woken by the mkdir; sub is watched now
		case <-time.After(slow):
			t.Error("the mkdir in a watched folder did not wake Wait")
			return
		}
		// Only the watch on sub sees this: events are not recursive.
		writeAtomic(t, sub, "review_request.json")
		wrote <- time.Now()
	}()

	start := time.Now()
	err := watch.Wait(testContext(t), fixed(root, sub), longPoll, check)
	woke := time.Now()
	if err != nil {
		t.Fatalf("Wait: got %v, want nil", err)
	}
	select {
	case w := <-wrote:
		t.Logf("woke %v after the write into the new folder", woke.Sub(w))
	default:
		t.Fatal("Wait returned before the file was written")
	}
	if d := woke.Sub(start); d > slow {
		t.Errorf("Wait took %v, want well under the %v poll", d, longPoll)
	}
}

func TestWaitWakesAtNext(t *testing.T) {
	t.Parallel()
	var calls int
	check := func() (bool, time.Time, error) {
		calls++
		if calls == 1 {
			return false, time.Now().Add(100 * time.Millisecond), nil
		}
		return true, time.Time{}, nil
	}
	start := time.Now()
	err := watch.Wait(testContext(t), fixed(t.TempDir()), longPoll, check)
	took := time.Since(start)
	if err != nil {
		t.Fatalf("Wait: got %v, want nil", err)
	}
	if calls != 2 {
		t.Errorf("check calls: got %d, want 2", calls)
	}
	if took < 100*time.Millisecond || took > slow {
		t.Errorf("Wait took %v, want about 100ms (the next time)", took)
	}
}

func TestWaitContextEnds(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		ctx  func() (context.Context, context.CancelFunc)
		want error
	}{
		{"canceled", func() (context.Context, context.CancelFunc) {
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(50*time.Millisecond, cancel)
			return ctx, cancel
		}, context.Canceled},
		{"deadline", func() (context.Context, context.CancelFunc) {
			return context.WithTimeout(context.Background(), 50*time.Millisecond)
		}, context.DeadlineExceeded},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := tt.ctx()
			defer cancel()
			never := func() (bool, time.Time, error) { return false, time.Time{}, nil }
			start := time.Now()
			err := watch.Wait(ctx, fixed(t.TempDir()), longPoll, never)
			if !errors.Is(err, tt.want) {
				t.Errorf("Wait: got %v, want %v", err, tt.want)
			}
			if d := time.Since(start); d > slow {
				t.Errorf("Wait took %v after the context ended at 50ms", d)
			}
		})
	}
}

func TestWaitReturnsCheckError(t *testing.T) {
	t.Parallel()
	boom := errors.New("read progress: boom")
	var calls int
	check := func() (bool, time.Time, error) {
		calls++
		if calls == 1 {
			return false, time.Now().Add(20 * time.Millisecond), nil
		}
		return false, time.Time{}, boom
	}
	err := watch.Wait(testContext(t), nil, longPoll, check)
	if !errors.Is(err, boom) {
		t.Errorf("Wait: got %v, want %v", err, boom)
	}
	if calls != 2 {
		t.Errorf("check calls: got %d, want 2", calls)
	}
}

func TestWaitPollsMissingFolder(t *testing.T) {
	t.Parallel()
	missing := filepath.Join(t.TempDir(), "does-not-exist")
	var calls int
	check := func() (bool, time.Time, error) {
		calls++
		return calls == 3, time.Time{}, nil
	}
	start := time.Now()
	err := watch.Wait(testContext(t), fixed(missing), 50*time.Millisecond, check)
	took := time.Since(start)
	if err != nil {
		t.Fatalf("Wait: got %v, want nil", err)
	}
	if took < 100*time.Millisecond || took > slow {
		t.Errorf("Wait took %v, want about two polls of 50ms", took)
	}
}
