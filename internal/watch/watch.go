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

// defaultPoll is used when Wait is given a poll interval that is not positive.
const defaultPoll = time.Second

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
// dirs may be nil. A poll that is not positive means one second.
func Wait(ctx context.Context, dirs func() []string, poll time.Duration,
	check func() (done bool, next time.Time, err error)) error {
	if poll <= 0 {
		poll = defaultPoll
	}
	f := startFolders()
	defer f.close()

	timer := time.NewTimer(poll)
	defer timer.Stop()
	for {
		if dirs != nil {
			f.add(dirs())
		}
		done, next, err := check()
		if err != nil || done {
			return err
		}
		timer.Reset(sleepFor(time.Now(), poll, next))
		if err := f.wait(ctx, timer.C); err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
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
