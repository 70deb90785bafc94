package checkpoint

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/gofrs/flock"
)

// LockFile is the permanent lock file of an assignment folder.
const LockFile = ".specdev.lock"

// lockRetry is how often a waiting process retries the lock.
const lockRetry = 2 * time.Millisecond

// lock takes the exclusive lock of an assignment folder, waiting at most
// the store's lock timeout. It writes who holds it into the lock file, so
// that a process that gives up can say who it waited for. The returned
// function releases the lock; the file stays.
func (a *Assignment) lock(ctx context.Context) (unlock func(), err error) {
	path := a.path(LockFile)
	fl := flock.New(path, flock.SetFlag(os.O_CREATE|os.O_RDWR), flock.SetPermissions(0o644))
	wait := time.Duration(a.store.Config.LockTimeout)
	ctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	ok, err := fl.TryLockContext(ctx, lockRetry)
	if !ok {
		if err != nil && !errors.Is(err, context.DeadlineExceeded) {
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		return nil, &BusyError{Assignment: a.Name, Holder: readHolder(path), Waited: wait}
	}
	a.writeHolder(path)
	return func() { fl.Unlock() }, nil
}

// writeHolder notes the lock holder in the lock file. It is informational
// only (flock is the lock), so failures are ignored.
func (a *Assignment) writeHolder(path string) {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return
	}
	defer f.Close()
	who := fmt.Sprintf("pid %d (%s) since %s\n", os.Getpid(), a.store.Holder, a.store.Now().UTC().Format(time.RFC3339))
	f.Truncate(0)
	f.WriteAt([]byte(who), 0)
}

func readHolder(path string) string {
	data, err := os.ReadFile(path)
	if err != nil || len(data) > 1024 {
		return ""
	}
	return strings.TrimSpace(string(data))
}
