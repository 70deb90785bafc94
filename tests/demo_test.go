package tests

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// make demo is the README's first command: scripts/demo.sh runs a whole
// review hand-off against a specdev binary and asserts every step's exit
// code itself. These tests run it, with POSIX sh, against the binary
// under test, so that CI proves the demo still works and still tells
// the story it tells: the follow-up briefing, the takeover, a JSON
// answer, the blocked and then allowed commit, the kept repository.

// demoScript is the demo, from this package's folder.
const demoScript = "../scripts/demo.sh"

// demoEnv is the test's environment without NO_COLOR and TMPDIR, plus
// TMPDIR=tmp (the demo keeps its repository there) and the given pairs.
func demoEnv(tmp string, extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "NO_COLOR=") && !strings.HasPrefix(kv, "TMPDIR=") {
			env = append(env, kv)
		}
	}
	return append(append(env, "TMPDIR="+tmp), extra...)
}

// In a pipe, without NO_COLOR: the whole story, in order, and not one
// escape code.
func TestDemo(t *testing.T) {
	t.Parallel()
	tmp := t.TempDir()
	cmd := exec.Command("sh", demoScript, specdevBin())
	cmd.Env = demoEnv(tmp, "TERM=xterm-256color")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("scripts/demo.sh: %v\nstderr:\n%s\nstdout:\n%s", err, stderr.String(), stdout.String())
	}
	out := stdout.String()
	if i := strings.IndexByte(out, 0x1b); i >= 0 {
		t.Errorf("the demo wrote an escape code to a pipe, at byte %d: %q", i, out[max(0, i-40):min(len(out), i+40)])
	}
	assertInOrder(t, out, []string{
		"\"stale_after\": \"3s\"",
		"$ specdev work request --notes \"throttles failed logins\"",
		"Range: ",
		"$ specdev check --session rv-alice",
		"Review claimed: 00001_login_throttling (gate review, round 1 of 3)",
		"[exit 4: CHANGES_REQUESTED",
		"$ specdev work --timeout 2m > ../work-wait.out 2>&1 &",
		"Follow-up review of 00001_login_throttling, round 2 of 3",
		"Review passed: 00001_login_throttling, round 2 of 3",
		"[exit 0: OK — the waiting specdev work woke up with the pass]",
		"in review, STALE",
		"Taken over from session rv-bob",
		"[exit 8: CONFLICT — rv-bob no longer holds the review]",
		"$ specdev --json decide",
		"\"state\": \"awaiting_approval\"",
		"Approved: 00002_password_reset passed",
		"$ specdev hook install pre-commit",
		"$ git commit -m \"auth: the reset mail\"",
		"the review gate blocked this commit",
		"[exit 1 — git refused the commit",
		"$ specdev work request --staged",
		"$ git commit -m \"auth: the reset mail\"",
		"Gate review open: the 1 staged file",
		"] auth: the reset mail", // git's "[branch hash] subject"
		"[exit 0 — committed]",
	})
	m := regexp.MustCompile(`(?m)^The demo repository is kept at (.+): look at (\S+)$`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("the demo does not say where it kept its repository:\n%s", out)
	}
	if !strings.HasPrefix(m[1], tmp) {
		t.Errorf("the demo kept its repository at %s, not under TMPDIR %s", m[1], tmp)
	}
	if _, err := os.Stat(filepath.Join(m[1], m[2])); err != nil {
		t.Errorf("the report the demo points to is not there: %v", err)
	}
}

// On a terminal with NO_COLOR set: plain text too.
func TestDemoNoColorOnTerminal(t *testing.T) {
	t.Parallel()
	cmd := exec.Command("sh", demoScript, specdevBin())
	cmd.Env = demoEnv(t.TempDir(), "TERM=xterm-256color", "NO_COLOR=1")
	out, err := onTerminal(t, cmd, 2*time.Minute)
	if err != nil {
		t.Fatalf("scripts/demo.sh on a terminal: %v; it wrote:\n%s", err, out.String())
	}
	if i := bytes.IndexByte(out.Bytes(), 0x1b); i >= 0 {
		t.Errorf("the demo wrote an escape code under NO_COLOR, at byte %d: %q", i, out.String()[max(0, i-40):min(out.Len(), i+40)])
	}
	if !strings.Contains(out.String(), "## The commit gate") {
		t.Errorf("no heading in the demo's output on a terminal:\n%s", out.String())
	}
}

// assertInOrder: each of wants appears in out, after the one before it.
func assertInOrder(t *testing.T, out string, wants []string) {
	t.Helper()
	rest := out
	for _, want := range wants {
		i := strings.Index(rest, want)
		if i < 0 {
			t.Fatalf("the demo's output lacks %q (after the lines before it in the test); output:\n%s", want, out)
		}
		rest = rest[i+len(want):]
	}
}
