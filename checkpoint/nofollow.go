package checkpoint

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/specdev/specdev/internal/atomicfile"
	"github.com/specdev/specdev/protocol"
)

// State files: how they are read and written. Every write is atomic
// (writeAtomic: temp file, fsync, rename, folder fsync), and every state
// file is opened without following a symlink at its last
// path element (O_NOFOLLOW) and checked to be a regular file, and every
// state folder (assignments/ and each assignment) is checked to be a real
// folder: a link committed to a repository and cloned must not make
// specdev read or write a file outside the project. Writes by rename
// replace a link rather than follow it; the lock file and the history are
// written in place, so they are opened this way. A state file with more
// than one name (a hard link) is refused too, when read and when written:
// writing it in place would change the file under its other name, which
// may be anywhere on the same file system.

// noFollow is added to the flags of every state file opened: O_NOFOLLOW
// refuses a symlink, O_NONBLOCK keeps a FIFO planted in its place from
// blocking the open (it changes nothing for a regular file).
const noFollow = syscall.O_NOFOLLOW | syscall.O_NONBLOCK

// openState opens the state file at path for flag and returns its size.
// A symlink, folder or other non-regular file there is a *LinkError naming
// rel; a missing file is an error satisfying errors.Is(err, fs.ErrNotExist).
func openState(path, rel string, flag int, perm os.FileMode) (*os.File, int64, error) {
	f, err := os.OpenFile(path, flag|noFollow, perm)
	if err != nil {
		return nil, 0, cmp.Or(checkNotLink(path, rel), err) // the link, if that is why it failed
	}
	info, err := f.Stat()
	if err == nil {
		err = checkRegular(rel, info)
	}
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	return f, info.Size(), nil
}

// checkRegular refuses anything but a regular file with one name.
func checkRegular(rel string, info fs.FileInfo) error {
	if !info.Mode().IsRegular() {
		return linkError(rel, info.Mode(), false)
	}
	if st, ok := info.Sys().(*syscall.Stat_t); ok && st.Nlink > 1 {
		return &LinkError{Msg: fmt.Sprintf("%s is a hard link (one file with %d names); specdev never reads or writes state that another path shares", filepath.ToSlash(rel), st.Nlink),
			Hint: "give it a file of its own (copy it to a new name, then move the copy over it) or remove it"}
	}
	return nil
}

// readStateFile reads a whole state file of at most limit bytes; a larger
// one is a *protocol.InvalidError. A missing file is nil data and a nil
// error. It makes four plain system calls (open, fstat, read, close):
// through an os.File they were six (a poller registration, which a
// regular file refuses, and a second fstat), and status reads 10,000
// requests.
func readStateFile(path, rel string, limit int64) ([]byte, error) {
	fd, err := uninterrupted(func() (int, error) { return syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|noFollow, 0) })
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, cmp.Or(checkNotLink(path, rel), fmt.Errorf("read %s: %w", rel, &fs.PathError{Op: "open", Path: path, Err: err}))
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return nil, fmt.Errorf("read %s: %w", rel, &fs.PathError{Op: "stat", Path: path, Err: err})
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG || st.Nlink > 1 {
		return nil, cmp.Or(checkNotLink(path, rel), error(linkError(rel, fs.ModeIrregular, false)))
	}
	if st.Size > limit {
		return nil, &protocol.InvalidError{File: rel,
			Problem: fmt.Sprintf("is %d bytes, more than the limit of %d", st.Size, limit),
			Hint:    "restore the file from git or remove it"}
	}
	data := make([]byte, st.Size)
	for n := 0; n < len(data); {
		m, err := uninterrupted(func() (int, error) { return syscall.Read(fd, data[n:]) })
		switch {
		case err != nil:
			return nil, fmt.Errorf("read %s: %w", rel, &fs.PathError{Op: "read", Path: path, Err: err})
		case m == 0:
			return nil, fmt.Errorf("read %s: %w", rel, io.ErrUnexpectedEOF) // it shrank since the fstat
		}
		n += m
	}
	return data, nil
}

// uninterrupted makes a system call again while a signal interrupts it.
func uninterrupted(call func() (int, error)) (int, error) {
	for {
		n, err := call()
		if err != syscall.EINTR {
			return n, err
		}
	}
}

