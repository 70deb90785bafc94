// Package atomicfile writes a file whole or not at all, for the files
// specdev writes outside its store (git hooks, MCP hosts' settings).
//
// Invariants:
//   - The data goes to a temporary file beside the name, is synced, and
//     only then is put at the name, by one rename or one link, after which
//     the folder is synced: a reader sees the old file or the new one,
//     never a part.
//   - Nothing is written through a symlink at the name: a rename replaces
//     the link itself, and a link fails on it.
package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Replace puts data at path with mode, replacing whatever is there. The
// folder is made if missing.
func Replace(path string, data []byte, mode fs.FileMode) error {
	return write(path, data, mode, os.Rename)
}

// Create puts data at path with mode, failing with fs.ErrExist if
// anything is there.
func Create(path string, data []byte, mode fs.FileMode) error {
	return write(path, data, mode, os.Link)
}

func write(path string, data []byte, mode fs.FileMode, place func(tmp, path string) error) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".specdev-*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name()) // gone after a rename; after a link, only the extra name goes
	_, err = f.Write(data)
	if err = errors.Join(err, f.Chmod(mode), f.Sync(), f.Close()); err == nil {
		err = place(f.Name(), path)
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return SyncDir(dir)
}

// SyncDir makes the folder's entries durable.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	return nil
}
