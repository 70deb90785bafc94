package preflight_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/specdev/specdev/internal/preflight"
)

// The tests here are not parallel: a test that writes a script while another
// forks can make the exec fail with "text file busy".

// writeScript writes a shell script into dir with the given mode.
func writeScript(t *testing.T, dir, name, body string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"+body), mode); err != nil {
		t.Fatal(err)
	}
}

func run(t *testing.T, dir string, argv []string, timeout time.Duration) preflight.Result {
	t.Helper()
	res := preflight.Run(context.Background(), dir, argv, timeout, nil)
	if !slices.Equal(res.Command, argv) {
		t.Errorf("Command: got %q, want %q", res.Command, argv)
	}
	if !res.At.IsZero() {
		t.Errorf("At: got %v, want zero (the caller stamps it)", res.At)
	}
	return res
}

func TestRunPasses(t *testing.T) {
	dir := t.TempDir()
	writeScript(t, dir, "gate.sh", "echo gates ok\n", 0o755)
	res := run(t, dir, []string{"./gate.sh"}, time.Minute)
	if !res.Passed || res.ExitCode != 0 || res.Error != "" {
		t.Errorf("got passed=%v exit=%d error=%q, want passed, 0, no error", res.Passed, res.ExitCode, res.Error)
	}
	if got, want := res.Output, "gates ok\n"; got != want {
		t.Errorf("Output: got %q, want %q", got, want)
	}
}

func TestRunFailsKeepingOutputOrder(t *testing.T) {
	dir := t.TempDir()
	writeScript(t, dir, "gate.sh", `echo out1
echo err1 >&2
echo out2
echo err2 >&2
exit 3
`, 0o755)
	res := run(t, dir, []string{"./gate.sh"}, time.Minute)
	if res.Passed || res.ExitCode != 3 || res.Error != "" || res.NotStarted() {
		t.Errorf("got passed=%v exit=%d error=%q not started=%v, want failed, 3, no error, started", res.Passed, res.ExitCode, res.Error, res.NotStarted())
	}
	if got, want := res.Output, "out1\nerr1\nout2\nerr2\n"; got != want {
		t.Errorf("Output: got %q, want %q", got, want)
	}
}

func TestRunCannotStart(t *testing.T) {
	dir := t.TempDir()
	writeScript(t, dir, "not-executable.sh", "echo hi\n", 0o644)
	if err := os.WriteFile(filepath.Join(dir, "no-shebang.sh"), []byte("echo hi\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "bad-interpreter.sh"), []byte("#!/no/such/sh\necho hi\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		dir  string
		argv []string
		want string
	}{
		{"missing file", dir, []string{"./verify-gates.sh"}, "not found"},
		{"missing in PATH", dir, []string{"specdev-no-such-gate"}, "not found in PATH"},
		{"not executable", dir, []string{"./not-executable.sh"}, "permission denied (is it executable?)"},
		{"no shebang", dir, []string{"./no-shebang.sh"}, "not an executable format (does the script start with #!?)"},
		{"missing interpreter", dir, []string{"./bad-interpreter.sh"}, "its interpreter was not found (check the #! line)"},
		{"missing folder", filepath.Join(dir, "gone"), []string{"true"}, "cannot run in " + filepath.Join(dir, "gone") + ": no such file or directory"},
		{"empty argv", dir, nil, "no command given"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := run(t, tt.dir, tt.argv, time.Minute)
			if res.Passed || res.ExitCode != -1 {
				t.Errorf("got passed=%v exit=%d, want failed, -1", res.Passed, res.ExitCode)
			}
			if res.Error != tt.want {
				t.Errorf("Error: got %q, want %q", res.Error, tt.want)
			}
			if !res.NotStarted() {
				t.Errorf("NotStarted: got false, want true (a set-up problem, nothing ran)")
			}
			if res.Output != "" {
				t.Errorf("Output: got %q, want none", res.Output)
			}
		})
	}
}

// alive reports whether pid is a running process (a zombie is not: it is
// dead, only not reaped yet by whoever adopted it).
func alive(pid int) bool {
	if err := syscall.Kill(pid, 0); err != nil {
		return false
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true // no /proc: trust kill
	}
	// "pid (comm) S ...": the state follows the last ')'.
	s := string(stat)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}

// readPID reads the pid a script wrote into dir/name.
func readPID(t *testing.T, dir, name string) int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	return pid
}

// waitGone waits a little for pid to die; signals take a moment.
func waitGone(pid int) bool {
	for range 100 {
		if !alive(pid) {
			return true
		}
		time.Sleep(20 * time.Millisecond)
	}
	return false
}

