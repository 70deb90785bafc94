//go:build unix && !linux

package preflight

import (
	"os"
	"syscall"
)

func groupOf(pid int, token string) Group {
	return Group{ID: pid, Token: token, Runner: os.Getpid()}
}

// Reap does nothing here: without /proc a reused pid cannot be told from
// the gate's, so the record is dropped and nothing is killed.
func Reap(Group) bool { return true }

// GroupLeader starts a gate (or an agent) as the leader of its own process group.
func GroupLeader() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
