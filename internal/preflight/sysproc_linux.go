package preflight

import "syscall"

// GroupLeader starts a gate (or an agent) as the leader of its own
// process group, and has the kernel kill it if specdev dies without a
// chance to (SIGKILL): children die with us.
func GroupLeader() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
