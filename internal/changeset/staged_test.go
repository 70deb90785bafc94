package changeset

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/specdev/specdev/protocol"
)

func sha(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

func TestCollectStaged(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, repo string)
		want  []string
	}{
		{
			name: "only what the index changes",
			setup: func(t *testing.T, repo string) {
				for _, f := range []string{"mod.txt", "unstaged.txt", "gone.txt", "old.txt"} {
					write(t, repo, f, "content of "+f+" long enough to be seen as moved\n")
				}
				commitAll(t, repo, "base")
				write(t, repo, "mod.txt", "staged change\n")
				write(t, repo, "new.txt", "staged new\n")
				git(t, repo, "add", "mod.txt", "new.txt")
				git(t, repo, "rm", "-q", "gone.txt")
				git(t, repo, "mv", "old.txt", "moved.txt")
				write(t, repo, "unstaged.txt", "not staged\n")
				write(t, repo, "untracked.txt", "not staged\n")
			},
			want: []string{"gone.txt", "mod.txt", "moved.txt", "new.txt"},
		},
		{
			name: "nothing staged",
			setup: func(t *testing.T, repo string) {
				write(t, repo, "a.txt", "a\n")
				commitAll(t, repo, "base")
				write(t, repo, "a.txt", "unstaged\n")
			},
			want: []string{},
		},
		{
			name: "repository without commits",
			setup: func(t *testing.T, repo string) {
				write(t, repo, "first.txt", "first\n")
				write(t, repo, "later.txt", "not staged\n")
				git(t, repo, "add", "first.txt")
			},
			want: []string{"first.txt"},
		},
		{
			name: "specdev state left out",
			setup: func(t *testing.T, repo string) {
				write(t, repo, "a.txt", "a\n")
				commitAll(t, repo, "base")
				write(t, repo, ".specdev/config.json", "{}\n")
				write(t, repo, "a.txt", "a2\n")
				git(t, repo, "add", "-A")
			},
			want: []string{"a.txt"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			requireGit(t)
			repo := newRepo(t)
			tt.setup(t, repo)
			res, err := Collect(context.Background(), Options{Root: repo, Staged: true})
			if err != nil {
				t.Fatalf("Collect: %v", err)
			}
			if !slices.Equal(res.Files, tt.want) || res.Base != "" {
				t.Errorf("got files %q, base %q; want %q, \"\"", res.Files, res.Base, tt.want)
			}
		})
	}
}

func TestCollectStagedRefusesBaseAndFiles(t *testing.T) {
	requireGit(t)
	repo := newRepo(t)
	for _, opt := range []Options{{Root: repo, Staged: true, Base: "HEAD"}, {Root: repo, Staged: true, Files: []string{"a"}}} {
		_, err := Collect(context.Background(), opt)
		if !errors.Is(err, protocol.ErrUsage) {
			t.Errorf("%+v: got %v, want a usage error", opt, err)
		}
	}
	_, err := Collect(context.Background(), Options{Root: tempDir(t), Staged: true})
	if !errors.Is(err, ErrNotGit) || err.Error() != "--staged: not a git repository" {
		t.Errorf("outside git: got %v", err)
	}
}

func TestDigestStaged(t *testing.T) {
	requireGit(t)
	repo := newRepo(t)
	write(t, repo, "same.txt", "same\n")
	write(t, repo, "partial.txt", "v1\n")
	write(t, repo, "removed.txt", "r\n")
	write(t, repo, "target.txt", "target\n")
	symlink(t, "target.txt", repo, "link")
	symlink(t, "target.txt", repo, "relinked")
	commitAll(t, repo, "base")
	write(t, repo, "partial.txt", "v2 staged\n")
	git(t, repo, "add", "partial.txt")
	write(t, repo, "partial.txt", "v3 in the work tree\n")
	git(t, repo, "rm", "-q", "--cached", "removed.txt") // still on disk, gone from the index
	remove(t, repo, "relinked")
	symlink(t, "same.txt", repo, "relinked")
	git(t, repo, "add", "relinked")
	symlink(t, "target.txt", repo, "relinked.tmp")
	if err := os.Rename(filepath.Join(repo, "relinked.tmp"), filepath.Join(repo, "relinked")); err != nil {
		t.Fatal(err)
	}

	files := []string{"same.txt", "partial.txt", "removed.txt", "link", "relinked", "never.txt"}
	got, err := DigestStaged(context.Background(), repo, files)
	if err != nil {
		t.Fatalf("DigestStaged: %v", err)
	}
	want := map[string]string{
		"same.txt":    sha("same\n"),              // unchanged: read from the work tree
		"partial.txt": sha("v2 staged\n"),         // the staged content, not the work tree's
		"removed.txt": protocol.DigestDeleted,     // not in the index
		"link":        sha("target\n"),            // unchanged symlink: what it leads to, as Digest
		"relinked":    sha("symlink\x00same.txt"), // staged with another target than on disk
		"never.txt":   protocol.DigestDeleted,     // in neither
	}
	if !maps.Equal(got.Files, want) {
		t.Errorf("digests:\n got %v\nwant %v", got.Files, want)
	}
	if got.Fingerprint != fingerprintFrom(want) {
		t.Errorf("fingerprint %s does not match the digests", got.Fingerprint)
	}
	wt, err := Digest(repo, []string{"same.txt", "link"})
	if err != nil {
		t.Fatal(err)
	}
	if wt.Files["same.txt"] != got.Files["same.txt"] || wt.Files["link"] != got.Files["link"] {
		t.Errorf("unchanged files: work tree %v, index %v; want the same", wt.Files, got.Files)
	}
}

