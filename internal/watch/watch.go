// Package watch waits for something to happen in a set of folders without a
// busy loop.
//
// Wait calls a check function, then sleeps until a folder changes (fsnotify),
// the time the check asked for arrives, or a fallback poll interval passes,
// and calls it again, until the check is done or fails or the context ends.
//
// Invariants:
//   - check is never called twice without a wait in between on a file event,
//     a timer or the context: there is no spinning loop;
//   - after a file event, check runs no later than coalesceWindow after it,
//     so a burst of events (one atomic rename makes several) costs one check
//     and a new file is seen well within 100 ms;
//   - folders that vanish or cannot be watched, and a watcher that cannot
//     start at all, only make Wait slower (the poll covers them), never wrong;
//   - the watcher is closed when Wait returns.
package watch

import (
	"context"
	"path/filepath"
	"time"

	"github.com/fsnotify/fsnotify"
)

// coalesceWindow is how long Wait keeps collecting events after the first
// one before it calls check. It is fixed, not reset by each new event, so a
// steady stream of events cannot starve check.
const coalesceWindow = 10 * time.Millisecond

// minNextWait is the shortest sleep a check's next time can ask for; a next
// time already in the past would otherwise make Wait call check back to back.
const minNextWait = coalesceWindow

// newWatcher starts the file watcher; tests replace it to simulate a system
// without inotify.
var newWatcher = fsnotify.NewWatcher

// Wait calls check at once and then again whenever something changes in
// one of the folders dirs() returns (fsnotify), at the time check asked
// for (next, if not zero), and every poll interval as a fallback, until
// check reports done, check fails, or ctx ends (then it returns ctx.Err()).
//
// dirs is called before every check, so a folder created meanwhile (a new
// assignment folder) is watched before check looks at it and nothing written
// into it afterwards is missed; only folders not yet watched are added.
// dirs may be nil. poll must be positive.
func Wait(ctx context.Context, dirs func() []string, poll time.Duration,
	check func() (done bool, next time.Time, err error)) error {
	var f folders
	if w, err := newWatcher(); err == nil { // else (no inotify, too many instances) the poll covers all
		defer w.Close()
		f = folders{w: w, events: w.Events, errors: w.Errors}
	}

	for {
		if dirs != nil {
			f.add(dirs())
		}
		done, next, err := check()
		if err != nil || done {
			return err
		}
		// A timer nothing refers to any more is collected, stopped or not.
		if f.wait(ctx, time.After(sleepFor(time.Now(), poll, next))) != nil || ctx.Err() != nil { // wait's only error is ctx's
			return ctx.Err()
		}
	}
}

// sleepFor returns how long to sleep before the next check when nothing
// changes: the poll interval, or less if check asked to be called earlier.
func sleepFor(now time.Time, poll time.Duration, next time.Time) time.Duration {
	if d := next.Sub(now); !next.IsZero() && d < poll {
		return max(d, minNextWait)
	}
	return poll
}

// folders is the set of watched folders. Its zero value (no watcher) is
// valid: it never reports an event, so Wait falls back to its timers.
type folders struct {
	w      *fsnotify.Watcher
	events <-chan fsnotify.Event // nil once the watcher is gone
	errors <-chan error          // nil once the watcher is gone
}

// add watches the folders of dirs not watched yet. A folder that does not
// exist or cannot be watched is skipped; it is tried again on the next call.
// fsnotify drops the watch of a folder that is removed or renamed, so such a
// folder is added again if it comes back.
func (f *folders) add(dirs []string) {
	if f.w == nil || len(dirs) == 0 {
		return
	}
	watched := make(map[string]bool)
	for _, d := range f.w.WatchList() {
		watched[filepath.Clean(d)] = true
	}
	for _, d := range dirs {
		d = filepath.Clean(d)
		if !watched[d] && f.w.Add(d) == nil {
			watched[d] = true
		}
	}
}

// wait blocks until timer fires, ctx ends, or a watched folder changes; in
// the last case it then collects the rest of the burst for coalesceWindow
// (a fixed window, so a steady stream of events cannot starve the caller).
// A watcher error counts as a change: an error such as a queue overflow
// means events were lost, so it is a reason to look. A closed channel
// counts once, and is then ignored. It returns ctx.Err() if ctx ended,
// else nil.
func (f *folders) wait(ctx context.Context, timer <-chan time.Time) error {
	for settling := false; ; {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-timer:
			return nil
		case _, ok := <-f.events:
			if !ok {
				f.events = nil
			}
		case _, ok := <-f.errors:
			if !ok {
				f.errors = nil
			}
		}
		if !settling {
			settling, timer = true, time.After(coalesceWindow)
		}
	}
}
