// Package preflight runs the mechanical gate (typically
// .specdev/verify-gates.sh) before a review and reports what happened.
//
// Invariants:
//   - the gate runs as an argv, never through a shell: arguments reach it
//     verbatim, nothing is interpolated;
//   - it runs in its own process group with stdin on /dev/null (on Linux the
//     kernel kills it if specdev itself is killed, and the next claim ends
//     what it started: see Reap); on timeout
//     or cancellation the whole group is killed (a script's children too),
//     and whatever of the group is still alive when the gate exits is killed
//     then, so nothing it started in its group outlives Run;
//   - Run returns at the latest waitDelay after the time limit or ctx ends,
//     even if a process that left the group keeps the output pipe open;
//   - the result's Output is valid UTF-8 of at most MaxOutput bytes (plus a
//     one-line marker saying how much was cut from the start).
package preflight

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/specdev/specdev/protocol"
)

// waitDelay is how long Run waits for the output pipe to close after the
// gate exited or was killed, in case a process that escaped its group still
// holds it.
const waitDelay = time.Second

// Result is what happened when the gate ran: the result the review
// keeps, and whether the gate could not even start.
type Result struct {
	protocol.PreflightResult
	// Setup is why nothing ran, when that is how the gate is set up (no
	// command, a missing or not executable program, a missing #!
	// interpreter, a folder it cannot run in); Error says it in words. A
	// gate stopped by ctx before it started is not a set-up problem.
	Setup Problem
}

// NotStarted reports whether the gate could not start because of how it
// is set up: nothing ran, and nothing about the change was learnt.
func (r Result) NotStarted() bool { return r.Setup != "" }

// Run runs argv in dir with a time limit and returns what happened.
// It never uses a shell.
//
// The result's At is left zero: the caller stamps it. started, if not nil, is called
// with the gate's group as soon as it runs, for the caller to record.
func Run(ctx context.Context, dir string, argv []string, timeout time.Duration, started func(Group)) Result {
	res := Result{PreflightResult: protocol.PreflightResult{Command: slices.Clone(argv), ExitCode: -1}}
	if res.Error, res.Setup = checkStart(dir, argv); res.Setup != "" {
		return res
	}

	runCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	out := newTail(MaxOutput)
	cmd := exec.CommandContext(runCtx, argv[0], argv[1:]...)
	token := newToken()
	// Stdout and Stderr are the same writer: one pipe, so the order is kept.
	cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = dir, append(os.Environ(), TokenEnv+"="+token), out, out
	cmd.SysProcAttr = GroupLeader()
	cmd.Cancel = func() error { return KillGroup(cmd.Process.Pid) }
	cmd.WaitDelay = waitDelay

	start := time.Now()
	if err := cmd.Start(); err != nil {
		res.DurationMS = time.Since(start).Milliseconds()
		res.Error, res.Setup = startError(dir, argv[0], err)
		return res
	}
	if started != nil {
		started(groupOf(cmd.Process.Pid, token))
	}
	// An error here is the exit status, a kill, or ErrWaitDelay (a process
	// that left the group kept the output open): all read from ProcessState.
	_ = cmd.Wait()
	// Kill what is left of the group. The leader is reaped, but its pid
	// cannot be reused as long as the group has members.
	_ = KillGroup(cmd.Process.Pid)
	res.DurationMS = time.Since(start).Milliseconds()
	res.Output = out.String()

	res.ExitCode = cmd.ProcessState.ExitCode() // -1 when killed by a signal
	res.Passed = res.ExitCode == 0
	if !cmd.ProcessState.Exited() {
		res.Error = stopError(ctx, runCtx, timeout, cmd.ProcessState)
	}
	return res
}

// stopError says why a gate that did not exit on its own stopped: ctx is
// the caller's context, runCtx the one with the time limit.
func stopError(ctx, runCtx context.Context, timeout time.Duration, state *os.ProcessState) string {
	switch {
	case ctx.Err() != nil:
		return fmt.Sprintf("stopped before it finished: %v", context.Cause(ctx))
	case runCtx.Err() != nil:
		return fmt.Sprintf("timed out after %v", timeout)
	}
	return state.String() // e.g. "signal: killed"
}

