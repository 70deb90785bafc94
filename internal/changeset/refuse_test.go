package changeset

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/specdev/specdev/protocol"
)

func TestCollectRefusesListedFiles(t *testing.T) {
	tests := []struct {
		name      string
		files     []string
		wantField string
		wantInMsg string
		wantHint  string
	}{
		{"absolute outside", []string{"a.txt", "/etc/passwd"}, "files[1]", "is outside the project", "absolute under"},
		{"dot dot", []string{"../a.txt"}, "files[0]", "is outside the project", "relative to the current folder"},
		{"backslashes", []string{`src\b.go`}, "files[0]", "has backslashes", "use forward slashes: src/b.go"},
		{"drive letter", []string{"C:/src/b.go"}, "files[0]", "is absolute", "relative to its root"},
		{"specdev state", []string{".specdev/config.json"}, "files[0]", "specdev's own state", "outside .specdev/"},
		{"missing", []string{"a.txt", "nope.txt"}, "files[1]", "does not exist", "existing files"},
		{"directory", []string{"src"}, "files[0]", "is a directory", "list the files in it"},
		{"symlink out", []string{"escape.txt"}, "files[0]", "leads out of the project through a symlink", "inside the project"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			requireGit(t)
			repo := newRepo(t)
			write(t, repo, "a.txt", "a\n")
			write(t, repo, "src/b.go", "package src\n")
			write(t, repo, ".specdev/config.json", "{}\n")
			outside := tempDir(t)
			write(t, outside, "secret.txt", "secret\n")
			symlink(t, filepath.Join(outside, "secret.txt"), repo, "escape.txt")

			_, err := Collect(context.Background(), Options{Root: repo, Files: tt.files})
			var inv *protocol.InvalidError
			if !errors.As(err, &inv) || !errors.Is(err, protocol.ErrInvalid) {
				t.Fatalf("error: got %v, want a *protocol.InvalidError", err)
			}
			if inv.File != "--files" || inv.Field != tt.wantField {
				t.Errorf("File, Field: got %q, %q, want %q, %q", inv.File, inv.Field, "--files", tt.wantField)
			}
			if !strings.Contains(inv.Problem, tt.wantInMsg) {
				t.Errorf("Problem: got %q, want it to contain %q", inv.Problem, tt.wantInMsg)
			}
			if !strings.Contains(inv.Hint, tt.wantHint) {
				t.Errorf("Hint: got %q, want it to contain %q", inv.Hint, tt.wantHint)
			}
		})
	}
}

// Listed files are read as git reads paths (ProjectPath): from the
// current folder, absolute inside the project, any spelling of one file
// listed once.
func TestCollectReadsListedFilesAsGit(t *testing.T) {
	requireGit(t)
	repo := newRepo(t)
	write(t, repo, "a.txt", "a\n")
	write(t, repo, "src/b.go", "package src\n")
	files := []string{"../a.txt", filepath.Join(repo, "a.txt"), "./b.go", "b.go", "x/../b.go"}
	got, err := Collect(context.Background(), Options{Root: repo, Cwd: filepath.Join(repo, "src"), Files: files})
	if err != nil {
		t.Fatalf("Collect: %v", err)
	}
	if want := []string{"a.txt", "src/b.go"}; !slices.Equal(got.Files, want) {
		t.Errorf("Files: got %q, want %q", got.Files, want)
	}
}

func TestCollectRefusesChangedSymlinkOut(t *testing.T) {
	requireGit(t)
	repo := newRepo(t)
	write(t, repo, "a.txt", "a\n")
	commitAll(t, repo, "first")
	outside := tempDir(t)
	symlink(t, outside, repo, "link")

	_, err := Collect(context.Background(), Options{Root: repo})
	var inv *protocol.InvalidError
	if !errors.As(err, &inv) {
		t.Fatalf("error: got %v, want a *protocol.InvalidError", err)
	}
	if want := `path "link" leads out of the project through a symlink`; inv.Problem != want {
		t.Errorf("Problem: got %q, want %q", inv.Problem, want)
	}
	if !strings.Contains(inv.Hint, "--files") {
		t.Errorf("Hint: got %q, want it to mention --files", inv.Hint)
	}
}

func TestCollectKeepsSymlinkInside(t *testing.T) {
	requireGit(t)
	repo := newRepo(t)
	write(t, repo, "a.txt", "a\n")
	commitAll(t, repo, "first")
	symlink(t, "a.txt", repo, "alias.txt")
	symlink(t, "missing.txt", repo, "dangling.txt")

	got, err := Collect(context.Background(), Options{Root: repo})
	if err != nil {
		t.Fatalf("Collect: %v", err)
	}
	if want := []string{"alias.txt", "dangling.txt"}; !slices.Equal(got.Files, want) {
		t.Errorf("Files: got %q, want %q", got.Files, want)
	}
}
