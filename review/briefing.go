package review

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/specdev/specdev/checkpoint"
	"github.com/specdev/specdev/internal/shellword"
	"github.com/specdev/specdev/protocol"
)

// A briefing is the reviewer's prompt: what to read and how to record it.
// Three first briefings — a new review, a follow-up of the reviewer's own
// previous round (only what changed, and its findings to verify), a full
// review of a later round (with the previous findings) — and the resume
// briefing after a takeover or a release, which holds everything the
// round's first briefing held plus the progress so far. The --json data
// carries the same fields as the text.

// reviewedFile is a file already reviewed in this round, with its findings.
type reviewedFile struct {
	File     string             `json:"file"`
	Findings []protocol.Finding `json:"findings"`
}

// toReviewFile is a file still to review; HadFindings marks one that is
// unchanged since the previous round but had findings to verify.
type toReviewFile struct {
	File        string `json:"file"`
	HadFindings bool   `json:"had_findings,omitempty"`
}

// diffRange is what changed since the reviewer's previous round.
type diffRange struct {
	From    string `json:"from"`
	To      string `json:"to"`
	Command string `json:"command"`
	Stat    string `json:"stat,omitempty"`
}

// priorDecision is a human's decision on the previous round.
type priorDecision struct {
	Round    int    `json:"round"`
	Approved bool   `json:"approved"`
	Notes    string `json:"notes,omitempty"`
}

// briefingData is the --json data of a claim.
type briefingData struct {
	Assignment       string                    `json:"assignment"`
	Session          string                    `json:"session"`
	Lease            string                    `json:"lease"`
	Kind             checkpoint.ClaimKind      `json:"kind"`
	Plan             *protocol.RoundPlan       `json:"plan,omitempty"`
	TakenOverFrom    string                    `json:"taken_over_from,omitempty"`
	Request          *protocol.Request         `json:"request"`
	Mode             protocol.Mode             `json:"mode"`
	Phase            protocol.Phase            `json:"phase"`
	Head             string                    `json:"head,omitempty"`
	Worktree         string                    `json:"worktree,omitempty"` // where the files are: the request's worktree, from the reviewer's folder
	Range            string                    `json:"range,omitempty"`
	Changes          *diffRange                `json:"changes,omitempty"`
	Notes            string                    `json:"notes,omitempty"`
	Preflight        *protocol.PreflightResult `json:"preflight,omitempty"`
	PreviousRound    int                       `json:"previous_round,omitempty"`
	PreviousFindings []protocol.Finding        `json:"previous_findings,omitempty"`
	Decision         *priorDecision            `json:"human_decision,omitempty"`
	Guidance         string                    `json:"guidance,omitempty"`
	FilesTotal       int                       `json:"files_total"`
	ToReview         []toReviewFile            `json:"to_review"`
	Unchanged        []string                  `json:"unchanged,omitempty"`
	Reviewed         []reviewedFile            `json:"reviewed"`
	Remaining        []string                  `json:"remaining"`
	OtherLoops       []otherLoop               `json:"other_loops,omitempty"`
	Documents        []document                `json:"documents"`
	MoreDocuments    int                       `json:"more_documents,omitempty"`
	Commands         map[string]string         `json:"commands"`
}

// briefing tells the reviewer what to review and exactly how to record it.
func briefing(a *checkpoint.Assignment, c *checkpoint.Claim, generated bool, wd string) Result {
	d := newBriefingData(a, c, c.Progress.SessionID, wd)
	var b strings.Builder
	if d.Plan.FollowUp() && c.Kind == checkpoint.ClaimNew {
		writeFollowUpBriefing(&b, a, d)
	} else {
		writeFullBriefing(&b, a, c, d)
	}
	writeCommands(&b, d, generated)
	return Result{State: "claimed", Data: d, Text: b.String(), Next: reviewNext(checkpoint.Holder{Session: d.Session, Lease: d.Lease}, c.Progress, len(d.Reviewed) > 0)}
}

