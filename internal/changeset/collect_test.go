package changeset

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"testing"

	"github.com/specdev/specdev/protocol"
)

func TestCollectGit(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, repo string) Options // repo is an empty git repository
		want  []string
	}{
		{
			name: "untracked modified staged deleted renamed",
			setup: func(t *testing.T, repo string) Options {
				for _, f := range []string{"mod.txt", "staged.txt", "gone.txt", "old.txt", "same.txt", "staged-gone.txt"} {
					write(t, repo, f, "content of "+f+"\n")
				}
				commitAll(t, repo, "initial")
				write(t, repo, "mod.txt", "changed\n")
				write(t, repo, "staged.txt", "changed\n")
				git(t, repo, "add", "staged.txt")
				remove(t, repo, "gone.txt")
				git(t, repo, "rm", "-q", "staged-gone.txt")
				git(t, repo, "mv", "old.txt", "new name.txt")
				write(t, repo, "untracked.txt", "new\n")
				write(t, repo, "dir/deep/untracked.go", "package deep\n")
				return Options{Root: repo}
			},
			want: []string{"dir/deep/untracked.go", "gone.txt", "mod.txt", "new name.txt", "staged-gone.txt", "staged.txt", "untracked.txt"},
		},
		{
			name: "gitignore respected",
			setup: func(t *testing.T, repo string) Options {
				write(t, repo, ".gitignore", "*.log\nbuild/\n")
				commitAll(t, repo, "initial")
				write(t, repo, "debug.log", "x\n")
				write(t, repo, "build/out.bin", "x\n")
				write(t, repo, "keep.go", "package keep\n")
				return Options{Root: repo}
			},
			want: []string{"keep.go"},
		},
		{
			name: "specdev state excluded",
			setup: func(t *testing.T, repo string) Options {
				write(t, repo, ".specdev/config.json", "{}\n")
				commitAll(t, repo, "initial")
				write(t, repo, ".specdev/config.json", `{"effort":"high"}`+"\n")
				write(t, repo, ".specdev/assignments/00001_x/review_request.json", "{}\n")
				write(t, repo, ".specdev/skills/reviewer/SKILL.md", "guide\n")
				write(t, repo, "main.go", "package main\n")
				return Options{Root: repo}
			},
			want: []string{"main.go"},
		},
		{
			name: "base..HEAD commits included",
			setup: func(t *testing.T, repo string) Options {
				write(t, repo, "a.txt", "a\n")
				write(t, repo, "removed.txt", "r\n")
				write(t, repo, "same.txt", "s\n")
				write(t, repo, "moved.txt", "a file long enough for git to see it was moved\n")
				commitAll(t, repo, "base")
				base := git(t, repo, "rev-parse", "HEAD")
				write(t, repo, "a.txt", "a2\n")
				write(t, repo, "b.txt", "b\n")
				commitAll(t, repo, "second")
				remove(t, repo, "removed.txt")
				git(t, repo, "mv", "moved.txt", "renamed.txt")
				commitAll(t, repo, "third")
				write(t, repo, "wip.txt", "uncommitted\n")
				return Options{Root: repo, Base: base}
			},
			want: []string{"a.txt", "b.txt", "removed.txt", "renamed.txt", "wip.txt"},
		},
		{
			name: "base as a revision expression",
			setup: func(t *testing.T, repo string) Options {
				write(t, repo, "a.txt", "a\n")
				commitAll(t, repo, "first")
				write(t, repo, "b.txt", "b\n")
				commitAll(t, repo, "second")
				return Options{Root: repo, Base: "HEAD~1"}
			},
			want: []string{"b.txt"},
		},
		{
			name: "clean tree without base",
			setup: func(t *testing.T, repo string) Options {
				write(t, repo, "a.txt", "a\n")
				commitAll(t, repo, "first")
				return Options{Root: repo}
			},
			want: []string{},
		},
		{
			name: "repository without commits",
			setup: func(t *testing.T, repo string) Options {
				write(t, repo, "first.go", "package first\n")
				return Options{Root: repo}
			},
			want: []string{"first.go"},
		},
		{
			name: "project in a subfolder of the repository",
			setup: func(t *testing.T, repo string) Options {
				for _, f := range []string{"top.txt", "proj/in.txt", "proj/pkg/deep.go", "other/o.txt", "projection/p.txt"} {
					write(t, repo, f, "v1\n")
				}
				commitAll(t, repo, "base")
				base := git(t, repo, "rev-parse", "HEAD")
				write(t, repo, "proj/pkg/deep.go", "v2\n")
				write(t, repo, "other/o.txt", "v2\n")
				commitAll(t, repo, "committed change")
				for _, f := range []string{"top.txt", "proj/in.txt", "other/o.txt", "projection/p.txt", "proj/.specdev/config.json", "proj/new.txt"} {
					write(t, repo, f, "v3\n")
				}
				return Options{Root: filepath.Join(repo, "proj"), Base: base}
			},
			want: []string{"in.txt", "new.txt", "pkg/deep.go"},
		},
		{
			name: "submodule-like nested repository left out",
			setup: func(t *testing.T, repo string) Options {
				write(t, repo, "a.txt", "a\n")
				commitAll(t, repo, "first")
				nested := filepath.Join(repo, "vendor", "lib")
				write(t, nested, "lib.go", "package lib\n")
				git(t, nested, "init", "-q")
				write(t, repo, "b.txt", "b\n")
				return Options{Root: repo}
			},
			want: []string{"b.txt"},
		},
		{
			name: "listed files replace git's list",
			setup: func(t *testing.T, repo string) Options {
				write(t, repo, "a.txt", "a\n")
				write(t, repo, "src/b.go", "package src\n")
				commitAll(t, repo, "first")
				write(t, repo, "changed.txt", "not listed\n")
				return Options{Root: repo, Files: []string{"src/b.go", "a.txt", "src/b.go"}}
			},
			want: []string{"a.txt", "src/b.go"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			requireGit(t)
			repo := newRepo(t)
			opt := tt.setup(t, repo)
			got, err := Collect(context.Background(), opt)
			if err != nil {
				t.Fatalf("Collect: %v", err)
			}
			if !slices.Equal(got.Files, tt.want) {
				t.Errorf("Files: got %q, want %q", got.Files, tt.want)
			}
			if !got.InGit {
				t.Errorf("InGit: got false, want true")
			}
			wantHead := ""
			if CommitExists(context.Background(), repo, "HEAD") {
				wantHead = git(t, repo, "rev-parse", "HEAD")
			}
			if got.HeadCommit != wantHead {
				t.Errorf("HeadCommit: got %q, want %q", got.HeadCommit, wantHead)
			}
		})
	}
}

