package changeset

import (
	"context"
	"errors"
	"strconv"
	"strings"
)

// CommitsSince counts the commits HEAD has that since lacks (git rev-list
// --count since..HEAD): how far the work went since a review saw it. With
// since "" it counts the commits the branch adds over its branch point
// (see BranchPoint). ok is false when there is nothing to count from:
// outside git, in a repository without commits, when since names no
// commit, or when the branch has no branch point.
func CommitsSince(ctx context.Context, root, since string) (n int, ok bool, err error) {
	repo, err := openRepo(ctx, root)
	if errors.Is(err, ErrNotGit) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, err
	}
	head, err := repo.head(ctx)
	if err != nil || head == "" {
		return 0, false, err
	}
	from, found, err := verifyCommit(ctx, root, since)
	if since == "" {
		var bp BranchPoint
		bp, found, err = repo.branchPoint(ctx, head)
		from = bp.Base
	}
	if err != nil || !found {
		return 0, false, err
	}
	out, err := runGit(ctx, root, "rev-list", "--count", from+"..HEAD")
	if err != nil {
		return 0, false, err
	}
	n, err = strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil {
		return 0, false, err
	}
	return n, true, nil
}
