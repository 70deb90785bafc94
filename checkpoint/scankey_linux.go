package checkpoint

import (
	"errors"
	"syscall"

	"golang.org/x/sys/unix"
)

// openScanDir opens the assignments folder for statKey (a path relative
// to it is looked up from there, not from /); -1 if it cannot be opened,
// and statKey then takes whole paths.
func openScanDir(path string) int {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return -1
	}
	return fd
}

func closeScanDir(fd int) {
	if fd >= 0 {
		syscall.Close(fd)
	}
}

// statKey stats path (relative to the folder dir opened by openScanDir,
// or whole when dir is -1) without following a symlink. ok is true for a
// regular file, missing for no file at all; anything else (a symlink, a
// folder, an error) is neither, and the caller reads the file the slow
// way, which names the problem.
func statKey(dir int, path string) (key fileKey, ok, missing bool) {
	if dir < 0 {
		dir = unix.AT_FDCWD
	}
	var st unix.Stat_t
	err := unix.Fstatat(dir, path, &st, unix.AT_SYMLINK_NOFOLLOW)
	for errors.Is(err, syscall.EINTR) {
		err = unix.Fstatat(dir, path, &st, unix.AT_SYMLINK_NOFOLLOW)
	}
	switch {
	case errors.Is(err, syscall.ENOENT):
		return key, false, true
	case err != nil || st.Mode&unix.S_IFMT != unix.S_IFREG:
		return key, false, false
	}
	return fileKey{
		dev: st.Dev, ino: st.Ino, size: st.Size,
		mtime: st.Mtim.Nano(), ctime: st.Ctim.Nano(),
	}, true, false
}
