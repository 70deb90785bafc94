package review

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/specdev/specdev/checkpoint"
	"github.com/specdev/specdev/internal/changeset"
	"github.com/specdev/specdev/protocol"
)

// This file holds what `work request` and `gate` share about what a review
// covers: which round a request opens, the digests it carries from
// earlier reviews, the range it shows, and the error when there is
// nothing to review.

// laterRound reports whether a request for gate (empty: the previous
// request's) opens the next round of an open loop rather than round 1 of
// a new one — the rule of checkpoint's nextRequest.
func laterRound(snap checkpoint.Snapshot, gate string) bool {
	_, open := checkpoint.OpenLoop(snap.Request, requestGate(snap, gate))
	return open
}

// requestGate is the gate a request with --gate gate would be for.
func requestGate(snap checkpoint.Snapshot, gate string) string {
	switch {
	case gate != "":
		return gate
	case snap.Request != nil:
		return snap.Request.Gate
	}
	return protocol.DefaultGate
}

// carriedDigests are the reviewed digests a new request for gate carries:
// those of the gate's last pass — only what passed reviews saw, never a
// failed, cancelled or unreviewed request's files — minus the files this
// request reviews again, and only for files the branch still changes (so
// the set stays as small as the branch's work). nil when there are none.
func carriedDigests(ctx context.Context, root string, snap checkpoint.Snapshot, gate string, files []string, inGit bool) (map[string]string, error) {
	prev := snap.Request
	if prev == nil || !inGit { // outside git there is no branch to commit or push
		return nil, nil
	}
	carried := maps.Clone(prev.Passed[gate].FileDigests)
	for _, f := range files {
		delete(carried, f)
	}
	if len(carried) == 0 {
		return nil, nil
	}
	branch, err := changeset.Collect(ctx, changeset.Options{Root: root, Branch: true})
	if err != nil {
		return nil, err
	}
	kept := map[string]string{}
	for _, f := range branch.Files {
		if sum, ok := carried[f]; ok {
			kept[f] = sum
		}
	}
	if len(kept) == 0 {
		return nil, nil
	}
	return kept, nil
}

// digestFiles hashes the files as they are in the work tree, or with
// staged as the index holds them.
func digestFiles(ctx context.Context, root string, files []string, staged bool) (changeset.Sums, error) {
	if staged {
		return changeset.DigestStaged(ctx, root, files)
	}
	return changeset.Digest(root, files)
}

// rangeText says which commits a request covers.
func rangeText(r *protocol.Request) string {
	switch {
	case r.Staged && r.HeadCommit == "":
		return "the staged change, the first commit (read it with git diff --cached; the work tree may differ)"
	case r.Staged:
		return fmt.Sprintf("the staged change on top of %s (read it with git diff --cached; the work tree may differ)", short(r.HeadCommit))
	case r.BaseCommit == "":
		return ""
	case r.BaseCommit == r.HeadCommit:
		return fmt.Sprintf("%s (no new commits) plus uncommitted and untracked changes", short(r.HeadCommit))
	}
	return fmt.Sprintf("%s..%s plus uncommitted and untracked changes", short(r.BaseCommit), short(r.HeadCommit))
}

// nothingToReview is the error for a request that found no files. Its
// hint never repeats the request that failed: it names only --base
// revisions that were tried and find something.
func nothingToReview(ctx context.Context, root string, res changeset.Result, base string, staged bool) error {
	if staged {
		return usage("stage the change to commit (git add <file>…), then run: specdev work request --staged",
			"nothing to review: nothing is staged outside .specdev/")
	}
	var msg string
	switch {
	case base != "":
		msg = fmt.Sprintf("nothing to review: nothing outside .specdev/ is uncommitted or untracked, and no commit since %s changes a file there", base)
	case res.Branch == nil:
		msg = "nothing to review: nothing outside .specdev/ is uncommitted or untracked, and there is no upstream or default branch (origin/HEAD, main, master) to compare HEAD with"
	default:
		msg = fmt.Sprintf("nothing to review: nothing outside .specdev/ is uncommitted or untracked, and %s adds no commits over %s", cmp.Or(changeset.CurrentBranch(ctx, root), "HEAD"), res.Branch.Ref)
		if changeset.CurrentBranch(ctx, root) == res.Branch.Ref {
			msg = fmt.Sprintf("nothing to review: you are on the default branch %s and nothing outside .specdev/ is uncommitted or untracked", res.Branch.Ref)
		}
	}
	hints, err := changeset.BaseHints(ctx, root)
	if err != nil {
		return err
	}
	var ways []string
	for _, h := range hints {
		ways = append(ways, fmt.Sprintf("to review %s: specdev work request --base %s", h.What, h.Rev))
	}
	return usage(strings.Join(append(ways, "name the files: specdev work request --files PATH"), "; or "), msg)
}

