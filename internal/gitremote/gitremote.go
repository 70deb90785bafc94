// Package gitremote keeps each assignment's review state on a git remote,
// for implementers and reviewers on machines that share no disk: the ref
// refs/specdev/assignments/<name> points at a commit whose tree holds the
// assignment's state files and whose parent is the state before it.
//
// Invariants:
//   - Only objects are written (hash-object, mktree, commit-tree) under a
//     fixed specdev identity: never the index, the work tree, a branch or
//     any local ref.
//   - A push is a compare-and-swap: --force-with-lease names the commit
//     the change was made from (or no ref at all), and the server updates
//     the ref atomically, so of two machines racing one wins and the other
//     is told (checkpoint.ErrRaced).
//   - git never prompts: a remote that needs a password fails instead.
package gitremote

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/specdev/specdev/checkpoint"
	"github.com/specdev/specdev/internal/changeset"
)

// RefPrefix is where a remote keeps the assignments' states.
const RefPrefix = "refs/specdev/assignments/"

// Remote is one git remote of the repository that holds the project.
type Remote struct {
	root   string // a folder inside the repository
	remote string // the remote's name, as git's config knows it
}

// New returns the remote called name of the repository holding root.
func New(root, name string) *Remote { return &Remote{root: root, remote: name} }

// Name is the remote's name.
func (r *Remote) Name() string { return r.remote }

// List returns the commit of every assignment the remote holds, by name.
func (r *Remote) List(ctx context.Context) (map[string]string, error) {
	out, err := r.git(ctx, nil, nil, "ls-remote", "--refs", r.remote, RefPrefix+"*")
	if err != nil {
		return nil, r.unreachable(err)
	}
	names := map[string]string{}
	for line := range strings.Lines(string(out)) {
		id, ref, _ := strings.Cut(strings.TrimSpace(line), "\t")
		if name, ok := strings.CutPrefix(ref, RefPrefix); ok && !strings.Contains(name, "/") {
			names[name] = id
		}
	}
	return names, nil
}

// Fetch returns the assignment's state as the remote holds it now (nil
// when it holds none), or state id if given.
func (r *Remote) Fetch(ctx context.Context, name, id string) (*checkpoint.RemoteState, error) {
	if id == "" {
		names, err := r.List(ctx)
		if id = names[name]; err != nil || id == "" {
			return nil, err
		}
	}
	return r.Read(ctx, RefPrefix+name, id)
}

// Read returns the state that commit id of ref holds, fetched from the
// remote first if this repository lacks it.
func (r *Remote) Read(ctx context.Context, ref, id string) (*checkpoint.RemoteState, error) {
	st, err := r.read(ctx, ref, id)
	if !errors.Is(err, errMissing) {
		return st, err
	}
	if _, err := r.git(ctx, nil, nil, "-c", "gc.auto=0", "-c", "maintenance.auto=false", "fetch", "-q", "--no-tags",
		"--no-write-fetch-head", "--no-recurse-submodules", r.remote, id); err != nil {
		return nil, r.unreachable(err)
	}
	return r.read(ctx, ref, id)
}

// Push makes c the state of assignment name, as the child of base (nil:
// the first state), if the remote still holds base; checkpoint.ErrRaced
// if another machine changed it first.
func (r *Remote) Push(ctx context.Context, name string, base *checkpoint.RemoteState, c checkpoint.RemoteCommit) (string, error) {
	tree, err := r.tree(ctx, c.Files)
	if err != nil {
		return "", err
	}
	args := []string{"commit-tree", tree, "-m", c.Message, "--no-gpg-sign"}
	if c.Sign {
		args[len(args)-1] = "-S"
	}
	ref, lease := RefPrefix+name, RefPrefix+name+":"
	if base != nil {
		args = append(args, "-p", base.ID)
		lease += base.ID
	}
	date := fmt.Sprintf("%d +0000", c.Time.Unix())
	env := slices.Concat(changeset.Identity, []string{"GIT_AUTHOR_DATE=" + date, "GIT_COMMITTER_DATE=" + date})
	id, err := r.git(ctx, env, nil, args...)
	if err != nil {
		if c.Sign {
			return "", signError(err)
		}
		return "", err
	}
	commit := string(bytes.TrimSpace(id))
	out, err := r.git(ctx, nil, nil, "push", "--porcelain", "--no-verify", "--force-with-lease="+lease, r.remote, commit+":"+ref)
	if err == nil {
		return commit, nil
	}
	if reason, rejected := pushRejection(out, ref); rejected {
		if raced(reason) {
			return "", checkpoint.ErrRaced
		}
		return "", fmt.Errorf("%s refused the push of %s: %s", r.remote, ref, reason)
	}
	return "", r.unreachable(err)
}

// tree writes files as blobs and a tree of them, and returns the tree's
// id.
func (r *Remote) tree(ctx context.Context, files map[string][]byte) (string, error) {
	var tree bytes.Buffer
	for _, name := range slices.Sorted(maps.Keys(files)) {
		id, err := r.git(ctx, nil, files[name], "hash-object", "-w", "--no-filters", "--stdin")
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&tree, "100644 blob %s\t%s\n", bytes.TrimSpace(id), name)
	}
	id, err := r.git(ctx, nil, tree.Bytes(), "mktree")
	return string(bytes.TrimSpace(id)), err
}

// pushRejection finds the porcelain line of ref's rejection, and its
// reason in brackets and parentheses.
func pushRejection(out []byte, ref string) (reason string, rejected bool) {
	for line := range strings.Lines(string(out)) {
		fields := strings.SplitN(strings.TrimRight(line, "\n"), "\t", 3)
		if len(fields) == 3 && fields[0] == "!" && strings.HasSuffix(fields[1], ":"+ref) {
			return fields[2], true
		}
	}
	return "", false
}

// raced reports whether a rejection says the ref is no longer what the
// lease named: seen by git before sending (stale info), or by the server
// as it updated the ref.
func raced(reason string) bool {
	return slices.ContainsFunc([]string{"stale info", "fetch first", "non-fast-forward", "lock", "failed to update ref", "incorrect old value", "already exists"},
		func(s string) bool { return strings.Contains(reason, s) })
}

// Verify checks that commit id carries a signature git verifies against
// allowedSigners (an ssh allowed-signers file, as gpg.ssh.allowedSignersFile).
func (r *Remote) Verify(ctx context.Context, id, allowedSigners string) error {
	abs, err := filepath.Abs(allowedSigners)
	if err != nil {
		return err
	}
	if _, err := os.Stat(abs); err != nil {
		return fmt.Errorf("--allowed-signers: %w", err)
	}
	_, err = r.git(ctx, nil, nil, "-c", "gpg.ssh.allowedSignersFile="+abs, "verify-commit", id)
	if g, ok := errors.AsType[*changeset.GitError](err); ok && g.Stderr == "" {
		return errors.New("it carries no signature")
	}
	return err
}

// git runs git in the repository with stdin, and returns its stdout. It
// never prompts: a remote that needs a password fails instead.
func (r *Remote) git(ctx context.Context, env []string, stdin []byte, args ...string) ([]byte, error) {
	env = append([]string{"GIT_TERMINAL_PROMPT=0", "GIT_ASKPASS=", "SSH_ASKPASS="}, env...)
	return changeset.Git(ctx, r.root, env, bytes.NewReader(stdin), nil, args...)
}