// KillGroup kills the process group led by pid (a gate's, or an agent's:
// internal/agent starts agents as gates are started). A group that is
// already gone is reported as os.ErrProcessDone, as exec.Cmd.Cancel
// expects.
func KillGroup(pid int) error {
	err := syscall.Kill(-pid, syscall.SIGKILL)
	if errors.Is(err, syscall.ESRCH) {
		return os.ErrProcessDone
	}
	return err
}

// A gate runs in its own process group, and Run ends that group when the
// gate exits, times out or is stopped. If specdev itself is killed
// (SIGKILL) nothing of Run is left to do that: on Linux the kernel kills
// the gate's first process, but what it started (`sleep 300 &`) lives on
// in the group. So the caller records the group while the gate runs, and
// the next claim of that review calls Reap: it ends a group whose specdev
// is gone, so that the next gate never runs beside the last one.
//
// A pid can be reused, so Reap kills a group only when it is sure the
// group is the gate's: its first process with the start time recorded,
// or a process carrying the run's token in its environment (TokenEnv,
// which every process of the gate inherits unless it clears its
// environment). Telling that needs /proc, so Reap kills only on Linux.

// TokenEnv is the environment variable that marks the processes of one
// gate run.
const TokenEnv = "SPECDEV_GATE_RUN"

// Group is a running gate's process group, as recorded for Reap.
type Group struct {
	ID          int    `json:"pgid"`         // the group, led by the gate's first process
	Start       uint64 `json:"start"`        // that process's start time, in clock ticks after boot
	Token       string `json:"token"`        // the value of TokenEnv in the gate's processes
	Runner      int    `json:"runner"`       // the specdev process that runs the gate
	RunnerStart uint64 `json:"runner_start"` // its start time
	Boot        string `json:"boot"`         // the boot the start times count from
}

// newToken is a fresh value for TokenEnv: 32 hex digits, as the gate's
// record in the assignment folder has it.
func newToken() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// MaxOutput is how many bytes of a gate's output are kept: the last ones,
// where a failing gate prints its error.
const MaxOutput = 64 << 10

// tail is an io.Writer that keeps the last limit bytes written to it and
// counts the rest.
type tail struct {
	limit int

	mu      sync.Mutex
	buf     []byte // the last bytes written; up to 2*limit between trims
	dropped int64  // bytes written before buf[0]
}

func newTail(limit int) *tail { return &tail{limit: limit} }

// Write keeps p, trimming what falls out of the last limit bytes. It never
// fails, so a chatty gate is never stopped by a full buffer.
func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	// exec hands over the output in pieces of 32 KiB, so buf stays within
	// 2*limit plus one piece.
	t.buf = append(t.buf, p...)
	if cut := len(t.buf) - t.limit; cut > t.limit {
		t.dropped += int64(cut)
		t.buf = append(t.buf[:0], t.buf[cut:]...)
	}
	return len(p), nil
}

// String returns the kept output as valid UTF-8 of at most limit bytes,
// prefixed with "[… N bytes cut …]\n" when the start was cut. It never starts
// in the middle of a character.
func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	// Characters are taken from the end while they fit. Converting to runes
	// (below) replaces each byte that is not part of valid UTF-8 by U+FFFD,
	// three bytes, and it is counted so here.
	start, size := len(t.buf), 0
	for start > 0 {
		r, n := utf8.DecodeLastRune(t.buf[:start])
		if size += utf8.RuneLen(r); size > t.limit {
			break
		}
		start -= n
	}
	// The rest of a character whose start was dropped is left out too.
	for n := 0; t.dropped > 0 && n < utf8.UTFMax-1 && start < len(t.buf) && !utf8.RuneStart(t.buf[start]); n++ {
		start++
	}
	text := string([]rune(string(t.buf[start:])))
	if cut := t.dropped + int64(start); cut > 0 {
		return fmt.Sprintf("[… %d bytes cut …]\n", cut) + text
	}
	return text
}
