package checkpoint

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/specdev/specdev/protocol"
)

// FileRecord is one file reviewed: its findings, and the previous
// round's findings about it (or about no file) verified fixed, by their
// numbers in the briefing's list (protocol.RoundRecord.AllFindings).
type FileRecord struct {
	File     string
	Root     string // the file as the briefing names it, from the project root, when that reads otherwise: recorded if File is not in the review
	Findings []protocol.Finding
	Resolved []int
	Add      bool // keep the file's earlier findings and add these
}

// Recorded is what recording a file did: the review after it, and what
// an earlier record of the same file held.
type Recorded struct {
	Snapshot
	File     string             // the file recorded: FileRecord's File or Root
	Again    bool               // the file had been recorded before
	Replaced []protocol.Finding // the earlier findings the record replaced (none with Add)
	Skipped  int                // Add: findings left out as already recorded for the file
}

// Record marks one file of the review reviewed with its findings. It
// replaces what an earlier record of the same file stored, so a retry is
// safe, and Recorded says what was replaced; with Add it keeps the file's
// earlier findings and adds these, leaving out any already recorded, so
// a retry is safe too.
func (a *Assignment) Record(ctx context.Context, h Holder, rec FileRecord) (Recorded, error) {
	var out Recorded
	snap, err := a.holding(ctx, h, func(tx *Tx, r *protocol.Request, p *protocol.Progress) error {
		if p.Phase == protocol.PhasePreflight {
			return conflict("wait for the preflight gate; "+ClaimCommand(h.Session)+" shows the briefing",
				"the preflight gate of %s has not finished", a.Name)
		}
		inReview := func(f string) bool {
			return slices.Contains(p.FilesReviewed, f) || slices.Contains(p.FilesRemaining, f)
		}
		file := rec.File
		if !inReview(file) && rec.Root != "" && inReview(rec.Root) {
			file = rec.Root
		}
		if !inReview(file) {
			return &protocol.UsageError{Msg: fmt.Sprintf("%s is not one of the %s of review %s", file, protocol.Plural(p.FilesTotal, "file"), a.Name),
				Hint: notInReviewHint(p)}
		}
		if p.Plan != nil { // a file carried over unchanged that the reviewer read after all
			p.Plan.Unchanged = slices.DeleteFunc(p.Plan.Unchanged, func(f string) bool { return f == file })
		}
		if err := resolve(p, file, rec.Resolved, rec.Add); err != nil {
			return err
		}
		if err := a.recordDigest(ctx, r, p, file); err != nil {
			return err
		}
		out = Recorded{File: file, Again: slices.Contains(p.FilesReviewed, file)}
		out.Replaced, out.Skipped = putFindings(p, file, rec.Findings, rec.Add)
		if !out.Again {
			p.FilesReviewed = append(p.FilesReviewed, file)
			p.FilesRemaining = slices.DeleteFunc(p.FilesRemaining, func(f string) bool { return f == file })
		}
		p.FindingsSoFar, p.LastActivity, p.Phase = len(p.Findings), protocol.At(tx.Now), phaseFor(p)
		detail := map[string]any{"file": file, "findings": len(rec.Findings), "replaced": out.Again && !rec.Add}
		if len(rec.Resolved) > 0 {
			detail["resolved"] = rec.Resolved
		}
		if rec.Add {
			detail["added"] = true
		} else if out.Again {
			detail["replaced_findings"] = len(out.Replaced)
		}
		tx.Log(protocol.EventFileReviewed, h.Session, detail)
		return nil
	})
	out.Snapshot = snap
	return out, err
}

// notInReviewHint names the files still to record (a path is read as git
// reads it, from the current folder: a subfolder's path differs from the
// briefing's).
func notInReviewHint(p *protocol.Progress) string {
	const paths = "paths are read from the current folder, and the briefing's from the project root"
	if len(p.FilesRemaining) == 0 {
		return "every file of the review is recorded (recording one again replaces its findings); " + paths
	}
	return "still to record: " + FirstOf(p.FilesRemaining, 5) + "; " + paths
}

// putFindings records the file's findings: in place of its earlier ones
// (returned as replaced), or with add after them, leaving out any already
// there (counted as skipped).
func putFindings(p *protocol.Progress, file string, findings []protocol.Finding, add bool) (replaced []protocol.Finding, skipped int) {
	if !add {
		replaced = []protocol.Finding{}
		p.Findings = slices.DeleteFunc(p.Findings, func(f protocol.Finding) bool {
			if f.File == file {
				replaced = append(replaced, f)
			}
			return f.File == file
		})
	}
	for _, f := range findings {
		f.File = file
		if add && slices.Contains(p.Findings, f) {
			skipped++
			continue
		}
		p.Findings = append(p.Findings, f)
	}
	return replaced, skipped
}

func phaseFor(p *protocol.Progress) protocol.Phase {
	if len(p.FilesRemaining) == 0 {
		return protocol.PhaseWritingReport
	}
	return protocol.PhaseReviewing
}

// resolve marks the previous round's findings numbered in numbers as
// verified fixed. A finding about another file is refused: it is
// resolved when that file is recorded. Without add, the file's earlier
// marks are replaced, as its findings are.
func resolve(p *protocol.Progress, file string, numbers []int, add bool) error {
	if !add {
		p.Resolved = slices.DeleteFunc(p.Resolved, func(r protocol.Resolved) bool { return r.Finding.File == file })
	}
	if len(numbers) == 0 {
		return nil
	}
	n := len(p.PreviousRounds)
	if n == 0 {
		return &protocol.UsageError{Msg: "--resolved: this is the first round of the loop; there are no earlier findings to resolve",
			Hint: "record the file with its findings, without --resolved"}
	}
	prev := p.PreviousRounds[n-1]
	all := prev.AllFindings()
	for _, num := range numbers {
		if num < 1 || num > len(all) {
			return &protocol.UsageError{Msg: fmt.Sprintf("--resolved %d: round %d has %s", num, prev.Round, protocol.Plural(len(all), "finding")),
				Hint: fmt.Sprintf("give a number from the briefing's list of round %d's findings (1 to %d)", prev.Round, len(all))}
		}
		f := all[num-1]
		if f.File != "" && f.File != file {
			return &protocol.UsageError{Msg: fmt.Sprintf("--resolved %d: that finding is about %s, not %s", num, f.File, file),
				Hint: "resolve it when you record " + f.File}
		}
		p.Resolved = slices.DeleteFunc(p.Resolved, func(r protocol.Resolved) bool { return r.Round == prev.Round && r.Number == num })
		p.Resolved = append(p.Resolved, protocol.Resolved{Round: prev.Round, Number: num, Finding: f})
	}
	slices.SortFunc(p.Resolved, func(x, y protocol.Resolved) int { return x.Number - y.Number })
	return nil
}

// FirstOf lists the first n items, and how many more there are.
func FirstOf(items []string, n int) string {
	list := strings.Join(items[:min(len(items), n)], ", ")
	if len(items) > n {
		list += fmt.Sprintf(", and %d more", len(items)-n)
	}
	return list
}
