package checkpoint

import (
	"os"
	"path/filepath"
	"syscall"

	"github.com/specdev/specdev/protocol"
)

// restKeyOf keys the request in the assignment folder at path without
// following a symlink; false for anything but a regular file with one
// name, or an error: the caller then reads it, which names the problem.
func restKeyOf(path string) (restKey, bool) {
	info, err := os.Lstat(filepath.Join(path, protocol.RequestFile))
	if err != nil || !info.Mode().IsRegular() {
		return restKey{}, false
	}
	st := info.Sys().(*syscall.Stat_t)
	if st.Nlink != 1 {
		return restKey{}, false
	}
	return restKey{dev: st.Dev, ino: st.Ino, size: st.Size, mtime: st.Mtim.Nano(), ctime: st.Ctim.Nano()}, true
}
