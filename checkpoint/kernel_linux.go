package checkpoint

// What the Linux kernel tells: a file's identity and change time (the
// poll cache's key).

import (
	"path/filepath"
	"syscall"

	"github.com/specdev/specdev/protocol"
)

// restKeyOf keys the request in the assignment folder at path without
// following a symlink; false for anything but a regular file with one
// name, or an error: the caller then reads it, which names the problem.
func restKeyOf(path string) (restKey, bool) {
	var st syscall.Stat_t
	if syscall.Lstat(filepath.Join(path, protocol.RequestFile), &st) != nil || st.Mode&syscall.S_IFMT != syscall.S_IFREG || st.Nlink != 1 {
		return restKey{}, false
	}
	return restKey{Dev: st.Dev, Ino: st.Ino, Size: st.Size, Mtime: st.Mtim.Nano(), Ctime: st.Ctim.Nano()}, true
}
