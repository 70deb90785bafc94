package checkpoint

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"syscall"

	"github.com/specdev/specdev/protocol"
)

// lockFileLimit bounds what is read of a lock file: a holder line is far
// less (an older specdev wrote two cache lines after it).
const lockFileLimit = 4096

// maxHolderRunes bounds the holder text shown in a BUSY message: the lock
// file is a plain file anyone can write into.
const maxHolderRunes = 200

// lockHolder names who holds the assignment's lock, for a BUSY message.
// The lock file's holder line is only believed if the process it names
// really holds the lock: the line is written by specdev after it takes the
// lock and cleared when it lets go, but a killed specdev leaves its line
// behind, and a process holding the flock without specdev (flock(1), a
// script) writes none. Where the kernel tells who holds a lock (Linux:
// /proc/locks), a holder the line does not name is named by its process
// id and command; else the line is believed while its process lives.
// Empty means unknown ("another process").
func (a *Assignment) lockHolder() string {
	data, _ := readStateFile(a.path(LockFile), a.rel(LockFile), lockFileLimit)
	line, _, _ := strings.Cut(string(data), "\n")
	line = strings.TrimSpace(line)
	pids, known := lockingPIDs(a.path(LockFile), a.Dir)
	return describeHolder(printable(line), pids, known)
}

// describeHolder picks the holder text: the holder line if its process
// holds the lock (pids, when known), else the first process that does.
func describeHolder(line string, pids []int, known bool) string {
	pid := linePID(line)
	switch {
	case !known && pid > 0 && processAlive(pid):
		return line
	case !known:
		return ""
	case pid > 0 && slices.Contains(pids, pid):
		return line
	case len(pids) > 0:
		if name := processName(pids[0]); name != "" {
			return fmt.Sprintf("pid %d (%s)", pids[0], name)
		}
		return fmt.Sprintf("pid %d", pids[0])
	}
	return ""
}

// linePID is the process id of a holder line "pid 1234 (…) since …", or 0.
func linePID(line string) int {
	var pid int
	if _, err := fmt.Sscanf(line, "pid %d", &pid); err != nil {
		return 0
	}
	return pid
}

// processAlive reports whether a process with this id exists (EPERM: it
// exists, owned by someone else).
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// printable makes s safe to show (protocol.SafeText), at most
// maxHolderRunes characters of it.
func printable(s string) string { return clipRunes(protocol.SafeText(s), maxHolderRunes) }
