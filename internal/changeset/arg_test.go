package changeset

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/specdev/specdev/protocol"
)

func TestProjectPath(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "proj")
	if err := os.MkdirAll(filepath.Join(root, "src", "auth"), 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(base, "link") // the same project, reached through a symlink
	if err := os.Symlink(root, link); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(root, "src", "auth")
	tests := []struct {
		name, cwd, arg string
		want           string // "" when refused
		problem        string // part of the refusal
	}{
		{"relative at the root", root, "src/a.go", "src/a.go", ""},
		{"relative in a subfolder", sub, "throttle.go", "src/auth/throttle.go", ""},
		{"up and down again", sub, "../login.go", "src/login.go", ""},
		{"dot segments are cleaned", sub, "./x/../throttle.go", "src/auth/throttle.go", ""},
		{"absolute inside", sub, filepath.Join(root, "src", "a.go"), "src/a.go", ""},
		{"absolute through the symlinked root", root, filepath.Join(link, "src", "a.go"), "src/a.go", ""},
		{"cwd through the symlinked root", filepath.Join(link, "src"), "a.go", "src/a.go", ""},
		{"cwd outside the project reads from the root", base, "src/a.go", "src/a.go", ""},
		{"no cwd reads from the root", "", "src/a.go", "src/a.go", ""},
		{"backslashes", root, `src\auth\login.go`, "", "has backslashes"},
		{"outside, relative", root, "../other/a.go", "", "is outside the project"},
		{"outside, absolute", root, "/etc/passwd", "", "is outside the project"},
		{"the root itself", sub, "../..", "", "is the project root"},
		{"empty", root, "", "", "path is empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ProjectPath(root, tt.cwd, tt.arg)
			if tt.problem == "" {
				if err != nil || got != tt.want {
					t.Fatalf("ProjectPath(%q from %q) = %q, %v; want %q", tt.arg, tt.cwd, got, err, tt.want)
				}
				return
			}
			var inv *protocol.InvalidError
			if !errors.As(err, &inv) || !strings.Contains(inv.Problem, tt.problem) {
				t.Fatalf("ProjectPath(%q) = %q, %v; want an InvalidError saying %q", tt.arg, got, err, tt.problem)
			}
		})
	}
}

func TestProjectPathHintsForwardSlashes(t *testing.T) {
	_, err := ProjectPath(t.TempDir(), "", `src\a.go`)
	var inv *protocol.InvalidError
	if !errors.As(err, &inv) || inv.Hint != "use forward slashes: src/a.go" {
		t.Fatalf("got %v, want the hint to use forward slashes: src/a.go", err)
	}
}
