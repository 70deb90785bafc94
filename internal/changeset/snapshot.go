package changeset

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Identity signs the commits specdev makes (snapshots, and the review
// state a git remote keeps): they are specdev's records, not anybody's
// work, and must not depend on the user's git configuration.
var Identity = []string{
	"GIT_AUTHOR_NAME=specdev", "GIT_AUTHOR_EMAIL=specdev@localhost",
	"GIT_COMMITTER_NAME=specdev", "GIT_COMMITTER_EMAIL=specdev@localhost",
}

// Snapshot digests the files (relative to the project root) as Digest
// does, and returns with their Sums a commit that holds exactly them as
// they are in the work tree, on top of res.HeadCommit: that commit itself
// when none of them differs from it, "" in a repository without commits.
// res is what Collect found in git; what its git status listed is taken
// from it, and git is asked when it ran none. Each file is read once.
//
// A file git ignores and HEAD lacks stays out, as it does of any commit.
// The commit is made with a temporary index and no ref points at it:
// nothing of the user's (index, branches, work tree) changes. Two
// snapshots give the exact change between two reviewed states:
// git diff SNAPSHOT1..SNAPSHOT2 -- files.
func (res Result) Snapshot(ctx context.Context, files []string) (Sums, string, error) {
	repo, head := res.repo, res.HeadCommit
	if repo == nil {
		return Sums{}, "", ErrNotGit
	}
	var dirty []string
	if head != "" && len(files) > 0 {
		var err error
		if dirty, err = repo.dirty(ctx, res.changed, files); err != nil {
			return Sums{}, "", err
		}
	}
	store := storeAhead(ctx, repo.root, dirty)
	sums, err := digestAll(repo.root, files, store)
	store.finish()
	if err != nil || len(dirty) == 0 {
		return sums, head, err
	}
	commit, err := repo.commitFiles(ctx, head, dirty)
	return sums, commit, err
}

// commitFiles commits, on top of head, the tree of head with the files
// (relative to the project root) as the work tree has them.
func (r *repo) commitFiles(ctx context.Context, head string, files []string) (string, error) {
	dir, err := os.MkdirTemp("", "specdev-index-") // for an index git creates itself
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	env := append([]string{"GIT_INDEX_FILE=" + filepath.Join(dir, "index")}, Identity...)
	env = append(env, keepHeap...) // write-tree sets up zlib for each new tree
	if _, err := Git(ctx, r.root, env, nil, nil, "read-tree", head); err != nil {
		return "", err
	}
	// The paths go on stdin: no argument list to outgrow, however many.
	if _, err := Git(ctx, r.root, env, strings.NewReader(strings.Join(files, "\x00")+"\x00"), nil, "update-index", "--add", "--remove", "-z", "--stdin"); err != nil {
		return "", err
	}
	tree, err := Git(ctx, r.root, env, nil, nil, "write-tree")
	if err != nil {
		return "", err
	}
	return commitTree(ctx, r.root, env, tree, head, "specdev: the files of a review request, as requested")
}

// commitTree commits tree (as write-tree printed it) on top of head, as
// specdev, with env, and returns the new commit.
func commitTree(ctx context.Context, root string, env []string, tree []byte, head, msg string) (string, error) {
	commit, err := Git(ctx, root, env, nil, nil, "commit-tree", strings.TrimSpace(string(tree)), "-p", head, "-m", msg)
	return strings.TrimSpace(string(commit)), err
}

// dirty is the files (relative to the project root) whose work-tree or
// index copy differs from HEAD, or that git does not track and does not
// ignore: the ones a snapshot must take from the work tree. changed is
// what git status listed (relative to the project root), or nil to ask it:
// one git status of the whole tree, filtered here (given the files as
// pathspecs, git matches every path against every one of them).
func (r *repo) dirty(ctx context.Context, changed map[string]bool, files []string) ([]string, error) {
	if changed == nil {
		paths, origins, err := r.status(ctx)
		if err != nil {
			return nil, err
		}
		changed = r.relative(append(paths, origins...))
	}
	return slices.DeleteFunc(slices.Clone(files), func(f string) bool { return !changed[f] }), nil
}

// relative is the set of paths (relative to the top level) inside the
// project, relative to the project root.
func (r *repo) relative(paths []string) map[string]bool {
	set := make(map[string]bool, len(paths))
	for _, p := range paths {
		if rel, ok := strings.CutPrefix(p, r.prefix); ok {
			set[rel] = true
		}
	}
	return set
}

// SnapshotStaged returns a commit that holds the index as it is (what git
// commit would commit), on top of HEAD; "" in a repository without
// commits. Only objects are written: no ref, and nothing of the user's
// (index, branches, work tree) changes. It is what a review of the staged
// change saw, so that the next round's changes are read from it, not from
// a commit against itself. (A review of the staged change has files
// staged, so the commit is never HEAD's tree again, bar a race.)
func SnapshotStaged(ctx context.Context, root string) (string, error) {
	repo, err := openRepo(ctx, root)
	if err != nil || repo.head == "" {
		return "", err
	}
	tree, err := runGit(ctx, root, "write-tree")
	if err != nil {
		return "", err
	}
	return commitTree(ctx, root, Identity, tree, repo.head, "specdev: the staged change of a review request, as requested")
}
