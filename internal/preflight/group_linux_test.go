package preflight

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// orphanGroup starts `sh` leading a new process group with TokenEnv=token
// in its environment, running `sleep 300 &`; with killLeader the sh is
// killed and reaped, so the sleep lives on alone in the group, as after
// a SIGKILL of specdev. It returns the group (leader's pid), the leader's
// start time and the sleep's pid.
func orphanGroup(t *testing.T, token string, killLeader bool) (pgid int, start uint64, sleep int) {
	t.Helper()
	cmd := exec.Command("sh", "-c", "sleep 300 & echo $!; wait")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Env = append(os.Environ(), TokenEnv+"="+token)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pgid = cmd.Process.Pid
	t.Cleanup(func() { syscall.Kill(-pgid, syscall.SIGKILL); cmd.Wait() })
	leader, _ := readProc(pgid)
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	if sleep, err = strconv.Atoi(strings.TrimSpace(line)); err != nil {
		t.Fatal(err)
	}
	// /proc/PID/environ may read empty while the child execs sleep
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
		if comm, _ := os.ReadFile("/proc/" + strconv.Itoa(sleep) + "/comm"); string(comm) == "sleep\n" {
			break
		}
	}
	if killLeader {
		cmd.Process.Kill()
		cmd.Wait()
	}
	return pgid, leader.start, sleep
}

// running reports whether pid runs (a zombie does not).
func running(pid int) bool {
	p, ok := readProc(pid)
	return ok && !p.zombie
}

// goneRunner is a Group's runner that is no longer there: this process
// with another start time (a reused pid).
func goneRunner(g Group) Group {
	self, _ := readProc(os.Getpid())
	g.Runner, g.RunnerStart, g.Boot = os.Getpid(), self.start+1, bootID()
	return g
}

func TestReapEndsTheOrphanedGroup(t *testing.T) {
	token := newToken()
	pgid, start, sleep := orphanGroup(t, token, true)
	if !running(sleep) {
		t.Fatal("the sleep died with its shell: nothing to reap")
	}
	if !Reap(goneRunner(Group{ID: pgid, Start: start, Token: token})) {
		t.Error("Reap: got false (record kept), want true")
	}
	if running(sleep) {
		t.Errorf("the gate's child (pid %d) outlived Reap", sleep)
	}
}

func TestReapEndsAGroupWhoseLeaderLives(t *testing.T) {
	pgid, start, sleep := orphanGroup(t, newToken(), false)
	Reap(goneRunner(Group{ID: pgid, Start: start}))
	if running(pgid) || running(sleep) {
		t.Errorf("leader running %v, child running %v after Reap; want both gone", running(pgid), running(sleep))
	}
}

// A group of the same number that is not the gate's (the pid was reused:
// another start time, and not the run's token) is never killed.
func TestReapSparesAnotherGroup(t *testing.T) {
	pgid, start, sleep := orphanGroup(t, newToken(), false)
	if !Reap(goneRunner(Group{ID: pgid, Start: start + 1, Token: newToken()})) {
		t.Error("Reap: got false, want true (the record is done with)")
	}
	if !running(pgid) || !running(sleep) {
		t.Error("Reap killed a group that was not the gate's")
	}
}

// While the specdev that runs the gate lives, its gate is its own.
func TestReapLeavesALiveRunnersGate(t *testing.T) {
	token := newToken()
	pgid, start, sleep := orphanGroup(t, token, true)
	self, _ := readProc(os.Getpid())
	g := Group{ID: pgid, Start: start, Token: token, Runner: os.Getpid(), RunnerStart: self.start, Boot: bootID()}
	if Reap(g) {
		t.Error("Reap: got true, want false (the runner lives: keep the record)")
	}
	if !running(sleep) {
		t.Error("Reap killed the gate of a live runner")
	}
	g.Boot = "another boot"
	if !Reap(g) || !running(sleep) {
		t.Error("a record of another boot: want it done with, and nothing killed")
	}
}

// Run hands the caller its gate's group as soon as the gate runs, and the
// gate's processes carry the run's token.
func TestRunReportsItsGroup(t *testing.T) {
	var got Group
	res := Run(context.Background(), t.TempDir(), []string{"sh", "-c", "echo $$; echo $" + TokenEnv}, time.Minute, func(g Group) { got = g })
	self, _ := readProc(os.Getpid())
	lines := strings.Fields(res.Output)
	if len(lines) != 2 || lines[0] != strconv.Itoa(got.ID) || lines[1] != got.Token || len(got.Token) != 32 {
		t.Errorf("gate printed %q; group %+v", res.Output, got)
	}
	if got.Start == 0 || got.Runner != os.Getpid() || got.RunnerStart != self.start || got.Boot != bootID() || got.Boot == "" {
		t.Errorf("group %+v; want a start time, this process as runner (start %d), boot %q", got, self.start, bootID())
	}
}
