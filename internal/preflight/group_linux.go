package preflight

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// groupOf describes the group the gate's first process pid leads, run by
// this process, with token in its environment.
func groupOf(pid int, token string) Group {
	leader, _ := readProc(pid)
	self, _ := readProc(os.Getpid())
	return Group{ID: pid, Start: leader.start, Token: token, Runner: os.Getpid(), RunnerStart: self.start, Boot: bootID()}
}

// Reap ends the recorded gate group g if the specdev that ran it is gone,
// and waits up to a second for its processes to die. It reports whether
// the record is done with: false while that specdev still runs (it ends
// its own gate, and stops it if it loses the review).
func Reap(g Group) bool {
	if g.Boot != bootID() {
		return true // a reboot ended it
	}
	if p, ok := readProc(g.Runner); ok && !p.zombie && p.start == g.RunnerStart {
		return false
	}
	for end := time.Now().Add(time.Second); time.Now().Before(end) && g.alive(); {
		syscall.Kill(-g.ID, syscall.SIGKILL)
		time.Sleep(10 * time.Millisecond)
	}
	return true
}

// alive reports whether a live process of the group is the gate's: its
// first process (by its start time), or one carrying the run's token.
func (g Group) alive() bool {
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		p, ok := readProc(pid)
		if !ok || p.zombie || p.pgrp != g.ID || p.start < g.Start {
			continue
		}
		if pid == g.ID && p.start == g.Start || carries(pid, g.Token) {
			return true
		}
	}
	return false
}

// proc is what Reap needs of /proc/PID/stat.
type proc struct {
	pgrp   int
	start  uint64 // clock ticks after boot
	zombie bool
}

// readProc reads /proc/PID/stat. The command name (second field) may hold
// spaces and parentheses, so the fields are counted from the last ")".
func readProc(pid int) (proc, bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	i := bytes.LastIndexByte(data, ')')
	if err != nil || i < 0 {
		return proc{}, false
	}
	f := strings.Fields(string(data[i+1:])) // f[0] is field 3, the state
	if len(f) < 20 {
		return proc{}, false
	}
	pgrp, err1 := strconv.Atoi(f[2])
	start, err2 := strconv.ParseUint(f[19], 10, 64)
	return proc{pgrp: pgrp, start: start, zombie: f[0] == "Z"}, err1 == nil && err2 == nil
}

// carries reports whether pid's environment holds TokenEnv=token.
func carries(pid int, token string) bool {
	if token == "" {
		return false
	}
	env, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	return err == nil && bytes.Contains(append([]byte{0}, env...), []byte("\x00"+TokenEnv+"="+token+"\x00"))
}

func bootID() string {
	id, _ := os.ReadFile("/proc/sys/kernel/random/boot_id")
	return strings.TrimSpace(string(id))
}

// GroupLeader starts a gate (or an agent) as the leader of its own
// process group, and has the kernel kill it if specdev dies without a
// chance to (SIGKILL): children die with us.
func GroupLeader() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
