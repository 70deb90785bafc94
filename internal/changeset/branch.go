package changeset

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/specdev/specdev/internal/shellword"
	"github.com/specdev/specdev/protocol"
)

// BranchPoint is where the work of the current branch starts: the
// merge-base of HEAD with the branch it is compared with.
type BranchPoint struct {
	Ref  string // what HEAD was compared with, e.g. "origin/feature" (the upstream), "origin/main", "main"
	Base string // full hash of the merge-base of HEAD and Ref
}

// branchPoint compares HEAD with, in this order, the upstream of the
// current branch, the remote's default branch (origin/HEAD), main and
// master, and returns the merge-base with the first of them that exists
// and shares history with HEAD. ok is false when none does, or when the
// repository has no commits.
func (r *repo) branchPoint(ctx context.Context) (bp BranchPoint, ok bool, err error) {
	if r.head == "" {
		return BranchPoint{}, false, nil
	}
	upstream, err := r.optionalRef(ctx, "rev-parse", "--symbolic-full-name", "@{upstream}")
	if err != nil {
		return BranchPoint{}, false, err
	}
	candidates, err := r.defaultBranches(ctx, upstream)
	if err != nil {
		return BranchPoint{}, false, err
	}
	for _, ref := range candidates {
		base, found, err := gitLine(ctx, r.root, "merge-base", "HEAD", ref) // found: they share history
		if err != nil {
			return BranchPoint{}, false, err
		}
		if found {
			return BranchPoint{Ref: shortRef(ref), Base: base}, true, nil
		}
	}
	return BranchPoint{}, false, nil
}

// defaultBranches lists, in order of preference, the full names of the
// refs that exist of first and the default-branch candidates:
// origin/HEAD's target, main, master.
func (r *repo) defaultBranches(ctx context.Context, first ...string) ([]string, error) {
	originHead, err := r.optionalRef(ctx, "symbolic-ref", "-q", "refs/remotes/origin/HEAD")
	var refs []string
	for _, ref := range append(first, originHead, "refs/heads/main", "refs/heads/master") {
		if ref != "" && err == nil && CommitExists(ctx, r.root, ref) {
			refs = append(refs, ref)
		}
	}
	return refs, err
}

// optionalRef runs a git command that prints a ref name, and returns ""
// when git says there is none (no upstream, detached HEAD, no origin/HEAD).
func (r *repo) optionalRef(ctx context.Context, args ...string) (string, error) {
	ref, _, err := gitLine(ctx, r.root, args...)
	if !strings.HasPrefix(ref, "refs/") {
		return "", err
	}
	return ref, err
}

// shortRef is how people name a ref: main, origin/main.
func shortRef(ref string) string {
	for _, prefix := range []string{"refs/heads/", "refs/remotes/", "refs/tags/"} {
		if s, ok := strings.CutPrefix(ref, prefix); ok {
			return s
		}
	}
	return ref
}

// CurrentBranch is the short name of the branch checked out at root; ""
// when HEAD is detached, outside git, or when git cannot tell.
func CurrentBranch(ctx context.Context, root string) string {
	ref, _ := (&repo{root: root}).optionalRef(ctx, "symbolic-ref", "-q", "HEAD") // "" on any error
	return shortRef(ref)
}

// IsAncestor reports whether commit ancestor is reachable from commit
// (false when either is not a commit here).
func IsAncestor(ctx context.Context, root, ancestor, commit string) bool {
	_, err := runGit(ctx, root, "merge-base", "--is-ancestor", "--end-of-options", ancestor, commit)
	return err == nil
}

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
	if err != nil || repo.head == "" {
		return 0, false, err
	}
	from, found, err := verifyCommit(ctx, root, since)
	if since == "" {
		var bp BranchPoint
		bp, found, err = repo.branchPoint(ctx)
		from = bp.Base
	}
	if err != nil || !found {
		return 0, false, err
	}
	out, err := runGit(ctx, root, "rev-list", "--count", from+"..HEAD")
	if err == nil {
		n, err = strconv.Atoi(strings.TrimSpace(string(out)))
	}
	return n, err == nil, err
}

// Hint is a revision that works as --base: a request with it finds files
// to review.
type Hint struct {
	Rev  string // e.g. "HEAD~1", "v1.2.0", "main"
	What string // what it reviews, e.g. "the last commit"
}

// BaseHints lists the revisions that, given as --base, would find
// something to review now, for the error that says there was nothing:
// the last commit, everything since the last tag before it, and what the
// branch adds over the default branch. Each was tried, so none of them
// repeats the failure; the list is empty when none works (a repository
// with one commit that touched only .specdev/, say).
func BaseHints(ctx context.Context, root string) ([]Hint, error) {
	repo, err := openRepo(ctx, root)
	if err != nil || repo.head == "" {
		return nil, err
	}
	candidates := []Hint{{Rev: "HEAD~1", What: "the last commit"}}
	// The newest tag before HEAD, so that a range from it is never empty.
	tag, _, err := gitLine(ctx, root, "describe", "--tags", "--abbrev=0", "HEAD~1")
	if err != nil {
		return nil, err
	}
	if tag != "" && shellword.Word(tag) == tag { // else none, or not safe to paste into a shell command line as it is
		candidates = append(candidates, Hint{Rev: tag, What: "everything since tag " + tag})
	}
	defaults, err := repo.defaultBranches(ctx)
	for _, ref := range defaults {
		name := shortRef(ref)
		candidates = append(candidates, Hint{Rev: name, What: "everything this branch adds over " + name})
	}
	// Keep those that name a commit other than HEAD and those already
	// kept, and that find files to review.
	seen := map[string]bool{repo.head: true}
	var hints []Hint
	for _, h := range candidates {
		var files []string
		base, ok, err := verifyCommit(ctx, root, h.Rev)
		if ok && !seen[base] {
			seen[base] = true
			files, _, err = changedFiles(ctx, repo, base)
		}
		if errors.Is(err, protocol.ErrInvalid) {
			continue // the same request would be refused
		}
		if err != nil {
			return nil, err
		}
		if len(files) > 0 {
			hints = append(hints, h)
		}
	}
	return hints, err
}
