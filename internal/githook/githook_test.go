package githook

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/specdev/specdev/checkpoint"
	"github.com/specdev/specdev/protocol"
)

func spec(hook string) Spec {
	return Spec{Hook: hook, Binary: "/opt/specdev bin/specdev", Args: []string{"gate", "--staged", "--dir", "."}}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func writeHook(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o755); err != nil {
		t.Fatal(err)
	}
}

func TestInstallUninstall(t *testing.T) {
	const original = "#!/bin/sh\necho original\n"
	tests := []struct {
		name          string
		setup         func(t *testing.T, dir string)
		wantInstall   Action
		wantChained   bool
		wantUninstall Action
		wantAfter     string // the hook file's content after uninstall; "" for none
	}{
		{"fresh", func(t *testing.T, dir string) {}, Installed, false, Removed, ""},
		{"existing hook is chained and put back", func(t *testing.T, dir string) {
			writeHook(t, filepath.Join(dir, "pre-commit"), original)
		}, Chained, true, Restored, original},
		{"existing symlink is chained as a symlink", func(t *testing.T, dir string) {
			writeHook(t, filepath.Join(dir, "shared-hook"), original)
			if err := os.Symlink("shared-hook", filepath.Join(dir, "pre-commit")); err != nil {
				t.Skip(err)
			}
		}, Chained, true, Restored, original},
		{"missing hooks folder is made", func(t *testing.T, dir string) {
			if err := os.Remove(dir); err != nil {
				t.Fatal(err)
			}
		}, Installed, false, Removed, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "hooks")
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			tt.setup(t, dir)
			before, _ := os.Lstat(filepath.Join(dir, "pre-commit"))
			st, action, err := Install(dir, spec("pre-commit"))
			if err != nil {
				t.Fatalf("Install: %v", err)
			}
			if action != tt.wantInstall || !st.Ours || !st.Executable || (st.Chained != "") != tt.wantChained {
				t.Fatalf("Install: got %s %+v", action, st)
			}
			if st.Command != "specdev gate --staged --dir ." {
				t.Errorf("command: got %q", st.Command)
			}
			fi, err := os.Stat(st.Path)
			if err != nil || fi.Mode().Perm() != 0o755 {
				t.Errorf("hook mode: got %v, %v; want 0755", fi, err)
			}
			if tt.wantChained {
				kept, err := os.Lstat(st.Chained)
				if err != nil || kept.Mode().Type() != before.Mode().Type() || !os.SameFile(kept, before) {
					t.Errorf("chained hook %s is not the original file (%v)", st.Chained, err)
				}
			}
			if _, again, err := Install(dir, spec("pre-commit")); err != nil || again != Unchanged {
				t.Errorf("second Install: got %s, %v; want unchanged", again, err)
			}
			st, action, err = Uninstall(dir, "pre-commit")
			if err != nil || action != tt.wantUninstall || st.Ours || st.Chained != "" {
				t.Fatalf("Uninstall: got %s %+v, %v", action, st, err)
			}
			if tt.wantAfter == "" {
				if st.Present {
					t.Errorf("a hook is left at %s", st.Path)
				}
			} else if got := readFile(t, st.Path); got != tt.wantAfter {
				t.Errorf("after uninstall: got %q, want the original", got)
			} else if after, err := os.Lstat(st.Path); err != nil || !os.SameFile(after, before) {
				t.Errorf("after uninstall: %s is not the original file (%v)", st.Path, err)
			}
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				if strings.HasPrefix(e.Name(), ".specdev-hook-") {
					t.Errorf("temporary file left: %s", e.Name())
				}
			}
			if _, action, err := Uninstall(dir, "pre-commit"); err == nil && action != NotThere && tt.wantAfter == "" {
				t.Errorf("second Uninstall: got %s, want not installed", action)
			}
		})
	}
}