func TestCollectOutsideGit(t *testing.T) {
	tests := []struct {
		name    string
		opt     func(dir string) Options
		want    []string
		wantErr error  // errors.Is target; nil for success
		wantMsg string // the error's text
	}{
		{
			name:    "without files",
			opt:     func(dir string) Options { return Options{Root: dir} },
			wantErr: ErrNotGit,
			wantMsg: "not a git repository: pass --files",
		},
		{
			name: "with files",
			opt:  func(dir string) Options { return Options{Root: dir, Files: []string{"b.txt", "a.txt"}} },
			want: []string{"a.txt", "b.txt"},
		},
		{
			name: "with an empty list",
			opt:  func(dir string) Options { return Options{Root: dir, Files: []string{}} },
			want: []string{},
		},
		{
			name:    "with a base",
			opt:     func(dir string) Options { return Options{Root: dir, Base: "main", Files: []string{"a.txt"}} },
			wantErr: ErrNotGit,
			wantMsg: "--base main: not a git repository",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			requireGit(t)
			dir := tempDir(t)
			write(t, dir, "a.txt", "a\n")
			write(t, dir, "b.txt", "b\n")
			got, err := Collect(context.Background(), tt.opt(dir))
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("error: got %v, want %v", err, tt.wantErr)
				}
				if err.Error() != tt.wantMsg {
					t.Errorf("message: got %q, want %q", err.Error(), tt.wantMsg)
				}
				var usage *protocol.UsageError
				if !errors.As(err, &usage) || usage.Hint == "" {
					t.Errorf("got %#v, want a *protocol.UsageError with a hint", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Collect: %v", err)
			}
			if !slices.Equal(got.Files, tt.want) {
				t.Errorf("Files: got %q, want %q", got.Files, tt.want)
			}
			if got.InGit || got.HeadCommit != "" {
				t.Errorf("InGit, HeadCommit: got %v, %q, want false, \"\"", got.InGit, got.HeadCommit)
			}
		})
	}
}

func TestCollectUnknownBase(t *testing.T) {
	for _, base := range []string{"no-such-branch", "deadbeef", "--output=x", "HEAD~5"} {
		t.Run(base, func(t *testing.T) {
			requireGit(t)
			repo := newRepo(t)
			write(t, repo, "a.txt", "a\n")
			commitAll(t, repo, "first")
			_, err := Collect(context.Background(), Options{Root: repo, Base: base})
			if !errors.Is(err, ErrUnknownBase) {
				t.Fatalf("error: got %v, want %v", err, ErrUnknownBase)
			}
			if got, want := err.Error(), "--base "+base+": no such commit"; got != want {
				t.Errorf("message: got %q, want %q", got, want)
			}
			if CommitExists(context.Background(), repo, base) {
				t.Errorf("CommitExists(%q): got true, want false", base)
			}
		})
	}
}

func TestCollectCancelled(t *testing.T) {
	requireGit(t)
	repo := newRepo(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Collect(ctx, Options{Root: repo})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error: got %v, want %v", err, context.Canceled)
	}
}
