package changeset

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// A snapshot holds the listed files as the work tree has them and every
// other path as HEAD has it, in a project that is a subfolder of the
// repository too.
func TestSnapshot(t *testing.T) {
	requireGit(t)
	repo := newRepo(t)
	root := filepath.Join(repo, "proj")
	for _, f := range []string{"mod.txt", "staged.txt", "gone.txt", "old.txt", "same.txt", "other.txt"} {
		write(t, root, f, "content of "+f+"\n")
	}
	write(t, repo, "outside.txt", "outside\n")
	write(t, repo, ".gitignore", "*.log\n")
	commitAll(t, repo, "initial")
	head := git(t, repo, "rev-parse", "HEAD")

	write(t, root, "mod.txt", "changed\n")
	write(t, root, "staged.txt", "staged\n")
	git(t, root, "add", "staged.txt")
	remove(t, root, "gone.txt")
	git(t, root, "mv", "old.txt", "new.txt")
	write(t, root, "untracked/deep.txt", "new\n")
	write(t, root, "other.txt", "changed, not listed\n")
	write(t, repo, "outside.txt", "changed outside the project\n")
	write(t, root, "debug.log", "ignored\n")

	files := []string{"debug.log", "gone.txt", "mod.txt", "new.txt", "old.txt", "same.txt", "staged.txt", "untracked/deep.txt"}
	commit, err := snapshot(t, root, files)
	if err != nil {
		t.Fatal(err)
	}
	// what Collect's git status listed (a rename as its new name, with
	// the old one among the origins) gives the same tree
	res, err := Collect(context.Background(), Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	_, again, err := res.Snapshot(context.Background(), files)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := git(t, repo, "rev-parse", again+"^{tree}"), git(t, repo, "rev-parse", commit+"^{tree}"); got != want {
		t.Errorf("the snapshot from Collect's status has tree %s, want %s", got, want)
	}
	if commit == head || commit == "" {
		t.Fatalf("Snapshot: got %q, want a new commit on top of %s", commit, head)
	}
	if parent := git(t, repo, "rev-parse", commit+"^"); parent != head {
		t.Errorf("parent: got %s, want HEAD %s", parent, head)
	}
	got := git(t, repo, "ls-tree", "-r", "--name-only", commit)
	want := strings.Join([]string{".gitignore", "outside.txt", "proj/mod.txt", "proj/new.txt", "proj/other.txt",
		"proj/same.txt", "proj/staged.txt", "proj/untracked/deep.txt"}, "\n")
	if got != want {
		t.Errorf("files of the snapshot:\n%s\nwant\n%s", got, want)
	}
	for path, content := range map[string]string{
		"proj/mod.txt":            "changed",
		"proj/staged.txt":         "staged",
		"proj/new.txt":            "content of old.txt",
		"proj/untracked/deep.txt": "new",
		"proj/same.txt":           "content of same.txt",
		"proj/other.txt":          "content of other.txt", // not listed: as HEAD has it
		"outside.txt":             "outside",
	} {
		if got := git(t, repo, "show", commit+":"+path); got != content {
			t.Errorf("%s in the snapshot: got %q, want %q", path, got, content)
		}
	}
	if status := git(t, repo, "status", "--porcelain"); !strings.Contains(status, "M  proj/staged.txt") || !strings.Contains(status, " M proj/mod.txt") {
		t.Errorf("the user's index changed:\n%s", status)
	}
}

// Files that do not differ from HEAD give HEAD itself; no files, or a
// repository without commits, give what HEAD is.
func TestSnapshotClean(t *testing.T) {
	requireGit(t)
	repo := newRepo(t)
	if got, err := snapshot(t, repo, []string{"a.txt"}); got != "" || err != nil {
		t.Errorf("without commits: got %q, %v; want \"\", nil", got, err)
	}
	write(t, repo, "a.txt", "a\n")
	write(t, repo, "b.txt", "b\n")
	commitAll(t, repo, "initial")
	head := git(t, repo, "rev-parse", "HEAD")
	write(t, repo, "b.txt", "changed\n")
	for _, files := range [][]string{nil, {"a.txt"}} {
		if got, err := snapshot(t, repo, files); got != head || err != nil {
			t.Errorf("Snapshot(%q): got %q, %v; want HEAD %s", files, got, err, head)
		}
	}
}

// Thousands of listed files, all changed, go to git on stdin, not as
// arguments.
func TestSnapshotMany(t *testing.T) {
	requireGit(t)
	repo := newRepo(t)
	write(t, repo, "README", "x\n")
	commitAll(t, repo, "initial")
	var files []string
	for i := range 3000 {
		f := fmt.Sprintf("a-rather-long-folder-name-%02d/and-a-rather-long-file-name-%04d.txt", i%40, i)
		write(t, repo, f, f+"\n")
		files = append(files, f)
	}
	commit, err := snapshot(t, repo, files)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(strings.Split(git(t, repo, "ls-tree", "-r", "--name-only", commit), "\n")); n != 3001 {
		t.Errorf("the snapshot holds %d files, want 3001", n)
	}
	if got := git(t, repo, "show", commit+":"+files[2999]); got != files[2999] {
		t.Errorf("%s: got %q", files[2999], got)
	}
}

// snapshot is the snapshot of files in the project at root, git asked
// what changed.
func snapshot(t *testing.T, root string, files []string) (string, error) {
	t.Helper()
	repo, err := openRepo(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	_, commit, err := Result{repo: repo, HeadCommit: repo.head}.Snapshot(context.Background(), files)
	return commit, err
}