// sinceLastPass is the head of the gate's last passed review when a
// request on the default branch would otherwise review nothing: the
// branch adds no commits (HEAD is the branch point), and the pass's head
// is behind HEAD. "" otherwise.
func sinceLastPass(ctx context.Context, root string, res changeset.Result, snap checkpoint.Snapshot, gate string) string {
	if res.Branch == nil || res.Branch.Base != res.HeadCommit || snap.Request == nil {
		return ""
	}
	rec, ok := snap.Request.Passed[gate]
	if !ok || rec.HeadCommit == "" || rec.HeadCommit == res.HeadCommit || !changeset.IsAncestor(ctx, root, rec.HeadCommit, res.HeadCommit) {
		return ""
	}
	return rec.HeadCommit
}

// A later round of a loop covers the whole change again (so that a pass
// vouches for all of it), and says what changed since the previous round:
// the claim then decides whether the previous reviewer re-reads only that
// (a follow-up) or someone reviews everything (checkpoint.planRound).

// roundBase is the range of the loop's previous request, when its start
// still exists; otherwise the branch range ("").
func (s *Service) roundBase(ctx context.Context, snap checkpoint.Snapshot) (base, since string) {
	prev := snap.Request
	if prev == nil || prev.BaseCommit == "" || !changeset.CommitExists(ctx, s.here(), prev.BaseCommit) {
		return "", ""
	}
	return prev.BaseCommit, "the range of the previous round " + short(prev.BaseCommit)
}

// withEarlierFiles adds the files of the loop's previous request that
// still exist (a file the implementer removed is part of the change only
// if git says so), so a later round never covers less than the one before.
func withEarlierFiles(root string, files []string, snap checkpoint.Snapshot, gate string) []string {
	if prev := snap.Request; prev != nil && prev.Gate == gate {
		return withFiles(root, files, prev.ChangedFiles)
	}
	return files
}

// requestDelta measures the change since the previous round of the loop:
// the files whose content differs from what that round reviewed, and its
// size in lines against the whole review (in files, outside git). nil when
// the previous request of this gate recorded no digests to compare with.
func requestDelta(ctx context.Context, root string, snap checkpoint.Snapshot, gate string, in checkpoint.NewRequest, inGit bool) *protocol.Delta {
	files, sums := in.ChangedFiles, in.Coverage.FileDigests
	prev := snap.Request
	if prev == nil || prev.Gate != gate || len(prev.FileDigests) == 0 {
		return nil
	}
	if prev.PreflightFailed && prev.Delta == nil {
		return nil // prev was never reviewed: the change since the last review is unknown
	}
	d := &protocol.Delta{Since: prev.LastReviewedCommit, Changed: []string{}}
	for _, f := range files {
		// after a failed pre-flight gate, what changed before it counts too
		if old, ok := prev.FileDigests[f]; !ok || old != sums[f] || prev.PreflightFailed && slices.Contains(prev.Delta.Changed, f) {
			d.Changed = append(d.Changed, f)
		}
	}
	if inGit && d.Since != "" {
		if !changeset.CommitExists(ctx, root, d.Since) {
			d.CommitGone = true
			return d
		}
		if size, err := changeset.ChangeSince(ctx, root, d.Since, in.Snapshot, d.Changed); err == nil {
			d.ChangedLines, d.Stat = size.Lines, size.Stat
			for _, f := range files {
				d.TotalLines += changeset.LineCount(root, f)
			}
			return d
		}
	}
	d.ByFiles, d.ChangedLines, d.TotalLines = true, len(d.Changed), len(files) // the sizes are unknown: count files instead
	return d
}
