package checkpoint

import (
	"slices"

	"github.com/specdev/specdev/protocol"
)

// planRound decides how the claim of r by session reads r's files. Round
// 1 is a full review. A later round is a follow-up when the session is
// the one that reviewed the previous round (the request remembers it), of
// the same gate, and the change since then is known, from a commit still
// there, and at most MaxFollowUpShare of the review: then only the files
// changed since and those the previous round found something in are to
// be read again. Otherwise it is a full review, and fallback says why.
func planRound(r *protocol.Request, prev *protocol.RoundRecord, session string) (plan protocol.RoundPlan, fallback string) {
	plan = protocol.RoundPlan{Kind: protocol.PlanFull, Gate: r.Gate, HeadCommit: r.ReviewedCommit()}
	if r.Round <= 1 || prev == nil {
		return plan, ""
	}
	d := r.Delta
	if d != nil {
		plan.ChangedLines, plan.TotalLines = d.ChangedLines, d.TotalLines
	}
	switch {
	case session != r.ReviewerSessionID:
		fallback = protocol.FallbackOtherSession
	case prev.Gate != "" && prev.Gate != r.Gate:
		fallback = protocol.FallbackGateChanged
	case d == nil:
		fallback = protocol.FallbackChangeUnknown
	case d.CommitGone:
		fallback = protocol.FallbackCommitGone
	case d.Share() > protocol.MaxFollowUpShare:
		fallback = protocol.FallbackChangeTooLarge
	}
	if fallback != "" {
		plan.Reason = fallback
		return plan, fallback
	}
	plan.Kind, plan.Since = protocol.PlanFollowUp, d.Since
	changed := setOf(d.Changed)
	withFindings := setOf(filesWithFindings(prev))
	for _, f := range r.ChangedFiles {
		switch {
		case changed[f]:
		case withFindings[f]:
			plan.HadFindings = append(plan.HadFindings, f)
		default:
			plan.Unchanged = append(plan.Unchanged, f)
		}
	}
	return plan, ""
}

// filesWithFindings lists the files a finished round found something in.
func filesWithFindings(rec *protocol.RoundRecord) []string {
	var files []string
	for _, f := range rec.Findings {
		files = append(files, f.File)
	}
	if rec.Verdict != nil {
		for _, f := range rec.Verdict.Issues {
			files = append(files, f.File)
		}
	}
	return files
}

// toRead splits the request's files by the plan: those to review, and
// those carried over as reviewed (unchanged since the previous round).
func toRead(r *protocol.Request, plan protocol.RoundPlan) (remaining, reviewed []string) {
	carried := setOf(plan.Unchanged)
	reviewed = []string{}
	for _, f := range r.ChangedFiles {
		if carried[f] {
			reviewed = append(reviewed, f)
		} else {
			remaining = append(remaining, f)
		}
	}
	return slices.Clip(remaining), reviewed
}

func setOf(list []string) map[string]bool {
	set := make(map[string]bool, len(list))
	for _, s := range list {
		if s != "" {
			set[s] = true
		}
	}
	return set
}
