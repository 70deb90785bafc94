package checkpoint

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/specdev/specdev/internal/atomicfile"
)

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
		tmp, err := writeTemp(dir, f, true)
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

// writeTemp writes f's data to a new temp file in dir, fsynced when sync
// is set, and returns its path; a temp file that failed is removed.
func writeTemp(dir string, f fileWrite, sync bool) (string, error) {
	tmp, err := os.CreateTemp(dir, "."+f.name+tempMarker+"*")
	if err != nil {
		return "", fmt.Errorf("write %s: %w", f.name, err)
	}
	_, err = tmp.Write(f.data)
	err = errors.Join(err, tmp.Chmod(0o644))
	if sync {
		err = errors.Join(err, tmp.Sync())
	}
	if err = errors.Join(err, tmp.Close()); err != nil {
		os.Remove(tmp.Name())
		return "", fmt.Errorf("write %s: %w", f.name, err)
	}
	return tmp.Name(), nil
}

// replaceFile writes f into dir by rename, never through a symlink, and
// without fsync: for machine-local files whose callers say why that is
// enough.
func replaceFile(dir string, f fileWrite) error {
	tmp, err := writeTemp(dir, f, false)
	if err == nil {
		if err = os.Rename(tmp, filepath.Join(dir, f.name)); err != nil {
			os.Remove(tmp)
		}
	}
	return err
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
		if !isTemp(e.Name()) {
			continue
		}
		if err := os.RemoveAll(filepath.Join(dir, e.Name())); err == nil { // a folder: a remote transaction's stage
			removed = append(removed, e.Name())
		}
	}
	return removed, nil
}

func isTemp(name string) bool {
	return strings.HasPrefix(name, ".") && strings.Contains(name, tempMarker)
}