// wrapFile adds what was done and the file to an open error, leaving a
// *LinkError as it is (it names the file already).
func wrapFile(op, rel string, err error) error {
	if errors.As(err, new(*LinkError)) {
		return err
	}
	return fmt.Errorf("%s %s: %w", op, rel, err)
}

// checkFolder refuses a state folder that is a symlink or not a folder.
// A missing folder is an error satisfying errors.Is(err, fs.ErrNotExist).
func checkFolder(path, rel string) error {
	info, err := os.Lstat(path)
	if err != nil {
		return err
	}
	if !info.IsDir() {
		return linkError(rel, info.Mode(), true)
	}
	return nil
}

// checkNotLink refuses a state file that exists and is not a regular file
// with one name; a missing one is fine (it will be created by rename).
func checkNotLink(path, rel string) error {
	info, err := os.Lstat(path)
	if err != nil {
		return nil
	}
	return checkRegular(rel, info)
}

// linkError refuses what is at rel, of type mode, where a regular file
// (or, with folder, a folder) must be.
func linkError(rel string, mode fs.FileMode, folder bool) *LinkError {
	what, want, hint := "not a regular file", "a regular file", "replace it with a regular file or remove it"
	if folder {
		want, hint = "a folder", "replace it with a real folder (move the folder it points to here) or remove it"
	}
	switch {
	case mode&fs.ModeSymlink != 0:
		return &LinkError{Msg: filepath.ToSlash(rel) + " is a symlink; specdev never follows links in its state", Hint: hint}
	case mode.IsDir():
		what = "a folder"
	case mode.IsRegular():
		what = "a file"
	}
	return &LinkError{Msg: filepath.ToSlash(rel) + " is " + what + ", not " + want, Hint: hint}
}

// tempMarker is part of every temp file name, so that leftovers of a killed
// writer can be recognised and removed.
const tempMarker = ".tmp-"

// fileWrite is one file of an atomic batch.
type fileWrite struct {
	name string // base name inside the folder
	data []byte
}

// writeAtomic writes files into dir so that each one is either entirely
// old or entirely new, even if the process is killed at any instant: every
// file goes to a temp file in the same folder, is fsynced and closed, then
// all are renamed in order and the folder is fsynced once.
func writeAtomic(dir string, files ...fileWrite) error {
	temps := make([]string, 0, len(files))
	defer func() {
		for _, t := range temps {
			os.Remove(t) // only those not renamed still exist
		}
	}()
	for _, f := range files {
		tmp, err := writeTemp(dir, f)
		if err != nil {
			return err
		}
		temps = append(temps, tmp)
	}
	for i, f := range files {
		if err := os.Rename(temps[i], filepath.Join(dir, f.name)); err != nil {
			return fmt.Errorf("replace %s: %w", f.name, err)
		}
		crashPoint("renamed " + f.name)
	}
	return syncDir(dir)
}

// writeTemp writes f's data to a new fsynced temp file in dir and
// returns its path; a temp file that failed is removed.
func writeTemp(dir string, f fileWrite) (string, error) {
	tmp, err := os.CreateTemp(dir, "."+f.name+tempMarker+"*")
	if err != nil {
		return "", fmt.Errorf("write %s: %w", f.name, err)
	}
	_, err = tmp.Write(f.data)
	if err = errors.Join(err, tmp.Chmod(0o644), tmp.Sync(), tmp.Close()); err != nil {
		os.Remove(tmp.Name())
		return "", fmt.Errorf("write %s: %w", f.name, err)
	}
	return tmp.Name(), nil
}

// syncDir is atomicfile.SyncDir where a file system that cannot sync a
// folder (EINVAL) is no error.
func syncDir(dir string) error {
	if err := atomicfile.SyncDir(dir); err != nil && !errors.Is(err, os.ErrInvalid) {
		return err
	}
	return nil
}

// cleanTemps removes the temp files a killed writer left in dir. Call it
// only under the folder's lock, when no live writer owns one.
func cleanTemps(dir string) (removed []string, err error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if isTemp(e.Name()) && os.RemoveAll(filepath.Join(dir, e.Name())) == nil { // a folder too: a remote transaction's stage
			removed = append(removed, e.Name())
		}
	}
	return removed, nil
}

func isTemp(name string) bool {
	return strings.HasPrefix(name, ".") && strings.Contains(name, tempMarker)
}
