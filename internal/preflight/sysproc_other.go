//go:build unix && !linux

package preflight

import "syscall"

// groupLeader starts the gate as the leader of its own process group.
func groupLeader() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
