package review

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/specdev/specdev/checkpoint"
	"github.com/specdev/specdev/internal/changeset"
	"github.com/specdev/specdev/protocol"
)

// This file holds what a review covers: what `work request` collects,
// and what it shares with `gate`: which round a request opens, the
// digests it carries from earlier reviews, the range it shows, and the
// error when there is nothing to review.

// collect works out what to review: the changed files, their digests and
// fingerprint, the head commit and the range. Round 1 reviews what the
// branch adds; a later round the whole change again (the previous
// request's range and files, plus the files with open findings: the
// claim narrows a follow-up to what changed since); --staged exactly the
// staged change.
func (s *Service) collect(ctx context.Context, c RequestOptions, snap checkpoint.Snapshot, name string) (checkpoint.NewRequest, heldFiles, error) {
	root, gate := s.here(), requestGate(snap, c.Gate)
	_, later := checkpoint.OpenLoop(snap.Request, gate) // a later round of an open loop, or round 1 of a new one
	files, cwd := c.Files, s.workingDir()
	if files == nil && !c.Staged && snap.Request != nil && snap.Request.FileSet != nil {
		files, cwd = withFiles(root, []string{}, snap.Request.FileSet), root // the loop's own files, kept from its --files (a removed one is not there to review)
	}
	base, since := c.Base, c.Base
	if base == "" && later && !c.Staged {
		// every round covers the whole change: the range of the loop's first
		// request; the claim works out what changed since the last review.
		// --staged is exactly the staged change, in any round.
		base, since = s.roundBase(ctx, snap)
	}
	res, err := changeset.Collect(ctx, changeset.Options{Root: root, Base: base, Files: files, Cwd: cwd, Staged: c.Staged, Branch: base == ""})
	if err != nil {
		return checkpoint.NewRequest{}, nil, err
	}
	if passed := sinceLastPass(ctx, root, res, snap, gate); passed != "" && files == nil && !c.Staged && base == "" {
		// on the default branch the branch adds nothing: what came after
		// the gate's last pass is the next change
		base, since = passed, "the last passed review "+short(passed)
		if res, err = changeset.Collect(ctx, changeset.Options{Root: root, Base: base, Cwd: cwd}); err != nil {
			return checkpoint.NewRequest{}, nil, err
		}
	}
	list, left := res.Files, heldFiles(nil)
	if files == nil && !c.Staged {
		list = withFiles(root, list, openFindingFiles(snap))
		if later && snap.Request.Gate == gate {
			// the files of the loop's previous request that still exist (a
			// removed one is part of the change only if git says so): a
			// later round never covers less than the one before
			list = withFiles(root, list, snap.Request.ChangedFiles)
		}
		if list, left, err = s.leaveOutHeld(list, snap, name, c.Group); err != nil {
			return checkpoint.NewRequest{}, nil, err
		}
	}
	if len(list) == 0 {
		return checkpoint.NewRequest{}, nil, nothingToReview(ctx, root, res, since, c.Staged)
	}
	in, err := s.newRequest(ctx, c, snap, res, list, gate, later)
	return in, left, err
}

// newRequest is the request for list: digests, fingerprint, carried
// digests, the snapshot commit and, in a later round, the delta.
func (s *Service) newRequest(ctx context.Context, c RequestOptions, snap checkpoint.Snapshot, res changeset.Result, files []string, gate string, later bool) (checkpoint.NewRequest, error) {
	root := s.here()
	sums, snapshot, err := digestAndSnapshot(ctx, root, res, files, c.Staged)
	if err != nil {
		return checkpoint.NewRequest{}, err
	}
	carried, err := carriedDigests(ctx, root, snap, gate, files, res.InGit)
	if err != nil {
		return checkpoint.NewRequest{}, err
	}
	in := checkpoint.NewRequest{Gate: c.Gate, Notes: c.Notes, HeadCommit: res.HeadCommit, ChangedFiles: files, Fingerprint: sums.Fingerprint,
		Snapshot: snapshot, Coverage: checkpoint.Coverage{BaseCommit: res.Base, Staged: c.Staged, FileDigests: sums.Files, CarriedDigests: carried}}
	if later {
		in.Delta = requestDelta(ctx, root, snap, gate, in, res.InGit)
	}
	return in, nil
}

// digestAndSnapshot digests the files and, in git, snapshots them (from
// the one read of each file that digests it, for a work-tree review).
func digestAndSnapshot(ctx context.Context, root string, res changeset.Result, files []string, staged bool) (changeset.Sums, string, error) {
	if res.InGit && !staged {
		return res.Snapshot(ctx, files)
	}
	sums, err := digestFiles(ctx, root, files, staged) // staged is always in git
	if err != nil || !staged {
		return sums, "", err
	}
	commit, err := changeset.SnapshotStaged(ctx, root)
	return sums, commit, err
}

// openFindingFiles are, after a rejection, the files that had findings,
// so the reviewer checks they were fixed.
func openFindingFiles(snap checkpoint.Snapshot) []string {
	if !snap.Current() || snap.Request.Status != protocol.StatusFailed {
		return nil
	}
	var found []string
	for _, f := range findingsOf(snap) {
		found = append(found, f.File)
	}
	return found
}

// withFiles adds to files, sorted, each of more that names a file or
// folder there is in root (a path of the project).
func withFiles(root string, files, more []string) []string {
	for _, f := range more {
		if f == "" || slices.Contains(files, f) || changeset.CheckFile(root, f) != nil {
			continue
		}
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(f))); err == nil {
			files = append(files, f)
		}
	}
	return slices.Sorted(slices.Values(files))
}

// requestGate is the gate a request with --gate gate would be for.
func requestGate(snap checkpoint.Snapshot, gate string) string {
	if snap.Request != nil {
		return cmp.Or(gate, snap.Request.Gate)
	}
	return cmp.Or(gate, protocol.DefaultGate)
}

// carriedDigests are the reviewed digests a new request for gate carries:
// those of the gate's last pass — only what passed reviews saw, never a
// failed, cancelled or unreviewed request's files — minus the files this
// request reviews again, and only for files the branch still changes (so
// the set stays as small as the branch's work).
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
	maps.DeleteFunc(carried, func(f, _ string) bool {
		_, changed := slices.BinarySearch(branch.Files, f) // Files are sorted
		return !changed
	})
	return carried, nil // none kept: empty, which a request writes as none
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
