package checkpoint

// What the Linux kernel tells: who holds a file lock (/proc/locks), and a
// file's identity and change time (the poll cache's key).

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/specdev/specdev/protocol"
)

// procLocks lists the kernel's file locks; tests point it elsewhere.
var procLocks = "/proc/locks"

// lockingPIDs returns the processes that hold a lock on any of paths, as
// /proc/locks tells (known is false if it cannot be read). Lines look like
//
//	1: FLOCK  ADVISORY  WRITE 20546 fe:00:9978760 0 EOF
//	1: -> FLOCK  ADVISORY  WRITE 20547 fe:00:9978760 0 EOF   (a waiter)
//
// with the device as hex major:minor and the inode in decimal. A pid of 0
// is a process outside this pid namespace, left out.
func lockingPIDs(paths ...string) (pids []int, known bool) {
	f, err := os.Open(procLocks)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	var ids []string
	for _, path := range paths {
		var st syscall.Stat_t
		if syscall.Lstat(path, &st) == nil {
			ids = append(ids, lockID(uint64(st.Dev), st.Ino))
		}
	}
	in := bufio.NewScanner(f)
	for in.Scan() {
		fields := strings.Fields(in.Text())
		if len(fields) < 6 || fields[1] == "->" || !slices.Contains(ids, fields[5]) {
			continue
		}
		if pid, err := strconv.Atoi(fields[4]); err == nil && pid > 0 && !slices.Contains(pids, pid) {
			pids = append(pids, pid)
		}
	}
	return pids, in.Err() == nil
}

// lockID is a file's device and inode as /proc/locks writes them.
func lockID(dev, ino uint64) string {
	return fmt.Sprintf("%02x:%02x:%d", unix.Major(dev), unix.Minor(dev), ino)
}

// processName is a process's command name (/proc/PID/comm), made
// printable, or "" if unknown.
func processName(pid int) string {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/comm")
	if err != nil {
		return ""
	}
	return printable(strings.TrimSpace(string(data)))
}

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
