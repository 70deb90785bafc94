//go:build unix && !linux

package preflight

import "syscall"

// GroupLeader starts a gate (or an agent) as the leader of its own process group.
func GroupLeader() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
