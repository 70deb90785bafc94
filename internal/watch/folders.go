package watch

import (
	"context"
	"path/filepath"
	"time"

	"github.com/fsnotify/fsnotify"
)

// folders is the set of watched folders. Its zero value (no watcher) is
// valid: it never reports an event, so Wait falls back to its timers.
type folders struct {
	w      *fsnotify.Watcher
	events <-chan fsnotify.Event // nil once the watcher is gone
	errors <-chan error          // nil once the watcher is gone
}

// startFolders starts a watcher, or returns a set without one if the system
// cannot give one (no inotify, too many instances).
func startFolders() *folders {
	w, err := newWatcher()
	if err != nil {
		return &folders{}
	}
	return &folders{w: w, events: w.Events, errors: w.Errors}
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
		if watched[d] {
			continue
		}
		if err := f.w.Add(d); err == nil {
			watched[d] = true
		}
	}
}

// wait blocks until timer fires, ctx ends, or a watched folder changes; in
// the last case it then collects the rest of the burst for coalesceWindow
// (a fixed window, so a steady stream of events cannot starve the caller).
// It returns ctx.Err() if ctx ended, else nil.
func (f *folders) wait(ctx context.Context, timer <-chan time.Time) error {
	changed, err := f.next(ctx, timer)
	if err != nil || !changed {
		return err
	}
	settle := time.NewTimer(coalesceWindow)
	defer settle.Stop()
	for {
		changed, err := f.next(ctx, settle.C)
		if err != nil || !changed {
			return err
		}
	}
}

// next blocks until ctx ends (its error), timer fires (false) or the watcher
// reports something (true). A watcher error counts as a change: an error
// such as a queue overflow means events were lost, so it is a reason to
// look. A closed channel counts once, and is then ignored.
func (f *folders) next(ctx context.Context, timer <-chan time.Time) (bool, error) {
	select {
	case <-ctx.Done():
		return false, ctx.Err()
	case <-timer:
		return false, nil
	case _, ok := <-f.events:
		if !ok {
			f.events = nil
		}
		return true, nil
	case _, ok := <-f.errors:
		if !ok {
			f.errors = nil
		}
		return true, nil
	}
}

// close stops the watcher, if there is one.
func (f *folders) close() {
	if f.w != nil {
		_ = f.w.Close() // nothing to do about it: Wait is returning anyway
	}
}
