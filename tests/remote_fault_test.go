package tests

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// requested is two machines (file://) with a pending request for a.go
// made in a.
func requested(t *testing.T, config string) machines {
	t.Helper()
	m := twoMachines(t, false, config)
	writeFiles(t, m.a, map[string]string{"a.go": "package a\n"})
	gitIn(t, m.a, "add", "-A")
	gitIn(t, m.a, "commit", "-q", "-m", "a")
	if err := os.MkdirAll(filepath.Join(m.a, ".specdev", "assignments", "00001_a"), 0o755); err != nil {
		t.Fatal(err)
	}
	want(t, m.a, 0, nil, "work", "request")
	return m
}

// TestRemoteKilledPush kills specdev -9 while git pushes a claim: before
// the push ran (the remote never saw it), and after the remote accepted
// it but before this machine copied it. Either way the next command
// converges: the folder becomes a copy of what the remote holds, with no
// staged copy left behind, and the claim is neither lost nor doubled.
func TestRemoteKilledPush(t *testing.T) {
	realGit, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not installed")
	}
	for _, tc := range []struct {
		name   string
		script string // runs the push (or not), then writes its pid and waits to be killed
		landed bool
	}{
		{"before the push", `echo $$ > "$MARK"; exec sleep 60`, false},
		{"after the push", `"$REAL" "$@"; echo $$ > "$MARK"; exec sleep 60`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := requested(t, configJSON(`"stale_after": "15m"`))
			bin := t.TempDir()
			wrapper := fmt.Sprintf("#!/bin/sh\ncase \" $* \" in *\" push \"*) %s;; esac\nexec \"$REAL\" \"$@\"\n", tc.script)
			if err := os.WriteFile(filepath.Join(bin, "git"), []byte(wrapper), 0o755); err != nil {
				t.Fatal(err)
			}
			mark := filepath.Join(bin, "pid")
			cmd := exec.Command(specdevBin(), "check", "--session", "rv-b")
			cmd.Dir = m.b
			cmd.Env = append(withoutSpecdevVars(os.Environ()), "PATH="+bin+":"+os.Getenv("PATH"), "REAL="+realGit, "MARK="+mark)
			p := startProc(t, cmd)
			waitForFile(t, mark)
			time.Sleep(50 * time.Millisecond) // the pid is whole
			p.kill()
			p.wait()
			data, _ := os.ReadFile(mark)
			if pid, err := strconv.Atoi(strings.TrimSpace(string(data))); err == nil {
				syscall.Kill(pid, syscall.SIGKILL)
			}

			remote := remoteID(t, m.b, "00001_a")
			onRemote := gitOut(t, m.b, "show", remote+":review_request.json")
			if landed := strings.Contains(onRemote, `"in_progress"`); landed != tc.landed {
				t.Fatalf("the claim landed on the remote: %v, want %v", landed, tc.landed)
			}
			if got := stateFile(t, m.b, "00001_a", "review_request.json"); !strings.Contains(got, `"pending"`) {
				t.Fatalf("the killed claim changed the folder here:\n%s", got)
			}

			_, lease := claimIn(t, m.b, "rv-b")
			out := want(t, m.b, 0, nil, "--json", "check", "--session", "rv-b", "--lease", lease)
			if !strings.Contains(out, `"kind": "own"`) {
				t.Errorf("the claim after the kill is not held:\n%s", out)
			}
			if id := strings.TrimSpace(stateFile(t, m.b, "00001_a", ".specdev.remote")); id != remoteID(t, m.b, "00001_a") {
				t.Errorf("the folder copies %s, the remote holds %s", id, remoteID(t, m.b, "00001_a"))
			}
			if history := stateFile(t, m.b, "00001_a", "review_history.jsonl"); strings.Count(history, `"claimed"`) != 1 {
				t.Errorf("want one claimed event in the history:\n%s", history)
			}
			if reclaimed := strings.Contains(stateFile(t, m.b, "00001_a", "review_history.jsonl"), `"reclaim"`); reclaimed != tc.landed {
				t.Errorf("reclaimed: %v, want %v (the claim that landed lost its lease with the kill)", reclaimed, tc.landed)
			}
			entries, _ := os.ReadDir(filepath.Join(m.b, ".specdev", "assignments", "00001_a"))
			for _, e := range entries {
				if strings.Contains(e.Name(), ".tmp-") {
					t.Errorf("left behind: %s", e.Name())
				}
			}
			want(t, m.a, 3, []string{"Review in progress: 00001_a", "reviewer rv-b"}, "work")
		})
	}
}

