package changeset

import (
	"context"
	"errors"
	"strings"

	"github.com/specdev/specdev/protocol"
)

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
	repo, head, err := openHead(ctx, root)
	if err != nil || head == "" {
		return nil, err
	}
	candidates := []Hint{{Rev: "HEAD~1", What: "the last commit"}}
	if tag, err := repo.lastTag(ctx); err != nil {
		return nil, err
	} else if tag != "" {
		candidates = append(candidates, Hint{Rev: tag, What: "everything since tag " + tag})
	}
	defaults, err := repo.defaultBranches(ctx)
	if err != nil {
		return nil, err
	}
	for _, ref := range defaults {
		name := shortRef(ref)
		candidates = append(candidates, Hint{Rev: name, What: "everything this branch adds over " + name})
	}
	return repo.workingHints(ctx, head, candidates)
}

// workingHints keeps the candidates that name a commit other than HEAD
// and those already kept, and that find files to review.
func (r *repo) workingHints(ctx context.Context, head string, candidates []Hint) ([]Hint, error) {
	seen := map[string]bool{head: true}
	var hints []Hint
	for _, h := range candidates {
		base, ok, err := verifyCommit(ctx, r.root, h.Rev)
		if err != nil {
			return nil, err
		}
		if !ok || seen[base] {
			continue
		}
		seen[base] = true
		files, err := changedFiles(ctx, r, base)
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
	return hints, nil
}

// tagBytes are the bytes of a tag name that needs no quoting in a shell,
// which starts with a letter or a digit: ^[A-Za-z0-9][A-Za-z0-9._/+-]*$.
const tagBytes = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._/+-"

// plainTag reports whether tag needs no quoting in a shell.
func plainTag(tag string) bool {
	return tag != "" && strings.IndexByte("._/+-", tag[0]) < 0 && strings.Trim(tag, tagBytes) == ""
}

// lastTag is the newest tag reachable from HEAD's first parent (so that a
// range from it is never empty), or "".
func (r *repo) lastTag(ctx context.Context) (string, error) {
	if _, ok, err := verifyCommit(ctx, r.root, "HEAD~1"); err != nil || !ok {
		return "", err
	}
	tag, err := r.optional(ctx, "describe", "--tags", "--abbrev=0", "HEAD~1")
	if !plainTag(tag) {
		return "", err // no tag, or not safe to paste into a shell command line
	}
	return tag, err
}