// newBriefingData gathers what a briefing says, from the claim.
func newBriefingData(a *checkpoint.Assignment, c *checkpoint.Claim, session, wd string) briefingData {
	r, p := c.Request, c.Progress
	d := briefingData{
		Assignment: a.Name, Session: session, Lease: c.Lease, Kind: c.Kind, Plan: p.Plan, Request: r, Mode: p.Mode,
		Phase: p.Phase, Head: r.HeadCommit, Range: rangeText(r), Notes: r.Notes, Preflight: p.Preflight,
		Guidance: r.Guidance, FilesTotal: p.FilesTotal, Remaining: orEmpty(p.FilesRemaining), Reviewed: []reviewedFile{}, ToReview: []toReviewFile{},
	}
	if c.Kind == checkpoint.ClaimTakeover || c.Kind == checkpoint.ClaimResumed {
		d.TakenOverFrom = c.From
	}
	if p.Plan != nil {
		d.Unchanged = p.Plan.Unchanged
	}
	for _, f := range p.FilesRemaining {
		d.ToReview = append(d.ToReview, toReviewFile{File: f, HadFindings: p.Plan != nil && slices.Contains(p.Plan.HadFindings, f)})
	}
	d.OtherLoops = otherLoops(a, r)
	d.Documents, d.MoreDocuments = documents(a)
	byFile := p.FindingsByFile()
	for _, f := range p.FilesReviewed {
		if !slices.Contains(d.Unchanged, f) {
			d.Reviewed = append(d.Reviewed, reviewedFile{File: f, Findings: orEmpty(byFile[f])})
		}
	}
	if n := len(p.PreviousRounds); n > 0 {
		prev := p.PreviousRounds[n-1]
		d.PreviousRound, d.PreviousFindings = prev.Round, prev.AllFindings()
		if prev.Decision != nil {
			d.Decision = &priorDecision{Round: prev.Round, Approved: prev.Decision.Approved, Notes: prev.Decision.Notes}
		}
	}
	root := filepath.Join(a.Root(), filepath.FromSlash(r.Worktree))
	if r.Worktree != "" {
		d.Worktree = root
		if rel, err := filepath.Rel(wd, root); err == nil && wd != "" {
			d.Worktree = filepath.ToSlash(rel)
		}
	}
	d.Changes = changesOf(p.Plan, r, gitFrom(root, wd))
	d.Commands = reviewerCommands(checkpoint.Holder{Session: session, Lease: c.Lease}, len(d.PreviousFindings) > 0)
	return d
}

// maxDiffPaths bounds the paths a printed git diff names; a longer list
// is left to the range (everything but specdev's state).
const maxDiffPaths = 20

// changesOf is the diff the reviewer reads: in a follow-up, from the
// commit of the previous round's review to this round's; in a full
// review, everything it reads, from the start of its range (the staged
// change: from HEAD) to the commit that holds what was requested. nil
// outside git or for an empty range: never a commit against itself. Its
// command starts with git (from gitFrom), so that it reads the project's
// paths wherever it is run.
func changesOf(plan *protocol.RoundPlan, r *protocol.Request, git []string) *diffRange {
	from, to := r.BaseCommit, r.ReviewedCommit()
	switch {
	case plan.FollowUp():
		from = plan.Since
	case r.Staged:
		from = r.HeadCommit
	}
	if from == "" || to == "" || from == to {
		return nil
	}
	changes := &diffRange{From: from, To: to}
	words := append(git, "diff", short(from)+".."+short(to), "--")
	switch {
	case plan.FollowUp() && r.Delta == nil:
		return changes
	case plan.FollowUp():
		changes.Stat, words = r.Delta.Stat, append(words, r.Delta.Changed...)
	case len(r.ChangedFiles) <= maxDiffPaths:
		words = append(words, r.ChangedFiles...)
	default:
		words = append(words, ".", ":(exclude)"+protocol.StateDir)
	}
	changes.Command = shellword.Join(words)
	return changes
}

// gitFrom is how a printed git command reaches the project root from the
// folder it is run in: git -C <the way there> outside the root (the paths
// in a briefing are the project's, and git reads a pathspec from where it
// runs), plain git at the root or when either folder is unknown.
func gitFrom(root, wd string) []string {
	if root == "" || wd == "" {
		return []string{"git"}
	}
	rel, err := filepath.Rel(wd, root)
	if err != nil || rel == "." {
		return []string{"git"}
	}
	return []string{"git", "-C", filepath.ToSlash(rel)}
}

// reviewNext is a reviewer's one next step, after a claim or a record:
// the first file left (continuing, in a briefing that resumes), or once
// every file is recorded the verdict the findings point to, written out
// (no pass|fail for a shell to read as a pipe), with the other one named.
func reviewNext(h checkpoint.Holder, p *protocol.Progress, continuing bool) string {
	switch {
	case len(p.FilesRemaining) > 0 && continuing:
		return "continue reviewing from " + p.FilesRemaining[0]
	case len(p.FilesRemaining) > 0:
		return "review " + p.FilesRemaining[0]
	}
	word, other := "pass", "or fail, if something must change"
	if p.FindingsSoFar > 0 {
		word, other = "fail", "or pass, if none of the findings blocks"
	}
	return fmt.Sprintf("give the verdict: specdev check verdict %s --summary \"…\" %s (%s)", word, h.Flags(), other)
}

// findingSyntax is how a record names its findings.
const findingSyntax = `[--finding "important: …" --line N]`

// reviewerCommands are the commands a reviewer runs, written out; with
// earlier findings, record takes --resolved for the ones verified fixed.
func reviewerCommands(h checkpoint.Holder, resolvable bool) map[string]string {
	ids := h.Flags()
	resolved := map[bool]string{true: " [--resolved N]"}[resolvable]
	return map[string]string{
		"record":  fmt.Sprintf("specdev check record <file> %s %s%s", ids, findingSyntax, resolved),
		"verdict": fmt.Sprintf("specdev check verdict <pass|fail> --summary \"…\" %s", ids),
		"release": fmt.Sprintf("specdev check release %s", ids),
	}
}

func fileExists(path string) bool {
	info, err := os.Stat(path)
	return err == nil && !info.IsDir()
}

// orEmpty is list, or an empty one for nil: --json lists none as [].
func orEmpty[T any](list []T) []T {
	if list == nil {
		return []T{}
	}
	return list
}
