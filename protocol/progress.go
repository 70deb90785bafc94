package protocol

import (
	"cmp"
	"slices"

	json "github.com/go-json-experiment/json"
)

// ProgressFile is the name of the reviewer's checkpoint in an assignment folder.
const ProgressFile = "review_progress.json"

// ProgressVersion is the newest review_progress.json version this build reads.
const ProgressVersion = 1

// Progress is review_progress.json: the reviewer's checkpoint and the source
// of truth for what was reviewed. The seed's fields come first.
type Progress struct {
	Phase          Phase     `json:"phase" specdev:"required" check:"phase"`
	Mode           Mode      `json:"mode" specdev:"nonzero" check:"mode"`
	StartedAt      Timestamp `json:"started_at" check:"time"`
	LastActivity   Timestamp `json:"last_activity" check:"time"`
	FilesTotal     int       `json:"files_total" check:"files"`
	FilesReviewed  []string  `json:"files_reviewed" specdev:"required" check:"paths"`
	FilesRemaining []string  `json:"files_remaining" specdev:"required" check:"paths"`
	FindingsSoFar  int       `json:"findings_so_far" check:"findings"`
	SessionID      string    `json:"session_id" check:"session"`

	// Lease is the fencing token of the claim that made SessionID the
	// holder: every reviewer write must present it, so that a displaced
	// holder, or a second process using the same session id, is refused.
	Lease string `json:"lease,omitempty" check:"lease"`

	Version        int              `json:"version,omitzero" specdev:"nonzero" check:"version"`
	RequestID      string           `json:"request_id,omitempty" check:"id"`
	Round          int              `json:"round,omitzero" specdev:"nonzero" check:"round"`
	Takeovers      []Takeover       `json:"takeovers,omitempty" check:"takeovers"`
	Preflight      *PreflightResult `json:"preflight,omitempty" check:"object"`
	Findings       []Finding        `json:"findings,omitempty" check:"findings"`
	Resolved       []Resolved       `json:"resolved,omitempty" check:"findings"`
	Verdict        *Verdict         `json:"verdict,omitempty" check:"object"`
	Decision       *Decision        `json:"decision,omitempty" check:"object"`
	PreviousRounds []RoundRecord    `json:"previous_rounds,omitempty" check:"rounds"`
	Plan           *RoundPlan       `json:"plan,omitempty" check:"object"`
	Journal        *Journal         `json:"journal,omitempty" check:"journal"`
	Extra          Extra            `json:",embed"`

	// RecordedDigests holds a recorded file's content digest when it was
	// recorded (the index's, in a --staged review) where it differed from
	// the request's, so that a pass of files changed since is refused
	// (ReviewedDigests).
	RecordedDigests map[string]string `json:"recorded_digests,omitempty" check:"digests"`
}

// Takeover records one change of the session holding a review.
type Takeover struct {
	From   string    `json:"from" specdev:"required" check:"session"`
	To     string    `json:"to" specdev:"required" check:"session"`
	At     Timestamp `json:"at" specdev:"required" check:"time"`
	Reason string    `json:"reason" check:"id"` // "stale", "force" or "resume" (after a release)
	Idle   string    `json:"idle,omitempty" check:"id"`
	// FromLease is the lease From held, so that a write presenting it
	// is told which review it lost, whatever the session holds since.
	FromLease string `json:"from_lease,omitempty" check:"lease"`
}

// PreflightResult is what the mechanical gate printed and returned.
type PreflightResult struct {
	Command    []string  `json:"command" check:"command"`
	Passed     bool      `json:"passed" specdev:"required"`
	ExitCode   int       `json:"exit_code" check:"exit_code"`
	DurationMS int64     `json:"duration_ms" check:"ms"`
	Output     string    `json:"output" check:"text"`
	Error      string    `json:"error,omitempty" check:"text"`
	At         Timestamp `json:"at" check:"time"`
}

// Resolved is a finding of the previous round that the reviewer of this
// round verified fixed. Number is its place in that round's findings as
// the briefing lists them (AllFindings), from 1; the finding is copied,
// so that what was resolved reads the same after any later change.
type Resolved struct {
	Round   int     `json:"round" check:"round"`
	Number  int     `json:"number" check:"number"`
	Finding Finding `json:"finding" check:"object"`
}

// Decision is a human's approval or rejection of a proposed verdict.
type Decision struct {
	Approved bool      `json:"approved" specdev:"required"`
	Notes    string    `json:"notes,omitempty" check:"text"`
	At       Timestamp `json:"at" check:"time"`
}

