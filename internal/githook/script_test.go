package githook

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The hook runs the chained hook first, then the gate; the gate's failure
// blocks with the way around it; without the installed binary it uses
// specdev on PATH.
func TestScriptRuns(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	tests := []struct {
		name       string
		chained    string // the chained hook's script; "" for none
		gateExit   string
		wantExit   int
		wantStdout string
		wantStderr string
	}{
		{"gate passes", "", "0", 0, "gate ran: gate --staged --dir .\n", ""},
		{"gate blocks", "", "8", 8, "gate ran: gate --staged --dir .\n", "To commit without it, knowingly: git commit --no-verify"},
		{"chained runs first", "#!/bin/sh\necho chained ran \"$@\"\n", "0", 0, "chained ran arg1\ngate ran: gate --staged --dir .\n", ""},
		{"chained failure stops", "#!/bin/sh\necho chained failed; exit 5\n", "0", 5, "chained failed\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			bin := filepath.Join(t.TempDir(), "specdev")
			writeHook(t, bin, "#!/bin/sh\necho \"gate ran: $*\"\nexit "+tt.gateExit+"\n")
			if tt.chained != "" {
				writeHook(t, filepath.Join(dir, "pre-commit"), tt.chained)
			}
			s := spec("pre-commit")
			s.Binary = "/nonexistent/specdev" // so it must be found on PATH
			st, _, err := Install(dir, s)
			if err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(st.Path, "arg1")
			cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"))
			var stdout, stderr strings.Builder
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err = cmd.Run()
			code := 0
			var exitErr *exec.ExitError
			if errors.As(err, &exitErr) {
				code = exitErr.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != tt.wantExit || stdout.String() != tt.wantStdout || !strings.Contains(stderr.String(), tt.wantStderr) {
				t.Errorf("got exit %d, stdout %q, stderr %q; want %d, %q, containing %q", code, stdout.String(), stderr.String(), tt.wantExit, tt.wantStdout, tt.wantStderr)
			}
		})
	}
}

func TestScriptWithoutSpecdev(t *testing.T) {
	dir := t.TempDir()
	s := spec("pre-push")
	s.Binary = "/nonexistent/specdev"
	st, _, err := Install(dir, s)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(st.Path)
	cmd.Env = append(os.Environ(), "PATH="+t.TempDir()) // no specdev, and no other tools but the shell's own
	out, err := cmd.CombinedOutput()
	var exitErr *exec.ExitError
	if !errors.As(err, &exitErr) || exitErr.ExitCode() != 1 {
		t.Fatalf("got %v, want exit 1", err)
	}
	for _, want := range []string{"specdev is neither at /nonexistent/specdev nor on PATH", "specdev hook uninstall pre-push", "git push --no-verify"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output %q lacks %q", out, want)
		}
	}
}

// The pre-push hook hands the refs git pushes (stdin) to the chained hook
// and to the gate alike, and the remote's name to the gate.
func TestScriptPrePushPassesRefs(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	dir := t.TempDir()
	bin := filepath.Join(t.TempDir(), "specdev")
	writeHook(t, bin, "#!/bin/sh\necho \"gate: $*\"\nsed 's/^/gate read: /'\n")
	writeHook(t, filepath.Join(dir, "pre-push"), "#!/bin/sh\necho \"chained: $*\"\nsed 's/^/chained read: /'\n")
	s := spec("pre-push")
	s.Args, s.Binary = []string{"gate", "--dir", "."}, bin
	st, _, err := Install(dir, s)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(st.Path, "origin", "../up.git")
	cmd.Stdin = strings.NewReader("refs/heads/main 1111 refs/heads/main 0000\nrefs/heads/b 2222 refs/heads/b 3333\n")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	want := "chained: origin ../up.git\nchained read: refs/heads/main 1111 refs/heads/main 0000\nchained read: refs/heads/b 2222 refs/heads/b 3333\n" +
		"gate: gate --dir . --pre-push origin\ngate read: refs/heads/main 1111 refs/heads/main 0000\ngate read: refs/heads/b 2222 refs/heads/b 3333\n"
	if string(out) != want {
		t.Errorf("got:\n%s\nwant:\n%s", out, want)
	}
}
