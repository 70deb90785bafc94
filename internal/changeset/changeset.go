// Package changeset works out what a review request covers: the files to
// review, the git HEAD they were taken at, and a fingerprint of their
// content, so that `specdev work request` can write them and a later check
// can tell whether they changed since.
//
// Without an explicit list the files are what git says changed: uncommitted
// changes (staged, unstaged, deletions, the new side of renames), untracked
// files that .gitignore does not hide, and, given a base revision, the files
// changed between it and HEAD.
//
// Invariants:
//   - Never runs a shell: git runs as an argv (exec.CommandContext, -C root,
//     GIT_OPTIONAL_LOCKS=0), and only git runs.
//   - Never returns a path outside the project root or under .specdev/:
//     every path is relative to the root, clean, slash-separated, and has
//     passed CheckFile (no "..", no symlink leading out of the project).
//   - Every refused path is a *protocol.InvalidError (errors.Is
//     protocol.ErrInvalid); a bad flag is a *protocol.UsageError.
//   - Read-only: nothing here writes to the project or to git.
package changeset

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/specdev/specdev/protocol"
)

// Options says which files make up a review request.
type Options struct {
	Root  string   // absolute project root: the folder that holds .specdev/
	Base  string   // git revision to diff from; "" for none
	Files []string // --files: when non-nil, exactly these (repo-relative to Root)
}

// Result is what Collect found.
type Result struct {
	HeadCommit string   // full hash of HEAD, "" outside git or in a repo with no commits
	Files      []string // sorted, deduplicated, relative to Root, slash-separated
	InGit      bool
}

// Collect finds the files a review request covers: opt.Files when given,
// otherwise what git reports as changed (see the package comment). Outside
// git, opt.Files is required.
func Collect(ctx context.Context, opt Options) (Result, error) {
	repo, err := openRepo(ctx, opt.Root)
	switch {
	case errors.Is(err, ErrNotGit) && opt.Base != "":
		return Result{}, &protocol.UsageError{
			Msg:  fmt.Sprintf("--base %s: %s", opt.Base, ErrNotGit),
			Hint: "leave out --base outside git, and list the files to review with --files",
			Err:  ErrNotGit,
		}
	case errors.Is(err, ErrNotGit) && opt.Files != nil:
		// Outside git the listed files are all there is to review.
	case err != nil:
		return Result{}, err
	}
	res := Result{InGit: repo != nil}
	var base string
	if repo != nil {
		if res.HeadCommit, err = repo.head(ctx); err != nil {
			return Result{}, err
		}
		if base, err = repo.resolveBase(ctx, opt.Base); err != nil {
			return Result{}, err
		}
	}
	if opt.Files != nil {
		res.Files, err = explicitFiles(opt.Root, opt.Files)
		return res, err
	}
	res.Files, err = changedFiles(ctx, repo, base)
	return res, err
}

// explicitFiles checks each of the files the user listed and returns them
// sorted and deduplicated.
func explicitFiles(root string, files []string) ([]string, error) {
	for i, p := range files {
		if err := checkListed(root, p); err != nil {
			var inv *protocol.InvalidError
			if errors.As(err, &inv) {
				return nil, &protocol.InvalidError{
					File: "--files", Field: fmt.Sprintf("files[%d]", i), Problem: inv.Problem, Hint: inv.Hint,
				}
			}
			return nil, err
		}
	}
	return sortedSet(files), nil
}

// changedFiles asks git what changed and keeps what lies inside the project.
func changedFiles(ctx context.Context, repo *repo, base string) ([]string, error) {
	paths, err := repo.status(ctx)
	if err != nil {
		return nil, err
	}
	if base != "" {
		committed, err := repo.diff(ctx, base)
		if err != nil {
			return nil, err
		}
		paths = append(paths, committed...)
	}
	var files []string
	for _, p := range sortedSet(paths) {
		rel, ok := repo.project(p)
		if !ok {
			continue
		}
		keep, err := reviewable(repo.root, rel)
		if err != nil {
			return nil, err
		}
		if keep {
			files = append(files, rel)
		}
	}
	return sortedSet(files), nil
}

// sortedSet returns a sorted copy of paths without duplicates; never nil.
func sortedSet(paths []string) []string {
	out := slices.Clone(paths)
	if out == nil {
		out = []string{}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
