// Package changeset works out what a review request covers: the files to
// review, the git HEAD they were taken at, and a fingerprint of their
// content, so that `specdev work request` can write them and a later check
// can tell whether they changed since.
//
// Without an explicit list the files are what git says changed: uncommitted
// changes (staged, unstaged, deletions, the new side of renames), untracked
// files that .gitignore does not hide, and, given a base revision, the files
// changed between it and HEAD. With Options.Branch and no base, the base is
// where the branch's work starts: the merge-base of HEAD with its upstream,
// or else with the default branch (origin/HEAD, main, master). With
// Options.Staged the files are exactly the staged change, and DigestStaged
// hashes the content the index holds: what `git commit` would commit.
//
// Digest (and DigestStaged) return each file's content digest together
// with the Fingerprint, in one pass.
//
// Invariants:
//   - Never runs a shell: git runs as an argv (exec.CommandContext, -C root,
//     GIT_OPTIONAL_LOCKS=0), and only git runs. Git is that runner, which
//     the git hooks and the git remote use too.
//   - Never returns a path outside the project root or under .specdev/:
//     every path is relative to the root, clean, slash-separated, and has
//     passed CheckFile (no "..", no symlink leading out of the project).
//   - Every refused path is a *protocol.InvalidError (errors.Is
//     protocol.ErrInvalid); a bad flag is a *protocol.UsageError.
//   - Read-only: nothing here writes to the project or to git.
package changeset

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/specdev/specdev/protocol"
)

// Options says which files make up a review request.
type Options struct {
	Root   string   // absolute project root: the folder that holds .specdev/
	Base   string   // git revision to diff from; "" for none
	Files  []string // --files: when non-nil, exactly these, as typed (see ProjectPath)
	Cwd    string   // the folder relative Files are read from (ProjectPath); "" for Root
	Branch bool     // with no Base: also the commits the branch adds (see BranchPoint)
	Staged bool     // exactly the staged change (the index against HEAD); no Base, no Files
}

// Result is what Collect found.
type Result struct {
	HeadCommit string   // full hash of HEAD, "" outside git or in a repo with no commits
	Files      []string // sorted, deduplicated, relative to Root, slash-separated
	InGit      bool
	// Base is the full hash of the commit the committed part of Files
	// starts from (Base..HEAD), "" when Files include no commit range.
	Base string
	// Branch is what HEAD was compared with when Options.Branch chose the
	// range; nil when it was not asked or nothing could be compared with.
	// Branch.Base == HeadCommit means the branch adds no commits (Base is
	// then "").
	Branch *BranchPoint

	repo    *repo           // nil outside git
	changed map[string]bool // what git status listed, relative to Root (Snapshot); nil when it did not run
}

