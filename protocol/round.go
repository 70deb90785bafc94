package protocol

// Delta is what changed since the last review of a loop, measured by
// `work request` when it opens a later round: the files whose content
// differs from what the previous round reviewed (or that are new to the
// review), how many lines that is against the lines of the whole review,
// and the commit the change is measured from. A claim decides from it
// whether the reviewer of the previous round gets a follow-up review of
// the change alone, or everyone a full review.
type Delta struct {
	Since        string   `json:"since,omitempty" check:"id"`                     // the last reviewed commit ("" outside git)
	Changed      []string `json:"changed" specdev:"required" check:"paths"`       // files of the request changed since the last review
	ChangedLines int      `json:"changed_lines" specdev:"required" check:"lines"` // lines added and removed in them (git diff --numstat)
	TotalLines   int      `json:"total_lines" specdev:"required" check:"lines"`   // lines of every file of the request
	ByFiles      bool     `json:"by_files,omitzero"`                              // lines could not be counted: the sizes are file counts
	CommitGone   bool     `json:"commit_gone,omitzero"`                           // Since is no longer in the repository (history rewritten)
	Stat         string   `json:"stat,omitempty" check:"stat"`                    // each changed file with its counts, for the briefing
}

// MaxFollowUpShare is the largest share of the review that a follow-up
// round re-reads; a larger change gets a full review.
const MaxFollowUpShare = 0.5

// Share is the changed part of the review: lines changed over lines of
// all the files (or files over files, when lines cannot be counted).
func (d *Delta) Share() float64 {
	if d.TotalLines <= 0 {
		if len(d.Changed) > 0 {
			return 1
		}
		return 0
	}
	return float64(d.ChangedLines) / float64(d.TotalLines)
}

// The kinds of round plan.
const (
	PlanFollowUp = "follow_up" // the same reviewer re-reads only what changed and what had findings
	PlanFull     = "full"      // every file is reviewed, with the previous round's findings to verify
)

// The reasons a later round gets a full review instead of a follow-up
// (logged as resume_fallback).
const (
	FallbackOtherSession   = "other_session"    // not the session that reviewed the previous round
	FallbackGateChanged    = "gate_changed"     // the previous round was of another gate
	FallbackCommitGone     = "commit_gone"      // the last reviewed commit is gone (rewritten history)
	FallbackChangeTooLarge = "change_too_large" // the change is more than MaxFollowUpShare of the review
	FallbackChangeUnknown  = "change_unknown"   // the request does not say what changed (written by hand or an older specdev)
)

// RoundPlan is how a claim planned a later round: a follow-up of the
// previous round's reviewer, or a full review (and why). Unchanged files
// were carried over as reviewed (not to re-read); HadFindings are files to
// re-review only because the previous round found something in them.
type RoundPlan struct {
	Kind         string   `json:"kind" specdev:"required" check:"kind"`
	Gate         string   `json:"gate,omitempty" check:"name"`
	HeadCommit   string   `json:"head_commit,omitempty" check:"id"` // the commit holding what this round reads (the request's snapshot, or HEAD)
	Since        string   `json:"since,omitempty" check:"id"`       // the commit the changes are read from (follow-up)
	Reason       string   `json:"reason,omitempty" check:"reason"`
	ChangedLines int      `json:"changed_lines,omitzero" check:"lines"`
	TotalLines   int      `json:"total_lines,omitzero" check:"lines"`
	Unchanged    []string `json:"unchanged,omitempty" check:"paths"`
	HadFindings  []string `json:"had_findings,omitempty" check:"paths"`
}

// FollowUp reports whether the plan is a follow-up review.
func (p *RoundPlan) FollowUp() bool { return p != nil && p.Kind == PlanFollowUp }
