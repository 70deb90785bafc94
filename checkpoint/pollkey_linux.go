package checkpoint

import (
	"errors"
	"path/filepath"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/specdev/specdev/protocol"
)

// openDir opens a folder for statAt (a path relative to it is looked up
// from there, not from /); -1 if it cannot be opened.
func openDir(path string) int {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return -1
	}
	return fd
}

func closeDir(fd int) {
	if fd >= 0 {
		syscall.Close(fd)
	}
}

// statAt keys the request of the assignment name in the assignments
// folder dir (in the folder at path, when dir is -1) without following a
// symlink; false for anything but a regular file with one name, or an
// error: the caller then reads it, which names the problem.
func statAt(dir int, path, name string) (restKey, bool) {
	rel := name + "/" + protocol.RequestFile
	if dir < 0 {
		dir, rel = unix.AT_FDCWD, filepath.Join(path, protocol.RequestFile)
	}
	var st unix.Stat_t
	err := unix.Fstatat(dir, rel, &st, unix.AT_SYMLINK_NOFOLLOW)
	for errors.Is(err, syscall.EINTR) {
		err = unix.Fstatat(dir, rel, &st, unix.AT_SYMLINK_NOFOLLOW)
	}
	if err != nil || st.Mode&unix.S_IFMT != unix.S_IFREG || st.Nlink != 1 {
		return restKey{}, false
	}
	return restKey{dev: st.Dev, ino: st.Ino, size: st.Size, mtime: st.Mtim.Nano(), ctime: st.Ctim.Nano()}, true
}
