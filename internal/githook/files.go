package githook

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// checkDir makes sure the hooks folder is a real folder, not a symlink;
// with create, a missing one is made.
func checkDir(dir string, create bool) error {
	fi, err := os.Lstat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist) && create:
		return os.MkdirAll(dir, 0o755)
	case err != nil:
		return err
	case fi.Mode()&fs.ModeSymlink != 0:
		return &RefusedError{Msg: fmt.Sprintf("the hooks folder %s is a symlink; specdev does not write through symlinks", dir),
			Hint: "point git at the real folder: git config core.hooksPath <the folder the link leads to>"}
	case !fi.IsDir():
		return &RefusedError{Msg: fmt.Sprintf("the hooks folder %s is not a folder", dir),
			Hint: "fix core.hooksPath (git config core.hooksPath) or move the file away"}
	}
	return nil
}

// placeFile puts a complete, executable file with data at path: written
// to a temporary file in dir and synced, then linked into place (fails if
// path exists) or, with replace, renamed over it. Neither follows a
// symlink at path.
func placeFile(dir, path string, data []byte, replace bool) error {
	f, err := os.CreateTemp(dir, ".specdev-hook-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp) // gone after a rename; after a link, only the extra name goes
	_, err = f.Write(data)
	if err = errors.Join(err, f.Chmod(0o755), f.Sync(), f.Close()); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if replace {
		err = os.Rename(tmp, path)
	} else {
		err = os.Link(tmp, path)
	}
	if errors.Is(err, fs.ErrExist) {
		return &RefusedError{Msg: fmt.Sprintf("%s appeared while specdev was installing its hook", path),
			Hint: "run specdev hook install again"}
	}
	if err != nil {
		return fmt.Errorf("install %s: %w", path, err)
	}
	return syncDir(dir)
}

// syncDir makes the folder's entries durable.
func syncDir(dir string) error {
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