func TestRunTimeoutKillsChildren(t *testing.T) {
	dir := t.TempDir()
	writeScript(t, dir, "gate.sh", `echo started
sleep 30 &
echo $! > child.pid
wait
echo never
`, 0o755)
	start := time.Now()
	res := run(t, dir, []string{"./gate.sh"}, 300*time.Millisecond)
	took := time.Since(start)
	if took > 2*time.Second {
		t.Errorf("Run took %v with a 300ms timeout", took)
	}
	if res.Passed || res.ExitCode != -1 {
		t.Errorf("got passed=%v exit=%d, want failed, -1", res.Passed, res.ExitCode)
	}
	if got, want := res.Error, "timed out after 300ms"; got != want {
		t.Errorf("Error: got %q, want %q", got, want)
	}
	if got, want := res.Output, "started\n"; got != want {
		t.Errorf("Output: got %q, want %q", got, want)
	}
	if pid := readPID(t, dir, "child.pid"); !waitGone(pid) {
		_ = syscall.Kill(pid, syscall.SIGKILL)
		t.Errorf("the script's child %d survived the timeout", pid)
	}
}

func TestRunCanceled(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	start := time.Now()
	res := preflight.Run(ctx, dir, []string{"sleep", "30"}, time.Hour, nil)
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("Run took %v after a cancel at 100ms", took)
	}
	if res.Passed || res.ExitCode != -1 {
		t.Errorf("got passed=%v exit=%d, want failed, -1", res.Passed, res.ExitCode)
	}
	if got, want := res.Error, "stopped before it finished: context canceled"; got != want {
		t.Errorf("Error: got %q, want %q", got, want)
	}
	if res.NotStarted() {
		t.Error("NotStarted: a gate stopped by a cancel is not a set-up problem")
	}
}

// A gate that could not start because the caller stopped first is not a
// set-up problem.
func TestRunCanceledBeforeStartIsNotSetup(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res := preflight.Run(ctx, t.TempDir(), []string{"true"}, time.Minute, nil)
	if res.Passed || res.NotStarted() {
		t.Errorf("got passed=%v not started=%v (%q), want failed and not a set-up problem", res.Passed, res.NotStarted(), res.Error)
	}
}

// A process that leaves the group (setsid) and keeps the output pipe open
// must not hang Run: waitDelay closes the pipe.
func TestRunEscapedChildDoesNotHang(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("needs setsid")
	}
	dir := t.TempDir()
	writeScript(t, dir, "gate.sh", `setsid sleep 30 &
echo $! > child.pid
echo done
`, 0o755)
	start := time.Now()
	res := run(t, dir, []string{"./gate.sh"}, time.Minute)
	took := time.Since(start)
	t.Cleanup(func() { _ = syscall.Kill(readPID(t, dir, "child.pid"), syscall.SIGKILL) })
	if took > 3*time.Second {
		t.Errorf("Run took %v; a process outside the group held the pipe", took)
	}
	if !res.Passed || res.ExitCode != 0 || res.Error != "" {
		t.Errorf("got passed=%v exit=%d error=%q, want passed, 0, no error", res.Passed, res.ExitCode, res.Error)
	}
	if got, want := res.Output, "done\n"; got != want {
		t.Errorf("Output: got %q, want %q", got, want)
	}
}

func TestRunCutsLongOutput(t *testing.T) {
	full, err := exec.Command("seq", "1", "20000").Output()
	if err != nil {
		t.Skip("needs seq:", err)
	}
	if len(full) <= preflight.MaxOutput {
		t.Fatalf("seq printed %d bytes, want more than %d", len(full), preflight.MaxOutput)
	}
	res := run(t, t.TempDir(), []string{"seq", "1", "20000"}, time.Minute)
	cut := len(full) - preflight.MaxOutput
	want := "[… " + strconv.Itoa(cut) + " bytes cut …]\n" + string(full[cut:])
	if res.Output != want {
		t.Errorf("Output: got %d bytes starting %q, want %d bytes starting %q",
			len(res.Output), head(res.Output), len(want), head(want))
	}
	if !res.Passed {
		t.Errorf("Passed: got false, want true (exit %d, %s)", res.ExitCode, res.Error)
	}
}

func head(s string) string {
	if len(s) > 40 {
		return s[:40]
	}
	return s
}

func TestRunSanitizesOutput(t *testing.T) {
	res := run(t, t.TempDir(), []string{"printf", `ok \377\376 end\n`}, time.Minute)
	if got, want := res.Output, "ok \uFFFD\uFFFD end\n"; got != want {
		t.Errorf("Output: got %q, want %q", got, want)
	}
}

func TestRunPassesArgvVerbatim(t *testing.T) {
	dir := t.TempDir()
	writeScript(t, dir, "args.sh", `for a in "$@"; do printf '[%s]\n' "$a"; done`+"\n", 0o755)
	args := []string{
		"two words",
		`it's "quoted"`,
		"$(touch pwned)",
		"`touch pwned`",
		"; touch pwned",
		"*",
		"$HOME",
		"",
	}
	res := run(t, dir, append([]string{"./args.sh"}, args...), time.Minute)
	var want strings.Builder
	for _, a := range args {
		want.WriteString("[" + a + "]\n")
	}
	if res.Output != want.String() {
		t.Errorf("Output: got %q, want %q", res.Output, want.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "pwned")); err == nil {
		t.Error("an argument was run by a shell: pwned exists")
	}
}
