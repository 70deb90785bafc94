package preflight_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/specdev/specdev/internal/preflight"
)

// Run names the set-up problem of a gate that cannot start, and none for
// one that starts (whatever it does then).
func TestRunSetupProblem(t *testing.T) {
	dir := t.TempDir()
	writeScript(t, dir, "ok.sh", "exit 1\n", 0o755) // fails when run, but starts
	writeScript(t, dir, "not-executable.sh", "echo hi\n", 0o644)
	for name, content := range map[string]string{
		"no-shebang.sh":      "echo hi\n",
		"bad-interpreter.sh": "#!/no/such/sh\necho hi\n",
		"env-missing.sh":     "#!/usr/bin/env specdev-no-such-interpreter\necho hi\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name    string
		argv    []string
		problem preflight.Problem
	}{
		{"starts", []string{"./ok.sh"}, ""},
		{"in PATH", []string{"true"}, ""},
		{"missing file", []string{"./verify-gates.sh"}, preflight.NotFound},
		{"missing in PATH", []string{"specdev-no-such-gate"}, preflight.NotInPath},
		{"not executable", []string{"./not-executable.sh"}, preflight.NotExecutable},
		{"no shebang", []string{"./no-shebang.sh"}, preflight.Unstartable},
		{"missing interpreter", []string{"./bad-interpreter.sh"}, preflight.Unstartable},
		{"env starts, whatever it is to run", []string{"./env-missing.sh"}, ""},
		{"empty argv", nil, preflight.Unstartable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := preflight.Run(t.Context(), dir, tt.argv, time.Minute, nil)
			if res.Setup != tt.problem {
				t.Errorf("Run: problem %q (%q), want %q", res.Setup, res.Error, tt.problem)
			}
			if started := res.ExitCode != -1; started == (tt.problem != "") {
				t.Errorf("Run: exit code %d with problem %q", res.ExitCode, res.Setup)
			}
		})
	}
}
