package checkpoint

import (
	"errors"
	"syscall"
)

// statKey stats path without following a symlink. ok is true for a
// regular file, missing for no file at all; anything else (a symlink, a
// folder, an error) is neither, and the caller reads the file the slow
// way, which names the problem.
func statKey(path string) (key fileKey, ok, missing bool) {
	var st syscall.Stat_t
	err := syscall.Lstat(path, &st)
	for errors.Is(err, syscall.EINTR) {
		err = syscall.Lstat(path, &st)
	}
	switch {
	case errors.Is(err, syscall.ENOENT):
		return key, false, true
	case err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFREG:
		return key, false, false
	}
	return fileKey{
		dev: st.Dev, ino: st.Ino, size: st.Size,
		mtime: st.Mtim.Nano(), ctime: st.Ctim.Nano(),
	}, true, false
}
