package tests

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestScripts runs every scenario in testdata/script against the real
// binary. Each .txtar file is one behaviour, as a user runs it.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:   "testdata/script",
		Setup: setupScript,
		Cmds: map[string]func(*testscript.TestScript, bool, []string){
			"jsonone":  cmdJSONOne,
			"waitfile": cmdWaitFile,
			"gitrepo":  cmdGitRepo,
			"backdate": cmdBackdate,
			"exitcode": cmdExitCode,
			"events":   cmdEvents,
			"lease":    cmdLease,
			"maxratio": cmdMaxRatio,
			"dead":     cmdDead,
		},
		RequireUniqueNames: true,
	})
}

func setupScript(env *testscript.Env) error {
	env.Setenv("PATH", binDir+string(os.PathListSeparator)+env.Getenv("PATH"))
	env.Setenv("HOME", env.WorkDir)
	// Consent to run gates is kept outside the project ($WORK), as it is
	// outside the repository for a user.
	config, err := os.MkdirTemp("", "specdev-config-")
	if err != nil {
		return err
	}
	env.Defer(func() { os.RemoveAll(config) })
	env.Setenv("SPECDEV_CONFIG_HOME", config)
	// Caches (the poll cache, the stop hook's counts) too: in the user's
	// cache folder, never in the project.
	env.Setenv("XDG_CACHE_HOME", filepath.Join(config, "cache"))
	if coverDir != "" {
		env.Setenv("GOCOVERDIR", coverDir) // main_test.go: the scenarios count towards coverage
	}
	for k, v := range map[string]string{
		"GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "test@example.com",
		"GIT_COMMITTER_NAME": "Test", "GIT_COMMITTER_EMAIL": "test@example.com",
		"GIT_CONFIG_NOSYSTEM": "1", "NO_COLOR": "1",
	} {
		env.Setenv(k, v)
	}
	return nil
}

// jsonone: stdout is exactly one JSON document and nothing else.
func cmdJSONOne(ts *testscript.TestScript, neg bool, args []string) {
	out := ts.ReadFile("stdout")
	dec := json.NewDecoder(strings.NewReader(out))
	var v any
	err := dec.Decode(&v)
	if err == nil {
		if _, rest := dec.Token(); rest != io.EOF {
			err = rest
			if err == nil {
				err = io.ErrUnexpectedEOF
			}
		}
	}
	if neg {
		if err == nil {
			ts.Fatalf("stdout is one JSON document")
		}
		return
	}
	if err != nil {
		ts.Fatalf("stdout is not exactly one JSON document (%v):\n%s", err, out)
	}
}

// waitfile PATH TEXT [SECONDS]: wait until PATH exists and contains TEXT.
func cmdWaitFile(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 2 {
		ts.Fatalf("usage: waitfile PATH TEXT [SECONDS]")
	}
	limit := 20 * time.Second
	if len(args) == 3 {
		d, err := time.ParseDuration(args[2] + "s")
		ts.Check(err)
		limit = d
	}
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		data, err := os.ReadFile(ts.MkAbs(args[0]))
		if err == nil && bytes.Contains(data, []byte(args[1])) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	ts.Fatalf("%s did not contain %q within %s", args[0], args[1], limit)
}

// gitrepo: make the work dir a git repository with one commit of the
// files already there.
func cmdGitRepo(ts *testscript.TestScript, neg bool, args []string) {
	for _, argv := range [][]string{
		{"init", "-q", "-b", "main"},
		{"add", "-A"},
		{"-c", "commit.gpgsign=false", "commit", "-q", "-m", "initial", "--allow-empty"},
	} {
		ts.Exec("git", argv...)
	}
}