func TestInstallUpdatesItsOwnHook(t *testing.T) {
	dir := t.TempDir()
	if _, _, err := Install(dir, spec("pre-push")); err != nil {
		t.Fatal(err)
	}
	s := spec("pre-push")
	s.Args = []string{"gate", "--gate", "docs", "--dir", "."}
	st, action, err := Install(dir, s)
	if err != nil || action != Updated || st.Command != `specdev gate --gate docs --dir . --pre-push "$1"` {
		t.Fatalf("got %s %+v, %v", action, st, err)
	}
	if st.Chained != "" {
		t.Errorf("an update chained specdev's own hook: %s", st.Chained)
	}
}

func TestRefusals(t *testing.T) {
	tests := []struct {
		name    string
		setup   func(t *testing.T, dir string) string // returns the hooks folder to use
		wantMsg string
	}{
		{"hook and chained name both taken", func(t *testing.T, dir string) string {
			writeHook(t, filepath.Join(dir, "pre-commit"), "#!/bin/sh\n")
			writeHook(t, filepath.Join(dir, "pre-commit"+ChainSuffix), "#!/bin/sh\n")
			return dir
		}, "is taken too"},
		{"hook is a folder", func(t *testing.T, dir string) string {
			if err := os.Mkdir(filepath.Join(dir, "pre-commit"), 0o755); err != nil {
				t.Fatal(err)
			}
			return dir
		}, "is a folder, not a hook"},
		{"hooks folder is a symlink", func(t *testing.T, dir string) string {
			link := filepath.Join(t.TempDir(), "hooks")
			if err := os.Symlink(dir, link); err != nil {
				t.Skip(err)
			}
			return link
		}, "is a symlink"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := tt.setup(t, t.TempDir())
			_, _, err := Install(dir, spec("pre-commit"))
			var refused *checkpoint.StateError
			if !errors.As(err, &refused) || !errors.Is(err, protocol.ErrConflict) || refused.Hint == "" {
				t.Fatalf("got %v, want a *checkpoint.StateError with a hint", err)
			}
			if !strings.Contains(err.Error(), tt.wantMsg) {
				t.Errorf("message %q lacks %q", err, tt.wantMsg)
			}
		})
	}
}

func TestUninstallLeavesAnotherHookAlone(t *testing.T) {
	dir := t.TempDir()
	const mine = "#!/bin/sh\necho mine\n"
	writeHook(t, filepath.Join(dir, "pre-commit"), mine)
	st, action, err := Uninstall(dir, "pre-commit")
	if err != nil || action != NotThere || st.Foreign != "another hook" {
		t.Fatalf("got %s %+v, %v; want not installed, another hook", action, st, err)
	}
	if got := readFile(t, filepath.Join(dir, "pre-commit")); got != mine {
		t.Errorf("the hook changed: %q", got)
	}
}

func TestLocate(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	gitIn := func(t *testing.T, dir string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	repo := t.TempDir()
	gitIn(t, repo, "init", "-q")
	sub := filepath.Join(repo, "proj", "x")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	real := func(p string) string { r, _ := filepath.EvalSymlinks(p); return r }
	for _, tt := range []struct {
		name       string
		root       string
		hooksPath  string
		wantDir    string
		wantPrefix string
	}{
		{"top level", repo, "", filepath.Join(repo, ".git", "hooks"), ""},
		{"project in a subfolder", sub, "", filepath.Join(repo, ".git", "hooks"), "proj/x"},
		{"core.hooksPath, relative to the top level", sub, "githooks", filepath.Join(repo, "githooks"), "proj/x"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.hooksPath != "" {
				gitIn(t, repo, "config", "core.hooksPath", tt.hooksPath)
				defer gitIn(t, repo, "config", "--unset", "core.hooksPath")
			}
			loc, err := Locate(ctx, tt.root)
			if err != nil {
				t.Fatal(err)
			}
			if real(loc.Dir) != real(tt.wantDir) && loc.Dir != tt.wantDir || loc.Prefix != tt.wantPrefix {
				t.Errorf("got %+v, want dir %s prefix %q", loc, tt.wantDir, tt.wantPrefix)
			}
		})
	}
	outside := t.TempDir()
	t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(outside))
	if _, err := Locate(ctx, outside); !errors.Is(err, protocol.ErrUsage) {
		t.Errorf("outside git: got %v, want a usage error", err)
	}
}