// TestRemoteServerStops: the git daemon stops while a reviewer waits on
// it, and while nothing can reach it. Each command fails at once with a
// clear error naming the remote (exit 1), and nothing is lost or changed
// here: the review recorded before stays as it was.
func TestRemoteServerStops(t *testing.T) {
	m := twoMachines(t, true, configJSON(`"remote_poll": "200ms"`))
	writeFiles(t, m.a, map[string]string{"a.go": "package a\n", "b.go": "package a\n"})
	gitIn(t, m.a, "add", "-A")
	gitIn(t, m.a, "commit", "-q", "-m", "a")
	if err := os.MkdirAll(filepath.Join(m.a, ".specdev", "assignments", "00001_a"), 0o755); err != nil {
		t.Fatal(err)
	}
	want(t, m.a, 0, nil, "work", "request")
	_, lease := claimIn(t, m.b, "rv-b")
	want(t, m.b, 0, nil, asReviewer("rv-b", lease, "check", "record", "a.go")...)
	before := map[string]string{}
	for _, f := range []string{"review_request.json", "review_progress.json", "review_history.jsonl", "review_report.md", ".specdev.remote"} {
		before[f] = stateFile(t, m.b, "00001_a", f)
	}

	waiting := startSpecdev(t, m.b, "check", "--session", "rv-c", "--timeout", "60s")
	time.Sleep(700 * time.Millisecond) // it polls the remote
	stopped := time.Now()
	m.stop()
	code := waiting.wait()
	if took := time.Since(stopped); code != 1 || took > 10*time.Second || !strings.Contains(waiting.errText(), "cannot reach the remote origin") {
		t.Fatalf("the waiting check: exit %d after %v, want 1 at once naming the remote:\n%s", code, took, waiting.errText())
	}
	_, errText, code := runSpecdev(t, m.b, asReviewer("rv-b", lease, "check", "record", "b.go")...)
	if code != 1 || !strings.Contains(errText, "cannot reach the remote origin") || !strings.Contains(errText, "nothing was changed") {
		t.Errorf("record with the remote down: exit %d, want 1 naming the remote:\n%s", code, errText)
	}
	for f, data := range before {
		if got := stateFile(t, m.b, "00001_a", f); got != data {
			t.Errorf("%s changed while the remote was down:\n%s\n---\n%s", f, got, data)
		}
	}
}

// TestRemoteGarbageRef: refs rewritten by hand, to a commit without the
// state files and to one with a malformed request, are refused with exit
// 7 naming the ref and the file, by a look at the assignment, a poll and
// status --remote; the folder here keeps what it had.
func TestRemoteGarbageRef(t *testing.T) {
	m := requested(t, configJSON(`"stale_after": "15m"`))
	empty := gitOut(t, m.a, "mktree")
	pushState := func(name, tree string) {
		commit := gitOut(t, m.a, "commit-tree", tree, "-m", "by hand")
		gitIn(t, m.a, "push", "-q", "--force", "origin", commit+":refs/specdev/assignments/"+name)
	}
	pushState("00002_empty", empty)
	blob := gitOutIn(t, m.a, "{\"version\": 1, \"status\": \"pending\"", "hash-object", "-w", "--stdin")
	pushState("00003_bad", gitOutIn(t, m.a, "100644 blob "+blob+"\treview_request.json\n", "mktree"))

	for _, tc := range []struct {
		code        int
		args, texts []string
	}{
		{7, []string{"--assignment", "00002", "work"}, []string{"review_request.json in origin refs/specdev/assignments/00002_empty", "is missing"}},
		{7, []string{"--assignment", "00003", "work"}, []string{"review_request.json in origin refs/specdev/assignments/00003_bad"}},
		{0, []string{"check", "--session", "rv-b"}, []string{"Review claimed: 00001_a"}},
		{7, []string{"check", "--session", "rv-c"}, []string{"Skipped: ", "refs/specdev/assignments/00003_bad"}},
		{7, []string{"status", "--remote"}, []string{"refs/specdev/assignments/00002_empty", "refs/specdev/assignments/00003_bad"}},
	} {
		out, errText, code := runSpecdev(t, m.b, tc.args...)
		if code != tc.code {
			t.Errorf("specdev %v: exit %d, want %d:\n%s%s", tc.args, code, tc.code, out, errText)
		}
		for _, text := range tc.texts {
			if !strings.Contains(out+errText, text) {
				t.Errorf("specdev %v does not say %q:\n%s%s", tc.args, text, out, errText)
			}
		}
	}
	if got := stateFile(t, m.b, "00001_a", "review_request.json"); !strings.Contains(got, `"in_progress"`) {
		t.Errorf("the good assignment was not claimed beside the bad ones:\n%s", got)
	}
	if got := stateFile(t, m.b, "00003_bad", "review_request.json"); got != "" {
		t.Errorf("the malformed request was copied here:\n%s", got)
	}
}

// gitOutIn is gitOut with stdin.
func gitOutIn(t *testing.T, dir, stdin string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Stdin = dir, strings.NewReader(stdin)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %s: %v", strings.Join(args, " "), err)
	}
	return string(bytes.TrimSpace(out))
}