// Collect finds the files a review request covers: opt.Files when given,
// otherwise what git reports as changed (see the package comment). Outside
// git, opt.Files is required.
func Collect(ctx context.Context, opt Options) (Result, error) {
	if opt.Staged && (opt.Base != "" || opt.Files != nil) {
		return Result{}, &protocol.UsageError{Msg: "--staged reviews exactly the staged change: it takes no --base or --files",
			Hint: "stage what to review with git add, then run it with --staged alone"}
	}
	repo, err := openRepo(ctx, opt.Root)
	if errors.Is(err, ErrNotGit) && (opt.Base != "" || opt.Staged) {
		flag, word := "--base "+opt.Base, "--base"
		if opt.Staged {
			flag, word = "--staged", "--staged"
		}
		return Result{}, &protocol.UsageError{Msg: flag + ": " + ErrNotGit.Error(),
			Hint: "leave out " + word + " outside git, and list the files to review with --files", Err: ErrNotGit}
	}
	if err != nil && (opt.Files == nil || !errors.Is(err, ErrNotGit)) { // outside git the listed files are all there is to review
		return Result{}, err
	}
	res := Result{InGit: repo != nil, repo: repo}
	var base string
	if repo != nil {
		res.HeadCommit = repo.head
		var ok bool
		if base, ok, err = verifyCommit(ctx, repo.root, opt.Base); err == nil && !ok && opt.Base != "" {
			err = &protocol.UsageError{Msg: fmt.Sprintf("--base %s: %v", opt.Base, ErrUnknownBase),
				Hint: "give a commit that exists in this repository, e.g. --base main or --base HEAD~3", Err: ErrUnknownBase}
		}
		if err != nil {
			return Result{}, err
		}
	}
	switch {
	case opt.Files != nil:
		res.Files, err = explicitFiles(opt.Root, opt.Cwd, opt.Files)
		return res, err
	case opt.Staged:
		res.Files, err = repo.keepReviewable(repo.staged(ctx))
		return res, err
	case base == "" && opt.Branch:
		bp, ok, err := repo.branchPoint(ctx)
		if err != nil {
			return Result{}, err
		}
		if ok {
			res.Branch = &bp
			if bp.Base != res.HeadCommit {
				base = bp.Base
			}
		}
	}
	res.Base = base
	res.Files, res.changed, err = changedFiles(ctx, repo, base)
	return res, err
}

// explicitFiles reads each of the files the user listed as git would
// (ProjectPath, from cwd), checks it and returns them sorted and
// deduplicated.
func explicitFiles(root, cwd string, files []string) ([]string, error) {
	c, err := newChecker(root)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(files))
	for i, arg := range files {
		p, err := ProjectPath(root, cwd, arg)
		if err == nil {
			err = c.checkListed(p)
		}
		if inv, ok := errors.AsType[*protocol.InvalidError](err); ok { // refuse made it: it is this one's
			inv.File, inv.Field = "--files", fmt.Sprintf("files[%d]", i)
		}
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return sortedSet(out), nil
}

// changedFiles asks git what changed and keeps what lies inside the
// project; changed is every path git status listed, both names of a
// rename, relative to the project root.
func changedFiles(ctx context.Context, repo *repo, base string) (files []string, changed map[string]bool, err error) {
	paths, origins, err := repo.status(ctx)
	if err != nil {
		return nil, nil, err
	}
	changed = repo.relative(append(slices.Clone(paths), origins...))
	if base != "" {
		var committed []string
		committed, err = repo.diff(ctx, "diff-tree", "-r", base, "HEAD")
		paths = append(paths, committed...)
	}
	files, err = repo.keepReviewable(paths, err)
	return files, changed, err
}

// keepReviewable keeps the paths git reported that lie inside the project
// and can be reviewed, relative to the project root, sorted; it passes
// on err, the error of listing the paths, as it is.
func (r *repo) keepReviewable(paths []string, err error) ([]string, error) {
	if err != nil {
		return nil, err
	}
	c, err := newChecker(r.root)
	if err != nil {
		return nil, err
	}
	var files []string
	for _, p := range sortedSet(paths) {
		rel, ok := r.project(p)
		if !ok {
			continue
		}
		keep, err := c.reviewable(rel)
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

// Conditions the CLI reports as usage errors (exit code 2); both come
// wrapped in a *protocol.UsageError that carries the hint.
var (
	// ErrNotGit: the project is not in a git repository (or git is not
	// installed), so the files to review must be listed.
	ErrNotGit = errors.New("not a git repository")
	// ErrUnknownBase: --base names no commit.
	ErrUnknownBase = errors.New("no such commit")
)

// notGitError says that, outside git, the files must be listed; why is
// "" or the reason git could not be asked (e.g. it is not installed).
func notGitError(root, why string) error {
	why = cmp.Or(why, root+" is not in a git repository")
	return &protocol.UsageError{Msg: ErrNotGit.Error() + ": pass --files", Hint: why + "; list the files to review with --files, and leave out --base", Err: ErrNotGit}
}
