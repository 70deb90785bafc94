package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func TestReplaceNeverFollowsASymlink(t *testing.T) {
	dir := t.TempDir()
	target, link := filepath.Join(dir, "target"), filepath.Join(dir, "sub", "link")
	if err := os.WriteFile(target, []byte("kept"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if err := Replace(link, []byte("new"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(target); string(got) != "kept" {
		t.Errorf("the symlink's target holds %q, want %q", got, "kept")
	}
	fi, err := os.Lstat(link)
	if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm() != 0o600 {
		t.Fatalf("got %v, %v; want a regular file of mode 0600", fi, err)
	}
	if got, _ := os.ReadFile(link); string(got) != "new" {
		t.Errorf("got %q, want %q", got, "new")
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "sub", ".specdev-*")); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

func TestCreateRefusesWhatIsThere(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hook")
	if err := Create(path, []byte("one"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := Create(path, []byte("two"), 0o755); !errors.Is(err, fs.ErrExist) {
		t.Errorf("second Create: got %v, want fs.ErrExist", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "one" {
		t.Errorf("got %q, want %q", got, "one")
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".specdev-*")); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}