func TestDigestStagedCheckoutFilters(t *testing.T) {
	requireGit(t)
	repo := newRepo(t)
	write(t, repo, ".gitattributes", "*.txt text eol=crlf\n")
	write(t, repo, "a.txt", "one\r\n")
	commitAll(t, repo, "base")
	write(t, repo, "a.txt", "one\r\ntwo\r\n")
	git(t, repo, "add", "a.txt")
	write(t, repo, "a.txt", "one\r\ntwo\r\nthree\r\n")
	got, err := DigestStaged(context.Background(), repo, []string{"a.txt"})
	if err != nil {
		t.Fatal(err)
	}
	// stored as LF in the index; hashed as checked out (CRLF), as the work tree would be
	if want := sha("one\r\ntwo\r\n"); got.Files["a.txt"] != want {
		t.Errorf("got %s, want the CRLF checkout's %s", got.Files["a.txt"], want)
	}
}

func TestDigestStagedUnmerged(t *testing.T) {
	requireGit(t)
	repo := newRepo(t)
	git(t, repo, "checkout", "-q", "-b", "main")
	write(t, repo, "c.txt", "base\n")
	commitAll(t, repo, "base")
	git(t, repo, "checkout", "-q", "-b", "other")
	write(t, repo, "c.txt", "other\n")
	commitAll(t, repo, "other")
	git(t, repo, "checkout", "-q", "main")
	write(t, repo, "c.txt", "main\n")
	commitAll(t, repo, "main")
	if out, err := runGit(context.Background(), repo, "merge", "-q", "other"); err == nil {
		t.Fatalf("merge succeeded, want a conflict:\n%s", out)
	}
	_, err := DigestStaged(context.Background(), repo, []string{"c.txt"})
	if !errors.Is(err, protocol.ErrUsage) || err.Error() != "c.txt is unmerged in the index" {
		t.Errorf("got %v, want the unmerged error", err)
	}
}

func TestParseRawDiff(t *testing.T) {
	z := "0000000000000000000000000000000000000000"
	a := "1111111111111111111111111111111111111111"
	tests := []struct {
		name    string
		out     string
		want    []rawDiff
		wantErr bool
	}{
		{"empty", "", nil, false},
		{"modified and added", ":100644 100644 " + z + " " + a + " M\x00m.go\x00:000000 100755 " + z + " " + a + " A\x00new file.go\x00",
			[]rawDiff{{"m.go", "100644", a}, {"new file.go", "100755", a}}, false},
		{"deleted kept", ":100644 000000 " + a + " " + z + " D\x00gone.go\x00", []rawDiff{{"gone.go", "000000", z}}, false},
		{"rename by its new name", ":100644 100644 " + z + " " + a + " R087\x00old.go\x00new.go\x00", []rawDiff{{"new.go", "100644", a}}, false},
		{"submodule left out", ":160000 160000 " + a + " " + a + " M\x00vendor/lib\x00", nil, false},
		{"garbage", "nonsense\x00x\x00", nil, true},
		{"cut off", ":100644 100644 " + a + " " + a + " M", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseRawDiff([]byte(tt.out))
			if (err != nil) != tt.wantErr {
				t.Fatalf("error: got %v, want error: %v", err, tt.wantErr)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestGitEnv(t *testing.T) {
	cwd := filepath.FromSlash("/top")
	tests := []struct {
		name string
		in   []string
		want []string
	}{
		{"nothing set", []string{"HOME=/h"}, []string{"HOME=/h"}},
		{"relative index made absolute", []string{"GIT_INDEX_FILE=.git/index.lock"},
			[]string{"GIT_INDEX_FILE=" + filepath.Join(cwd, ".git/index.lock")}},
		{"absolute left alone", []string{"GIT_INDEX_FILE=/r/.git/index"}, []string{"GIT_INDEX_FILE=/r/.git/index"}},
		{"git dir without work tree: the current folder is the top level",
			[]string{"GIT_DIR=/r/.git/worktrees/wt"}, []string{"GIT_DIR=/r/.git/worktrees/wt", "GIT_WORK_TREE=" + cwd}},
		{"git dir with work tree", []string{"GIT_DIR=.git", "GIT_WORK_TREE=/w"},
			[]string{"GIT_DIR=" + filepath.Join(cwd, ".git"), "GIT_WORK_TREE=/w"}},
		{"empty value left alone", []string{"GIT_DIR="}, []string{"GIT_DIR="}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := gitEnv(tt.in, cwd); !slices.Equal(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
