package changeset

import (
	"context"
	"strings"
)

// SnapshotStaged returns a commit that holds the index as it is (what git
// commit would commit), on top of HEAD: HEAD itself when nothing is
// staged, "" in a repository without commits. Only objects are written:
// no ref, and nothing of the user's (index, branches, work tree) changes.
// It is what a review of the staged change saw, so that the next round's
// changes are read from it, not from a commit against itself.
func SnapshotStaged(ctx context.Context, root string) (string, error) {
	repo, err := openRepo(ctx, root)
	if err != nil {
		return "", err
	}
	head, err := repo.head(ctx)
	if err != nil || head == "" {
		return head, err
	}
	tree, err := runGit(ctx, root, "write-tree")
	if err != nil {
		return "", err
	}
	headTree, err := runGit(ctx, root, "rev-parse", head+"^{tree}")
	if err != nil {
		return "", err
	}
	if strings.TrimSpace(string(tree)) == strings.TrimSpace(string(headTree)) {
		return head, nil
	}
	commit, err := gitWith(ctx, root, snapshotIdentity, nil, "commit-tree", strings.TrimSpace(string(tree)), "-p", head,
		"-m", "specdev: the staged change of a review request, as requested")
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(commit)), nil
}
