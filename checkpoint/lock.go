package checkpoint

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/gofrs/flock"
)

// LockFile is the permanent lock file of an assignment folder.
const LockFile = ".specdev.lock"

// lockRetry is how often a waiting process retries the lock.
const lockRetry = 2 * time.Millisecond

// held is a taken assignment lock. The lock file's content says who holds
// it (so that a process that gives up can name the holder) and carries the
// cache of known-valid state files.
type held struct {
	fl     *flock.Flock
	file   *os.File
	holder string
	cache  validCache
}

// lock takes the exclusive lock of an assignment folder, waiting at most
// the store's lock timeout. The lock file is never removed.
func (a *Assignment) lock(ctx context.Context) (*held, error) {
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
	h := &held{fl: fl, cache: validCache{}}
	h.holder = fmt.Sprintf("pid %d (%s) since %s", os.Getpid(), a.store.Holder, a.store.Now().UTC().Format(time.RFC3339))
	if h.file, err = os.OpenFile(path, os.O_RDWR, 0); err == nil {
		if data, err := io.ReadAll(io.LimitReader(h.file, 4096)); err == nil {
			_, h.cache = parseLockFile(data)
		}
		h.write()
	}
	return h, nil
}

// write replaces the lock file's content. It is informational (flock is
// the lock), so failures are ignored: the worst case is a full validation
// or a BUSY message without the holder's name.
func (h *held) write() {
	if h.file == nil {
		return
	}
	data := lockFileContent(h.holder, h.cache)
	h.file.Truncate(int64(len(data)))
	h.file.WriteAt(data, 0)
}

func (h *held) unlock() {
	if h.file != nil {
		h.file.Close()
	}
	h.fl.Unlock()
}

func readHolder(path string) string {
	data, err := os.ReadFile(path)
	if err != nil || len(data) > 4096 {
		return ""
	}
	holder, _ := parseLockFile(data)
	return holder
}
