package tests

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// machines are two clones of one bare repository, each a "machine" that
// shares nothing with the other but the remote (origin): a is the
// implementer's, on a feature branch, b the reviewer's.
type machines struct {
	base, url, a, b string
	stop            func() // stops the git daemon (file://: nothing to stop)
}

// twoMachines makes the bare repository (served by git daemon on a free
// port, or as file://), clone a with specdev init and config.json set to
// config (committed and pushed, so b's clone has it), and clone b.
func twoMachines(t *testing.T, daemon bool, config string) machines {
	t.Helper()
	m := machines{base: t.TempDir(), stop: func() {}}
	m.a, m.b = filepath.Join(m.base, "a"), filepath.Join(m.base, "b")
	gitIn(t, m.base, "init", "-q", "--bare", "-b", "main", "srv.git")
	m.url = "file://" + filepath.Join(m.base, "srv.git")
	if daemon {
		m.url, m.stop = gitDaemon(t, m.base)
	}
	if err := os.Mkdir(m.a, 0o755); err != nil {
		t.Fatal(err)
	}
	gitIn(t, m.a, "init", "-q", "-b", "main")
	gitIn(t, m.a, "commit", "-q", "--allow-empty", "-m", "initial")
	if _, errText, code := runSpecdev(t, m.a, "init"); code != 0 {
		t.Fatalf("specdev init: %s", errText)
	}
	writeFiles(t, m.a, map[string]string{".specdev/config.json": config})
	gitIn(t, m.a, "add", "-A")
	gitIn(t, m.a, "commit", "-q", "-m", "specdev")
	gitIn(t, m.a, "remote", "add", "origin", m.url)
	gitIn(t, m.a, "push", "-q", "origin", "main")
	gitIn(t, m.base, "clone", "-q", m.url, "b")
	gitIn(t, m.a, "checkout", "-q", "-b", "feature")
	return m
}

// gitDaemon serves the repositories under base over git:// (pushes
// allowed) on a free port until stop or the end of the test.
func gitDaemon(t *testing.T, base string) (url string, stop func()) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(gitExecPath(t), "git-daemon")); err != nil {
		t.Skip("git daemon is not installed")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	_, port, _ := net.SplitHostPort(addr)
	cmd := exec.Command("git", "daemon", "--reuseaddr", "--export-all", "--enable=receive-pack", "--base-path="+base,
		"--listen=127.0.0.1", "--port="+port, base)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // stop ends the children serving a connection too
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	stop = func() {
		once.Do(func() {
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			cmd.Wait()
		})
	}
	t.Cleanup(stop)
	for start := time.Now(); ; time.Sleep(10 * time.Millisecond) {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			break
		}
		if time.Since(start) > 10*time.Second {
			t.Fatalf("git daemon does not listen on %s", addr)
		}
	}
	return "git://" + addr + "/srv.git", stop
}

func gitExecPath(t *testing.T) string {
	out, err := exec.Command("git", "--exec-path").Output()
	if err != nil {
		t.Skip("git is not installed")
	}
	return strings.TrimSpace(string(out))
}

// gitOut runs git in dir and returns its trimmed stdout.
func gitOut(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %s: %v", strings.Join(args, " "), err)
	}
	return strings.TrimSpace(string(out))
}

// remoteID is the commit origin holds for an assignment ("" for none).
func remoteID(t *testing.T, dir, name string) string {
	t.Helper()
	id, _, _ := strings.Cut(gitOut(t, dir, "ls-remote", "origin", "refs/specdev/assignments/"+name), "\t")
	return id
}

// stateFile is one file of an assignment folder of a machine ("" if none).
func stateFile(t *testing.T, root, name, file string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, ".specdev", "assignments", name, file))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return string(data)
}

// want runs specdev in root and checks its exit code and that its
// stdout holds each of the texts; it returns stdout.
func want(t *testing.T, root string, code int, texts []string, args ...string) string {
	t.Helper()
	out, errText, got := runSpecdev(t, root, args...)
	if got != code {
		t.Fatalf("specdev %s in %s: exit %d, want %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), filepath.Base(root), got, code, out, errText)
	}
	for _, text := range texts {
		if !strings.Contains(out, text) {
			t.Errorf("specdev %s in %s: stdout lacks %q:\n%s", strings.Join(args, " "), filepath.Base(root), text, out)
		}
	}
	return out
}

// claimIn claims a review in root for session and returns the claimed
// assignment and the lease.
func claimIn(t *testing.T, root, session string, args ...string) (assignment, lease string) {
	t.Helper()
	out := want(t, root, 0, nil, append([]string{"--json", "check", "--session", session}, args...)...)
	var r reply
	if err := json.Unmarshal([]byte(out), &r); err != nil || r.State != "claimed" {
		t.Fatalf("specdev check in %s: %v, state %q:\n%s", filepath.Base(root), err, r.State, out)
	}
	return r.Data.Assignment, r.Data.Lease
}

// asReviewer is the flags of a reviewer command.
func asReviewer(session, lease string, args ...string) []string {
	return append(args, "--session", session, "--lease", lease)
}

// waitForFile waits until path exists.
func waitForFile(t *testing.T, path string) {
	t.Helper()
	for start := time.Now(); ; time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(path); err == nil {
			return
		}
		if time.Since(start) > 30*time.Second {
			t.Fatalf("%s never appeared", path)
		}
	}
}

func configJSON(fields string) string {
	return fmt.Sprintf(`{"version": 1, "remote": "origin", %s}`, fields)
}
