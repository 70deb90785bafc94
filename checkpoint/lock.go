package checkpoint

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/specdev/specdev/protocol"
)

// LockFile is the permanent lock file of an assignment folder.
const LockFile = ".specdev.lock"

// lockRetry is how often a waiting process retries the lock.
const lockRetry = 2 * time.Millisecond

// errReplaced: the file we locked is no longer the lock file at the path
// (deleted or replaced, e.g. by git clean -x); try again on the new one
// after lockRetry, as when the lock is held.
var errReplaced = errors.New("lock file replaced while locking")

// held is a taken folder lock: an flock on the lock file, checked to
// be the file at the path, plus an flock on the folder, which keeps a
// second writer out even if the lock file is deleted while held. The
// lock file's content says who holds it, so that a process that gives
// up can name the holder.
type held struct {
	file   *os.File // the lock file
	folder *os.File // nil where the file system cannot lock a folder
}

// folderLock is the lock of a state folder: an assignment's, or the
// groups' (the same lock, so one mechanism serves both).
type folderLock struct {
	store  *Store
	dir    string // the folder
	rel    string // the folder in messages: .specdev/assignments/NAME
	name   string // the assignment, for a BUSY error ("" for the groups)
	noWait bool   // tried once, not waited for (see withoutWait)
}

func (l folderLock) path() string    { return filepath.Join(l.dir, LockFile) }
func (l folderLock) relPath() string { return l.rel + "/" + LockFile }

// lock takes the exclusive lock of an assignment folder (folderLock.take)
// and refuses links where the transaction will write, so that a refusal
// changes nothing.
func (a *Assignment) lock(ctx context.Context) (*held, error) {
	h, err := folderLock{a.store, a.Dir, a.RelDir(), a.Name, a.noWait}.take(ctx)
	if err != nil {
		return nil, err
	}
	if err := cmp.Or(checkNotLink(a.path(ReportFile), a.rel(ReportFile)), checkNotLink(a.path(protocol.HistoryFile), a.rel(protocol.HistoryFile))); err != nil {
		h.unlock()
		return nil, err
	}
	return h, nil
}

// take takes the exclusive lock, waiting at most the store's lock
// timeout (or until ctx's deadline, if sooner: BUSY as well), or trying
// once with noWait, and writes the holder line. The lock file is never
// removed, and never followed if it is a symlink (a *LinkError).
func (l folderLock) take(ctx context.Context) (*held, error) {
	wait := time.Duration(l.store.Config.LockTimeout)
	if l.noWait {
		wait = 0
	}
	if end, ok := ctx.Deadline(); ok && time.Until(end) < wait {
		wait = max(time.Until(end), 0).Round(time.Millisecond)
	}
	deadline, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	for {
		h, err := l.tryLock()
		switch {
		case h != nil:
			h.write(fmt.Sprintf("pid %d (%s) since %s", os.Getpid(), l.store.Holder, l.store.Now().UTC().Format(time.RFC3339)))
			return h, nil
		case errors.Is(err, errReplaced):
			l.store.logf("%s was deleted or replaced while being locked; locking the new one", l.relPath())
		case err != nil:
			return nil, err
		}
		select {
		case <-deadline.Done():
			if err := ctx.Err(); err != nil && !errors.Is(err, context.DeadlineExceeded) {
				return nil, fmt.Errorf("lock %s: %w", l.relPath(), err)
			}
			return nil, &BusyError{Assignment: l.name, Holder: l.lockHolder(), Waited: wait}
		case <-time.After(lockRetry):
		}
	}
}

// withoutWait returns the assignment with a lock that is tried once: a
// poll skips a locked review at once instead of waiting for it.
func (a *Assignment) withoutWait() *Assignment {
	c := *a
	c.noWait = true
	return &c
}

// tryLock makes one attempt: nil, nil when another process holds the lock.
func (l folderLock) tryLock() (*held, error) {
	fh, _, err := openState(l.path(), l.relPath(), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, wrapFile("lock", l.relPath(), err)
	}
	h := &held{file: fh}
	ok, err := tryFlock(fh)
	if ok {
		err = l.isLockFile(fh)
	}
	if ok && err == nil {
		h.folder, ok = l.lockFolder()
	}
	if !ok || err != nil {
		h.release()
		return nil, err
	}
	return h, nil
}

// tryFlock takes f's exclusive flock unless another process holds it.
func tryFlock(f *os.File) (bool, error) {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return false, nil
	}
	return err == nil, err
}

// isLockFile checks that fh, just locked, is still the lock file at the
// path (same device and inode): if it was deleted or replaced between the
// open and the flock, the lock is on a file nobody else will lock, and
// the caller retries on the new one (errReplaced).
func (l folderLock) isLockFile(fh *os.File) error {
	locked, err := fh.Stat()
	if err != nil {
		return fmt.Errorf("lock %s: %w", l.relPath(), err)
	}
	if info, err := os.Lstat(l.path()); err != nil || !os.SameFile(locked, info) {
		return errReplaced
	}
	return nil
}

// lockFolder takes the flock of the folder itself, which git clean -x
// does not delete (it deletes files). ok is false when another process
// holds it. A file system that cannot lock a folder (e.g. NFS, where
// flock is emulated with fcntl) leaves the lock file as the only lock,
// as before.
func (l folderLock) lockFolder() (folder *os.File, ok bool) {
	folder, err := os.OpenFile(l.dir, os.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NOFOLLOW, 0)
	if err == nil {
		if ok, err = tryFlock(folder); !ok {
			folder.Close()
			return nil, err != nil
		}
	}
	return folder, true
}

// write replaces the lock file's content with the holder line. It is
// informational (flock is the lock), so failures are ignored: the worst
// case is a BUSY message without the holder's name.
func (h *held) write(holder string) {
	data := []byte(holder + "\n")
	h.file.Truncate(int64(len(data)))
	h.file.WriteAt(data, 0)
}

// unlock clears the holder line, so that the lock file never names a
// process that no longer holds the lock, and releases it.
func (h *held) unlock() {
	h.write("")
	h.release()
}

// release lets go of the flocks: closing its descriptor ends an flock.
func (h *held) release() {
	if h.folder != nil {
		h.folder.Close()
	}
	h.file.Close()
}

// lockFileLimit bounds what is read of a lock file: a holder line is far
// less (an older specdev wrote two cache lines after it).
const lockFileLimit = 4096

// maxHolderRunes bounds the holder text shown in a BUSY message: the lock
// file is a plain file anyone can write into.
const maxHolderRunes = 200

// lockHolder names who holds the lock, for a BUSY message: the lock
// file's holder line, believed while the process it names lives. The
// line is written by specdev after it takes the lock and cleared when it
// lets go; a killed specdev leaves its line behind (its process is gone),
// and a process holding the flock without specdev (flock(1), a script)
// writes none. Empty means unknown ("another process").
func (l folderLock) lockHolder() string {
	data, _ := readStateFile(l.path(), l.relPath(), lockFileLimit)
	line, _, _ := strings.Cut(string(data), "\n")
	line = printable(strings.TrimSpace(line))
	var pid int
	if _, err := fmt.Sscanf(line, "pid %d", &pid); err == nil && pid > 0 && processAlive(pid) {
		return line
	}
	return ""
}

// processAlive reports whether a process with this id exists (EPERM: it
// exists, owned by someone else).
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// printable makes s safe to show (protocol.SafeText), at most
// maxHolderRunes characters of it.
func printable(s string) string { return clipRunes(protocol.SafeText(s), maxHolderRunes) }
