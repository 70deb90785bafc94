package changeset

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/specdev/specdev/protocol"
)

const zeroSHA = "0000000000000000000000000000000000000000"

func TestReadPushes(t *testing.T) {
	a, b := strings.Repeat("a", 40), strings.Repeat("b", 64)
	tests := []struct {
		name    string
		in      string
		want    []Push
		wantErr string
	}{
		{"nothing", "", nil, ""},
		{"two refs and a blank line", "refs/heads/main " + a + " refs/heads/main " + zeroSHA + "\n\n(delete) " + zeroSHA + " refs/heads/old " + b + "\r\n",
			[]Push{{"refs/heads/main", a, "refs/heads/main", zeroSHA}, {"(delete)", zeroSHA, "refs/heads/old", b}}, ""},
		{"three fields", "refs/heads/main " + a + " refs/heads/main\n", nil, "line 1"},
		{"short sha", "refs/heads/main abc refs/heads/main " + a + "\n", nil, "line 1"},
		{"control character in a ref", "\n refs/heads/\x1b " + a + " refs/heads/main " + a + "\n", nil, "line 2"},
		{"too much", strings.Repeat("x", maxPushInput+1), nil, "more than 8 MiB"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ReadPushes(strings.NewReader(tt.in))
			if tt.wantErr != "" {
				if !errors.Is(err, protocol.ErrInvalid) || !strings.Contains(err.Error()+fieldOf(err), tt.wantErr) {
					t.Fatalf("got %v, want an invalid-input error about %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || !slices.Equal(got, tt.want) {
				t.Fatalf("got %v, %v; want %v", got, err, tt.want)
			}
		})
	}
	if !(Push{LocalSHA: zeroSHA}).Deletes() || (Push{LocalSHA: a}).Deletes() {
		t.Error("Deletes: a zero local sha, and only that, deletes")
	}
}

func fieldOf(err error) string {
	var inv *protocol.InvalidError
	if errors.As(err, &inv) {
		return inv.Field
	}
	return ""
}

// pushRepo has a bare remote "origin" that holds main's first commit; the
// work goes on from there.
func pushRepo(t *testing.T) (repo, first string) {
	t.Helper()
	dir := tempDir(t)
	git(t, dir, "init", "-q", "--bare", "up.git")
	repo = dir + "/repo"
	git(t, dir, "init", "-q", "-b", "main", "repo")
	write(t, repo, "base.go", "base\n")
	write(t, repo, "gone.go", "soon gone\n")
	commitAll(t, repo, "base")
	git(t, repo, "remote", "add", "origin", "../up.git")
	git(t, repo, "push", "-q", "-u", "origin", "main")
	return repo, git(t, repo, "rev-parse", "HEAD")
}

func TestPushed(t *testing.T) {
	requireGit(t)
	ctx := context.Background()
	repo, first := pushRepo(t)
	write(t, repo, "a.go", "a v1\n")
	write(t, repo, "flip.go", "flip\n")
	remove(t, repo, "gone.go")
	commitAll(t, repo, "a, flip, no gone")
	write(t, repo, "a.go", "a v2\n")
	remove(t, repo, "flip.go")
	commitAll(t, repo, "a v2, flip undone")
	tip := git(t, repo, "rev-parse", "HEAD")
	write(t, repo, "a.go", "a v3, not committed\n") // the push carries v2, not the work tree

	push := Push{LocalRef: "refs/heads/main", LocalSHA: tip, RemoteRef: "refs/heads/main", RemoteSHA: first}
	got, err := Pushed(ctx, repo, "origin", push)
	if err != nil {
		t.Fatal(err)
	}
	if got.Commits != 2 || !slices.Equal(got.Files, []string{"a.go", "gone.go"}) {
		t.Fatalf("got %d commits, files %q; want 2, [a.go gone.go] (flip.go came and went)", got.Commits, got.Files)
	}
	v2, _ := Digest(writeTemp(t, "a.go", "a v2\n"), []string{"a.go"})
	if got.Sums.Files["a.go"] != v2.Files["a.go"] || got.Sums.Files["gone.go"] != protocol.DigestDeleted {
		t.Errorf("digests: got %v; want a.go's committed content and gone.go deleted", got.Sums.Files)
	}

	// a new branch: what origin/main has does not count, the rest does
	push.RemoteRef, push.RemoteSHA = "refs/heads/topic", zeroSHA
	if got, err := Pushed(ctx, repo, "origin", push); err != nil || got.Commits != 2 {
		t.Errorf("new branch: got %d commits, %v; want 2", got.Commits, err)
	}
	// to a URL git keeps no remote-tracking branches for: every commit
	if got, err := Pushed(ctx, repo, "../up.git", push); err != nil || got.Commits != 3 || !slices.Contains(got.Files, "base.go") {
		t.Errorf("to a URL: got %d commits, files %q, %v; want 3 with base.go", got.Commits, got.Files, err)
	}
	// deleting a ref carries nothing
	if got, err := Pushed(ctx, repo, "origin", Push{LocalRef: "(delete)", LocalSHA: zeroSHA, RemoteRef: "refs/heads/x", RemoteSHA: first}); err != nil || got.Commits != 0 || len(got.Files) != 0 {
		t.Errorf("delete: got %+v, %v", got, err)
	}
}

func TestUnpushed(t *testing.T) {
	requireGit(t)
	ctx := context.Background()
	repo, _ := pushRepo(t)
	write(t, repo, "evil.go", "unreviewed\n")
	commitAll(t, repo, "evil")
	git(t, repo, "branch", "--unset-upstream") // HEAD is still compared with origin/main
	write(t, repo, "wip.go", "untracked\n")
	for _, checkout := range [][]string{nil, {"checkout", "-q", "-b", "new"}, {"checkout", "-q", "--detach"}} {
		if checkout != nil {
			git(t, repo, checkout...)
		}
		got, ok, err := Unpushed(ctx, repo)
		if err != nil || !ok || got.Commits != 1 || !slices.Equal(got.Files, []string{"evil.go", "wip.go"}) {
			t.Errorf("after %v: got %+v, %v, %v; want evil.go (1 commit) and wip.go", checkout, got, ok, err)
		}
	}
	if _, ok, err := Unpushed(ctx, newRepo(t)); ok || err != nil {
		t.Errorf("no remote: got ok %v, %v; want false", ok, err)
	}
}

// writeTemp is a folder holding one file, for Digest.
func writeTemp(t *testing.T, rel, content string) string {
	t.Helper()
	dir := t.TempDir()
	write(t, dir, rel, content)
	return dir
}
