package changeset

import (
	"bytes"
	"context"
	"os"
	"strings"
)

// snapshotIdentity signs snapshot commits: they are specdev's record of
// what was reviewed, not anybody's work, and must not depend on the
// user's git configuration.
var snapshotIdentity = []string{
	"GIT_AUTHOR_NAME=specdev", "GIT_AUTHOR_EMAIL=specdev@localhost",
	"GIT_COMMITTER_NAME=specdev", "GIT_COMMITTER_EMAIL=specdev@localhost",
}

// Snapshot returns a commit that holds exactly the files (relative to
// root) as they are in the work tree, on top of HEAD: HEAD itself when
// none of them differs from it, "" in a repository without commits. The
// commit is made with a temporary index and no ref points at it: nothing
// of the user's (index, branches, work tree) changes. Two snapshots give
// the exact change between two reviewed states:
// git diff SNAPSHOT1..SNAPSHOT2 -- files.
func Snapshot(ctx context.Context, root string, files []string) (string, error) {
	repo, err := openRepo(ctx, root)
	if err != nil {
		return "", err
	}
	head, err := repo.head(ctx)
	if err != nil || head == "" || len(files) == 0 {
		return head, err
	}
	dirty, err := runGit(ctx, root, append([]string{"status", "--porcelain=v1", "-z", "--untracked-files=all", "--"}, files...)...)
	if err != nil || len(dirty) == 0 {
		return head, err
	}
	index, err := os.CreateTemp("", "specdev-index-")
	if err != nil {
		return "", err
	}
	index.Close()
	defer os.Remove(index.Name())
	os.Remove(index.Name()) // git wants to create it
	env := append([]string{"GIT_INDEX_FILE=" + index.Name()}, snapshotIdentity...)
	if _, err := gitWith(ctx, root, env, "read-tree", head); err != nil {
		return "", err
	}
	if _, err := gitWith(ctx, root, env, append([]string{"update-index", "--add", "--remove", "--"}, files...)...); err != nil {
		return "", err
	}
	tree, err := gitWith(ctx, root, env, "write-tree")
	if err != nil {
		return "", err
	}
	commit, err := gitWith(ctx, root, env, "commit-tree", strings.TrimSpace(string(tree)), "-p", head, "-m", "specdev: the files of a review request, as requested")
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(commit)), nil
}

// gitWith is runGit with extra environment variables (they win).
func gitWith(ctx context.Context, root string, env []string, args ...string) ([]byte, error) {
	cmd := gitCommand(ctx, root, args...)
	cmd.Env = append(cmd.Env, env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, gitFailed(ctx, args, err, stderr.String())
	}
	return stdout.Bytes(), nil
}