// RoundRecord keeps a finished round of the same review loop, so that the
// report of a later round can show it before the addendum.
type RoundRecord struct {
	Round         int              `json:"round" specdev:"required" check:"round"`
	Gate          string           `json:"gate,omitempty" check:"name"`
	HeadCommit    string           `json:"head_commit,omitempty" check:"id"`
	Since         string           `json:"since,omitempty" check:"id"`        // the commit the round's changes were read from
	Plan          string           `json:"plan,omitempty" check:"plan"`       // follow_up or full
	Unchanged     []string         `json:"unchanged,omitempty" check:"paths"` // carried over as reviewed from the round before`
	RequestID     string           `json:"request_id,omitempty" check:"id"`
	Status        Status           `json:"status" specdev:"required" check:"status"`
	FilesReviewed []string         `json:"files_reviewed" check:"paths"`
	FilesTotal    int              `json:"files_total" check:"files"`
	Preflight     *PreflightResult `json:"preflight,omitempty" check:"object"`
	Findings      []Finding        `json:"findings,omitempty" check:"findings"`
	Resolved      []Resolved       `json:"resolved,omitempty" check:"findings"`
	Verdict       *Verdict         `json:"verdict,omitempty" check:"object"`
	Decision      *Decision        `json:"decision,omitempty" check:"object"`
}

// progressFields is Progress without its methods, for the encoder.
type progressFields Progress

// MarshalJSON encodes the known fields followed by the kept unknown ones.
func (p Progress) MarshalJSON() ([]byte, error) {
	return json.Marshal((*progressFields)(&p), writeOptions)
}

// MarshalJSON writes the round for encoding/json (a --json output) as
// the state files hold it: "files_reviewed" a list, never null.
func (r RoundRecord) MarshalJSON() ([]byte, error) {
	type plain RoundRecord
	return json.Marshal(plain(r), writeOptions)
}

// MarshalJSON writes the result for encoding/json (a --json output) as
// the state files hold it: "command" a list, never null.
func (p PreflightResult) MarshalJSON() ([]byte, error) {
	type plain PreflightResult
	return json.Marshal(plain(p), writeOptions)
}

func (p *Progress) applyDefaults() {
	p.Version = cmp.Or(p.Version, ProgressVersion)
	p.Mode = cmp.Or(p.Mode, ModeAuto)
}

// FindingsByFile groups the findings by file, keeping their order.
func (p *Progress) FindingsByFile() map[string][]Finding {
	by := make(map[string][]Finding)
	for _, f := range p.Findings {
		by[f.File] = append(by[f.File], f)
	}
	return by
}

// BelongsTo reports whether p (nil: no progress) is the progress of the
// request r: a seed-shaped progress without a request id belongs to
// whatever request is current.
func (p *Progress) BelongsTo(r *Request) bool {
	return p != nil && (p.RequestID == "" || p.RequestID == r.RequestID)
}

// PreflightFailed reports whether the mechanical gate ran and failed.
func (p *Progress) PreflightFailed() bool {
	return p.Preflight != nil && !p.Preflight.Passed
}

// AllFindings are a round's findings and its verdict's general issues,
// most severe first: the order a briefing numbers them in.
func (r RoundRecord) AllFindings() []Finding {
	all := append([]Finding{}, r.Findings...)
	if r.Verdict != nil {
		all = append(all, r.Verdict.Issues...)
	}
	return BySeverity(all)
}

// BySeverity sorts findings most severe first, keeping their order within
// a severity.
func BySeverity(all []Finding) []Finding {
	rank := map[Severity]int{SeverityCritical: 0, SeverityImportant: 1, SeverityMinor: 2}
	slices.SortStableFunc(all, func(a, b Finding) int { return rank[a.Severity] - rank[b.Severity] })
	return all
}

// Record is the finished round this progress stands for, as a later round
// of the same loop keeps it. Its status follows the human's decision, else
// the verdict, else a failed preflight; with none of them the round was
// cancelled.
func (p *Progress) Record() RoundRecord {
	rec := RoundRecord{
		Round: max(p.Round, 1), RequestID: p.RequestID, Status: StatusCancelled,
		FilesReviewed: p.FilesReviewed, FilesTotal: p.FilesTotal, Preflight: p.Preflight,
		Findings: p.Findings, Resolved: p.Resolved, Verdict: p.Verdict, Decision: p.Decision,
	}
	if pl := p.Plan; pl != nil {
		rec.Gate, rec.HeadCommit, rec.Since, rec.Plan, rec.Unchanged = pl.Gate, pl.HeadCommit, pl.Since, pl.Kind, pl.Unchanged
	}
	switch {
	case p.Decision != nil:
		rec.Status = passedOrFailed(p.Decision.Approved)
	case p.Verdict != nil:
		rec.Status = passedOrFailed(p.Verdict.Passed)
	case p.PreflightFailed():
		rec.Status = StatusFailed
	}
	return rec
}

func passedOrFailed(passed bool) Status {
	if passed {
		return StatusPassed
	}
	return StatusFailed
}
