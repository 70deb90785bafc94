package review

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/specdev/specdev/checkpoint"
	"github.com/specdev/specdev/internal/changeset"
	"github.com/specdev/specdev/protocol"
)

// RecordOptions is one file reviewed and its findings: the reviewer's
// checkpoint.
type RecordOptions struct {
	File     string             // as the caller wrote it: read from the caller's folder as git reads paths
	Findings []protocol.Finding // each names no file, or this one
	Resolved []int              // the previous round's findings verified fixed, by their numbers in the briefing
	Add      bool               // add to the file's earlier findings instead of replacing them
	Source   string             // where the findings came from, for errors (a file name, "stdin"); "" for flags
}

// recorded is the data of a record.
type recorded struct {
	Added           bool               `json:"added"`
	AlreadyRecorded int                `json:"already_recorded"`
	Assignment      string             `json:"assignment"`
	File            string             `json:"file"`
	FileFindings    int                `json:"file_findings"`
	FilesReviewed   int                `json:"files_reviewed"`
	FilesTotal      int                `json:"files_total"`
	Findings        []protocol.Finding `json:"findings"`
	ReRecorded      bool               `json:"re_recorded"`
	Remaining       []string           `json:"remaining"`
	Replaced        []protocol.Finding `json:"replaced"`
	Resolved        []int              `json:"resolved,omitempty"`
	Session         string             `json:"session"`
}

// Record marks one file of the caller's review reviewed, under the lock,
// if the caller's session and lease still hold the review.
func (s *Service) Record(ctx context.Context, opt RecordOptions) (Result, error) {
	a, h, err := s.heldReview("record")
	if err != nil {
		return Result{}, err
	}
	file, err := recordPath(s.here(), s.workingDir(), opt.File)
	if err != nil {
		return Result{}, err
	}
	// From a subfolder, the path as the briefing gives it (from the
	// project root) is recorded when the path from here names no file of
	// the review: an agent copies the briefing's paths.
	root, _ := changeset.ProjectPath(s.here(), s.here(), opt.File)
	findings, err := opt.findings(file, root)
	if err != nil {
		return Result{}, err
	}
	rec, err := a.Record(ctx, h, checkpoint.FileRecord{File: file, Root: root, Findings: findings, Resolved: opt.Resolved, Add: opt.Add})
	if err != nil {
		return Result{}, err
	}
	file, p := rec.File, rec.Progress
	text := fmt.Sprintf("%s%s\nProgress: %d/%d files reviewed, %s so far.",
		recordedText(file, findings, rec, opt.Add), resolvedText(opt.Resolved), len(p.FilesReviewed), p.FilesTotal, protocol.Plural(p.FindingsSoFar, "finding"))
	return Result{State: "recorded", Text: text, Next: reviewNext(h, p, false), Data: recorded{
		Assignment: a.Name, Session: h.Session, File: file, Findings: findings,
		ReRecorded: rec.Again, Added: opt.Add, Resolved: opt.Resolved, Replaced: orEmpty(rec.Replaced), AlreadyRecorded: rec.Skipped,
		FileFindings: len(p.FindingsByFile()[file]), FilesReviewed: len(p.FilesReviewed), FilesTotal: p.FilesTotal, Remaining: orEmpty(p.FilesRemaining),
	}}, nil
}

// findings checks the findings by the rules of the progress file they
// end up in, each naming no file or the recorded one (either reading of
// its path).
func (opt RecordOptions) findings(file, root string) ([]protocol.Finding, error) {
	label := cmp.Or(opt.Source, "the findings")
	for i, f := range opt.Findings {
		if f.File != "" && f.File != file && f.File != root {
			return nil, &protocol.InvalidError{File: label, Field: fmt.Sprintf("[%d].file", i),
				Problem: fmt.Sprintf("names %s, but this records %s", f.File, file),
				Hint:    "leave \"file\" out, or record each file with its own findings"}
		}
		if err := f.Validate(); err != nil {
			return nil, fmt.Errorf("%s[%d]: %w", label, i, err)
		}
	}
	return orEmpty(opt.Findings), nil
}

// heldReview finds the review the caller's session holds: the named
// assignment if there is one (the fencing check follows under the lock),
// else by session.
func (s *Service) heldReview(verb string) (*checkpoint.Assignment, checkpoint.Holder, error) {
	h := checkpoint.Holder{Session: s.Session, Lease: s.Lease}
	if err := s.checkCaller(); err != nil {
		return nil, h, err
	}
	if s.Session == "" {
		return nil, h, usage("pass the ids the briefing printed: --session rv-… --lease ls-… (or export SPECDEV_SESSION and SPECDEV_LEASE)",
			verb+" needs your reviewer session id")
	}
	if s.Assignment != "" {
		a, err := s.Store.Resolve(s.Assignment)
		return a, h, err
	}
	a, err := s.Store.HeldBy(s.Session, s.Lease)
	return a, h, err
}

func severityCounts(findings []protocol.Finding) string {
	counts := map[protocol.Severity]int{}
	for _, f := range findings {
		counts[f.Severity]++
	}
	var parts []string
	for _, sev := range protocol.Severities {
		if counts[sev] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[sev], sev))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

// resolvedText says which of the previous round's findings the record
// marked verified fixed.
func resolvedText(numbers []int) string {
	if len(numbers) == 0 {
		return ""
	}
	return " Verified fixed: previous finding " + strings.ReplaceAll(strings.Trim(fmt.Sprint(numbers), "[]"), " ", ", ") + "."
}

// recordedText says what a record did to the file's findings, so that
// recording a file again never drops findings silently.
func recordedText(file string, findings []protocol.Finding, rec checkpoint.Recorded, add bool) string {
	now := protocol.Plural(len(findings), "finding") + severityCounts(findings)
	switch {
	case !rec.Again:
		return fmt.Sprintf("Recorded %s: %s.", file, now)
	case add:
		text := fmt.Sprintf("Added %s to %s: it now has %s.", now, file, protocol.Plural(len(rec.Progress.FindingsByFile()[file]), "finding"))
		if rec.Skipped > 0 {
			text += fmt.Sprintf(" Left out %d already recorded.", rec.Skipped)
		}
		return text
	case sameFindings(rec.Replaced, findings, file):
		return fmt.Sprintf("Re-recorded %s: the same %s as before; nothing changed.", file, now)
	}
	text := fmt.Sprintf("Re-recorded %s: replaced %s%s with %s.", file,
		protocol.Plural(len(rec.Replaced), "earlier finding"), severityCounts(rec.Replaced), now)
	if len(rec.Replaced) > 0 {
		text += "\nTo keep a file's earlier findings and add to them, record it with --add."
	}
	return text
}

// sameFindings reports whether a re-record stored exactly what it
// replaced (a retry).
func sameFindings(replaced, findings []protocol.Finding, file string) bool {
	return slices.EqualFunc(replaced, findings, func(old, f protocol.Finding) bool {
		f.File = file
		return old == f
	})
}

// recordPath reads the file argument of check record as git reads a path
// from the caller's folder wd (changeset.ProjectPath, the rule work
// request --files follows too). A refused path is a usage error, as a
// file outside the review is.
func recordPath(root, wd, arg string) (string, error) {
	p, err := changeset.ProjectPath(root, wd, arg)
	var inv *protocol.InvalidError
	if errors.As(err, &inv) {
		return "", usage(inv.Hint, inv.Problem)
	}
	return p, err
}
