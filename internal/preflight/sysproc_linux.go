package preflight

import "syscall"

// groupLeader starts the gate as the leader of its own process group, and
// has the kernel kill it if specdev dies without a chance to (SIGKILL):
// children die with us.
func groupLeader() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
