package review

import (
	"context"
	"os"
	"path/filepath"
	"slices"

	"github.com/specdev/specdev/checkpoint"
	"github.com/specdev/specdev/internal/changeset"
	"github.com/specdev/specdev/protocol"
)

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
	prev := snap.Request
	if prev == nil || prev.Gate != gate {
		return files
	}
	for _, f := range prev.ChangedFiles {
		if !slices.Contains(files, f) && stillThere(root, f) {
			files = append(files, f)
		}
	}
	return slices.Sorted(slices.Values(files))
}

// stillThere reports whether f, a path of the project, names a file or
// folder that exists in root.
func stillThere(root, f string) bool {
	if changeset.CheckFile(root, f) != nil {
		return false
	}
	_, err := os.Stat(filepath.Join(root, filepath.FromSlash(f)))
	return err == nil
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
	if !inGit || d.Since == "" {
		d.ByFiles, d.ChangedLines, d.TotalLines = true, len(d.Changed), len(files)
		return d
	}
	if !changeset.CommitExists(ctx, root, d.Since) {
		d.CommitGone = true
		return d
	}
	size, err := changeset.ChangeSince(ctx, root, d.Since, in.Snapshot, d.Changed)
	if err != nil { // the sizes are unknown: count files instead
		d.ByFiles, d.ChangedLines, d.TotalLines = true, len(d.Changed), len(files)
		return d
	}
	d.ChangedLines, d.Stat = size.Lines, size.Stat
	for _, f := range files {
		d.TotalLines += changeset.LineCount(root, f)
	}
	return d
}