// backdate ASSIGNMENT DURATION: make a review look idle for DURATION by
// moving its progress file's last_activity back (what a crashed reviewer
// leaves behind).
func cmdBackdate(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: backdate ASSIGNMENT DURATION")
	}
	d, err := time.ParseDuration(args[1])
	ts.Check(err)
	path := ts.MkAbs(filepath.Join(".specdev", "assignments", args[0], "review_progress.json"))
	data, err := os.ReadFile(path)
	ts.Check(err)
	var doc map[string]any
	ts.Check(json.Unmarshal(data, &doc))
	doc["last_activity"] = time.Now().Add(-d).UTC().Format(time.RFC3339Nano)
	out, err := json.MarshalIndent(doc, "", "  ")
	ts.Check(err)
	ts.Check(os.WriteFile(path, out, 0o644))
}

// exitcode N PROGRAM [ARGS...]: run PROGRAM like exec (stdout and stderr
// are kept for the next stdout/stderr checks) and fail unless it exits
// with exactly N.
func cmdExitCode(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exitcode N PROGRAM [ARGS...] (no negation)")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var exitErr *exec.ExitError
		if !errors.As(err, &exitErr) {
			ts.Fatalf("%s: %v", args[1], err)
		}
		got = exitErr.ExitCode()
	}
	if got != want {
		ts.Fatalf("%s exited with %d, want %d", args[1], got, want)
	}
}

// events ASSIGNMENT: print the event names of the assignment's
// review_history.jsonl to stdout, one a line, for `cmp stdout want`.
func cmdEvents(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: events ASSIGNMENT")
	}
	data := ts.ReadFile(filepath.Join(".specdev", "assignments", args[0], "review_history.jsonl"))
	for _, line := range strings.Split(strings.TrimSpace(data), "\n") {
		var e struct {
			Event string `json:"event"`
		}
		ts.Check(json.Unmarshal([]byte(line), &e))
		fmt.Fprintln(ts.Stdout(), e.Event)
	}
}

// lease SESSION [ASSIGNMENT]: set SPECDEV_LEASE to the lease of the
// review SESSION holds (read from the progress files), as an agent copies
// it from the briefing; with no such review, unset it.
func cmdLease(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 1 || len(args) > 2 {
		ts.Fatalf("usage: lease SESSION [ASSIGNMENT]")
	}
	which := "*"
	if len(args) == 2 {
		which = args[1]
	}
	files, err := filepath.Glob(filepath.Join(nearestStateDir(ts.MkAbs(".")), "assignments", which, "review_progress.json"))
	ts.Check(err)
	lease := ""
	for _, f := range files {
		data, err := os.ReadFile(f)
		ts.Check(err)
		var p struct {
			SessionID string `json:"session_id"`
			Lease     string `json:"lease"`
		}
		if json.Unmarshal(data, &p) == nil && p.SessionID == args[0] {
			lease = p.Lease
		}
	}
	ts.Setenv("SPECDEV_LEASE", lease)
}

// maxratio SMALL BIG R: the file SMALL is at most R times the size of BIG
// (a follow-up briefing against the first one, say).
func cmdMaxRatio(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: maxratio SMALL BIG RATIO")
	}
	small, big := len(ts.ReadFile(args[0])), len(ts.ReadFile(args[1]))
	ratio, err := strconv.ParseFloat(args[2], 64)
	ts.Check(err)
	if big == 0 || float64(small) > ratio*float64(big) {
		ts.Fatalf("%s is %d bytes, %s %d: %.2f of it, more than %s", args[0], small, args[1], big, float64(small)/float64(max(big, 1)), args[2])
	}
	ts.Logf("%s is %d bytes, %s %d: %.2f of it", args[0], small, args[1], big, float64(small)/float64(big))
}

// dead PIDFILE: the process whose pid the file holds is gone (see alive).
func cmdDead(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: dead PIDFILE")
	}
	pid, err := strconv.Atoi(strings.TrimSpace(ts.ReadFile(args[0])))
	ts.Check(err)
	if alive(pid) {
		ts.Fatalf("process %d is still alive", pid)
	}
}

// nearestStateDir is the .specdev folder specdev would find from dir.
func nearestStateDir(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		if info, err := os.Stat(filepath.Join(d, ".specdev")); err == nil && info.IsDir() {
			return filepath.Join(d, ".specdev")
		}
		if filepath.Dir(d) == d {
			return filepath.Join(dir, ".specdev")
		}
	}
}
