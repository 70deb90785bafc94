package checkpoint

import "github.com/specdev/specdev/protocol"

// planRound decides how the claim of r by session reads r's files. Round
// 1 is a full review. A later round is a follow-up when the previous
// round was of the same gate, the session is the one that reviewed it
// (the request remembers it), and the change since then is known, from a
// commit still there, and at most MaxFollowUpShare of the review: then
// only the files changed since and those the previous round found
// something in are to be read again. Otherwise it is a full review, and
// fallback says why (the first reason in that order).
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
	case prev.Gate != "" && prev.Gate != r.Gate:
		fallback = protocol.FallbackGateChanged
	case session != r.ReviewerSessionID:
		fallback = protocol.FallbackOtherSession
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
	withFindings := map[string]bool{}
	for _, f := range prev.AllFindings() {
		withFindings[f.File] = true
	}
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

// toRead splits the request's files by the plan: those to review (what
// changed first, then what is re-read only for its findings), and those
// carried over as reviewed (unchanged since the previous round).
func toRead(r *protocol.Request, plan protocol.RoundPlan) (remaining, reviewed []string) {
	carried, recheck := setOf(plan.Unchanged), setOf(plan.HadFindings)
	reviewed = []string{}
	for _, f := range r.ChangedFiles {
		switch {
		case carried[f]:
			reviewed = append(reviewed, f)
		case !recheck[f]:
			remaining = append(remaining, f)
		}
	}
	return append(remaining, plan.HadFindings...), reviewed
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
