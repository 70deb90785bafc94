package changeset

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/specdev/specdev/protocol"
)

func TestCheckFile(t *testing.T) {
	outside := t.TempDir()
	write(t, outside, "secret.txt", "secret\n")
	parent := t.TempDir()
	root := filepath.Join(parent, "project")
	write(t, root, "a.go", "package a\n")
	write(t, root, "pkg/b.go", "package pkg\n")
	write(t, root, ".specdev/config.json", "{}\n")
	write(t, parent, "sibling/s.txt", "s\n")
	symlink(t, "a.go", root, "alias.go")
	symlink(t, filepath.Join(root, "pkg"), root, "abs-inside")
	symlink(t, "../pkg", root, "sub/up")
	symlink(t, "missing.go", root, "dangling-inside")
	symlink(t, filepath.Join(outside, "secret.txt"), root, "secret.txt")
	symlink(t, outside, root, "outdir")
	// A dangling link reached through outdir: its ".." climbs from outside,
	// not from root, so it leads out even though "outdir/.." is root.
	symlink(t, "../inside.txt", outside, "back")
	symlink(t, "../sibling", root, "sibling")
	symlink(t, filepath.Join(outside, "not-yet"), root, "dangling-out")
	symlink(t, "dangling-out", root, "chain-out")
	symlink(t, "gone/../../escape", root, "dotdot-dangling")
	symlink(t, ".specdev/config.json", root, "state")

	tests := []struct {
		name      string
		path      string
		wantInMsg string // "" for accepted
	}{
		{"plain file", "a.go", ""},
		{"nested file", "pkg/b.go", ""},
		{"missing file", "new.go", ""},
		{"missing file in missing folder", "new/deeper/x.go", ""},
		{"file under a file", "a.go/x", ""},
		{"symlink inside", "alias.go", ""},
		{"absolute symlink inside", "abs-inside/b.go", ""},
		{"relative symlink up and back", "sub/up/b.go", ""},
		{"dangling symlink inside", "dangling-inside", ""},
		{"absolute", "/etc/passwd", "is absolute"},
		{"absolute root path", filepath.Join(root, "a.go"), "is absolute"},
		{"dot dot", "../sibling/s.txt", "leads out of the project"},
		{"inner dot dot", "pkg/../a.go", "leads out of the project"},
		{"not clean", "./a.go", "not in clean form"},
		{"double slash", "pkg//b.go", "not in clean form"},
		{"trailing slash", "pkg/", "not in clean form"},
		{"empty", "", "empty"},
		{"specdev folder", ".specdev", "specdev's own state"},
		{"specdev file", ".specdev/config.json", "specdev's own state"},
		{"symlink to a file outside", "secret.txt", "through a symlink"},
		{"file in a folder symlinked outside", "outdir/secret.txt", "through a symlink"},
		{"missing file in a folder symlinked outside", "outdir/new.txt", "through a symlink"},
		{"relative symlink to a sibling", "sibling/s.txt", "through a symlink"},
		{"dangling symlink outside", "dangling-out", "through a symlink"},
		{"missing file under a dangling symlink outside", "dangling-out/x/y", "through a symlink"},
		{"chain to a dangling symlink outside", "chain-out", "through a symlink"},
		{"dangling symlink with dot dot out", "dotdot-dangling", "through a symlink"},
		{"dangling symlink with dot dot behind a symlinked folder", "outdir/back", "through a symlink"},
		{"symlink into specdev state", "state", "specdev's own state through a symlink"},
	}
	// One checker for all the paths, as a review of many files uses it:
	// the folders it resolved for one path must not change the answer
	// for the next.
	shared, err := newChecker(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckFile(root, tt.path)
			if _, errShared := shared.checkInfo(tt.path); fmt.Sprint(errShared) != fmt.Sprint(err) {
				t.Errorf("one checker for all paths: got %v, want %v as CheckFile gives", errShared, err)
			}
			if tt.wantInMsg == "" {
				if err != nil {
					t.Errorf("CheckFile(%q): got %v, want nil", tt.path, err)
				}
				return
			}
			var inv *protocol.InvalidError
			if !errors.As(err, &inv) || !errors.Is(err, protocol.ErrInvalid) {
				t.Fatalf("CheckFile(%q): got %v, want a *protocol.InvalidError", tt.path, err)
			}
			if !strings.Contains(inv.Problem, tt.wantInMsg) {
				t.Errorf("Problem: got %q, want it to contain %q", inv.Problem, tt.wantInMsg)
			}
			if inv.Hint == "" {
				t.Errorf("Hint: got \"\", want a fix")
			}
		})
	}
}

// The project root may itself be reached through a symlink (as /tmp is on
// some systems); files inside it are still inside.
func TestCheckFileRootThroughSymlink(t *testing.T) {
	real := t.TempDir()
	write(t, real, "a.go", "package a\n")
	symlink(t, "a.go", real, "alias.go")
	link := filepath.Join(t.TempDir(), "root")
	if err := os.Symlink(real, link); err != nil {
		t.Skipf("symlinks not available: %v", err)
	}
	for _, p := range []string{"a.go", "alias.go", "missing.go"} {
		t.Run(p, func(t *testing.T) {
			if err := CheckFile(link, p); err != nil {
				t.Errorf("CheckFile(%q): got %v, want nil", p, err)
			}
		})
	}
}

func TestCheckFileMissingRoot(t *testing.T) {
	root := filepath.Join(t.TempDir(), "nope")
	err := CheckFile(root, "a.go")
	if err == nil || errors.Is(err, protocol.ErrInvalid) {
		t.Errorf("got %v, want an I/O error that is not ErrInvalid", err)
	}
}
