package agent

import (
	"cmp"
	"context"
	_ "embed"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/specdev/specdev/protocol"
	"github.com/specdev/specdev/review"
)

// maxNudges is how often a reviewer that stopped without a verdict is
// resumed with a nudge before its review is given back.
const maxNudges = 2

// lingerAfterVerdict is how long an agent may go on after its verdict
// (writing its summary and usage) before it is stopped.
const lingerAfterVerdict = 10 * time.Second

// reviewed is what one review by an agent came to.
type reviewed struct {
	Assignment string              `json:"assignment"`
	Round      int                 `json:"round"`
	Outcome    string              `json:"outcome"` // verdict, incomplete, crashed, timed_out, not_started, taken_over, stopped
	Status     protocol.Status     `json:"status"`  // the review's status afterwards
	Runs       []review.AgentRun   `json:"runs"`
	Used       protocol.AgentUsage `json:"used"`
	Log        string              `json:"log"`
}

// review runs the reviewer agent on a claimed review until it gives a
// verdict: resumed with a nudge when it stops without one, afresh when its
// session is lost, and the review given back with its progress when it
// crashes, times out or will not finish.
func (r *runner) review(ctx context.Context, claim review.Result) reviewed {
	c, _ := review.ClaimedOf(claim)
	svc := r.svc.With(c.Session, c.Lease, c.Assignment)
	j := r.job(c.Assignment, []string{"SPECDEV_SESSION=" + c.Session, "SPECDEV_LEASE=" + c.Lease})
	rep := reviewed{Assignment: c.Assignment, Round: c.Round, Log: j.log}
	if rel, err := filepath.Rel(r.svc.Store.Root, j.log); err == nil {
		rep.Log = filepath.ToSlash(rel)
	}
	j.prompt = reviewerRole + briefingOf(claim)
	if s := c.Resume; s != nil && s.Agent == r.agent.Name && len(r.agent.ResumeArgv) > 0 {
		j.resume, j.prompt = s.ID, briefingOf(claim) // the session has the role and the earlier rounds
	}
	for nudges := 0; ; {
		j.heading = fmt.Sprintf("%s reviews %s, round %d (run %d)", r.agent.Name, c.Assignment, c.Round, len(rep.Runs)+1)
		res := r.watch(ctx, svc, j, rep)
		w, err := svc.Beat(context.WithoutCancel(ctx), false)
		next, outcome := "", res.outcome
		switch {
		case err != nil:
			r.say("%s: %v", c.Assignment, err)
			rep.Outcome = "error"
		case !w.Held && w.Status != protocol.StatusInProgress:
			rep.Outcome, outcome = "verdict", "verdict"
		case !w.Held:
			rep.Outcome = "taken_over"
		case ctx.Err() != nil:
			rep.Outcome = "stopped"
			r.giveBack(ctx, svc, "interrupted")
		case res.sessionLost(j.resume):
			next, outcome = "fresh", "session_lost"
		case res.crashed():
			rep.Outcome = outcome
			r.giveBack(ctx, svc, "agent_"+outcome)
		case nudges < maxNudges && len(r.agent.ResumeArgv) > 0 && (res.Session != "" || j.resume != ""):
			nudges++
			next, outcome = "nudge", "no_verdict"
		default:
			rep.Outcome, outcome = "incomplete", "no_verdict"
			r.giveBack(ctx, svc, "agent_incomplete")
		}
		run := r.record(ctx, svc, j, res, outcome, "reviewer")
		rep.Runs, rep.Used = append(rep.Runs, run), rep.Used.Add(run.Used)
		switch next {
		case "fresh":
			r.say("%s: agent session %s is gone; starting afresh", c.Assignment, protocol.SafeText(j.resume))
			r.event(ctx, svc, protocol.EventResumeFallback, map[string]any{"reason": protocol.FallbackAgentSessionLost,
				"agent": r.agent.Name, "agent_session": j.resume})
			full, err := svc.Claim(ctx, review.ClaimOptions{}) // the session holds it: the round's whole briefing, no new claim
			if err != nil {
				r.say("%s: %v", c.Assignment, err)
				r.giveBack(ctx, svc, "agent_session_lost")
				rep.Outcome = "error"
				return r.finish(ctx, svc, rep)
			}
			j.resume, j.prompt = "", reviewerRole+briefingOf(full)
		case "nudge":
			r.say("%s: %s stopped without a verdict; nudging it (%d of %d)", c.Assignment, r.agent.Name, nudges, maxNudges)
			j.resume = cmp.Or(res.Session, j.resume)
			j.prompt = nudge(w.Remaining)
		default:
			if rep.Outcome == "incomplete" {
				r.event(ctx, svc, protocol.EventAgentIncomplete, map[string]any{"agent": r.agent.Name, "nudges": nudges,
					"reviewed": w.Reviewed, "remaining": len(w.Remaining)})
			}
			return r.finish(ctx, svc, rep)
		}
	}
}

func (r *runner) finish(ctx context.Context, svc *review.Service, rep reviewed) reviewed {
	if w, err := svc.Beat(context.WithoutCancel(ctx), false); err == nil {
		rep.Status = w.Status
	}
	r.say("%s: %s (%s)", rep.Assignment, outcomeWords(rep), rep.Used)
	return rep
}

// watch runs the job while it keeps the review's lease fresh and shows
// progress; the agent is stopped once the review leaves it: a verdict
// (after a moment to finish its output) or a takeover (at once).
func (r *runner) watch(ctx context.Context, svc *review.Service, j job, rep reviewed) ran {
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	done, out := make(chan ran, 1), &scanner{agent: j.agent} // how the run ended; what its output said so far
	go func() { done <- execute(runCtx, j, out) }()
	tick := time.NewTicker(pollEvery)
	defer tick.Stop()
	began, lastBeat := time.Now(), time.Now()
	var left time.Time
	for {
		select {
		case res := <-done:
			return res
		case <-tick.C:
		}
		renew := time.Since(lastBeat) >= svc.BeatEvery()
		if renew {
			lastBeat = time.Now()
		}
		w, err := svc.Beat(ctx, renew)
		if err != nil {
			continue
		}
		if !w.Held && left.IsZero() {
			left = time.Now()
		}
		if !w.Held && (w.Status == protocol.StatusInProgress || time.Since(left) >= lingerAfterVerdict) {
			cancel()
		}
		if r.opt.Progress != nil {
			used := rep.Used.Add(out.now().Used)
			r.opt.Progress(fmt.Sprintf("%s · %s · %d/%d files recorded · %s · %s tokens in, %s out", rep.Assignment, r.agent.Name,
				w.Reviewed, w.Total, time.Since(began).Round(time.Second), protocol.Thousands(used.InputTokens), protocol.Thousands(used.OutputTokens)))
		}
	}
}

// giveBack releases the caller's review with its progress kept.
func (r *runner) giveBack(ctx context.Context, svc *review.Service, why string) {
	if _, err := svc.ReleaseFor(context.WithoutCancel(ctx), why); err != nil {
		r.say("give back %s: %v", svc.Assignment, err)
	}
}

func outcomeWords(rep reviewed) string {
	switch rep.Outcome {
	case "verdict":
		return "verdict given, the review is " + string(rep.Status)
	case "incomplete":
		return fmt.Sprintf("no verdict after %d nudges; the review was given back with its progress", maxNudges)
	case "taken_over":
		return "the review was taken over by another session"
	}
	return "the agent " + strings.ReplaceAll(rep.Outcome, "_", " ") + "; the review was given back with its progress"
}

// briefingOf is a claim's briefing with its one next step.
func briefingOf(claim review.Result) string {
	return claim.Text + "Next: " + claim.Next + "\n"
}

// The prompts. A fresh run's prompt is the role's static part, the same
// in every run (the text files beside this one), then the briefing:
// repeated prompts share the longest prefix, which a provider's prompt
// cache serves. A resumed session has the static part already and gets
// only the briefing.

//go:embed reviewer_role.txt
var reviewerRole string

//go:embed implementer_role.txt
var implementerRole string

// nudge resumes a reviewer that stopped without a verdict.
func nudge(remaining []string) string {
	var b strings.Builder
	b.WriteString("You stopped before giving the verdict, so the review is not finished.\n")
	if n := len(remaining); n > 0 {
		fmt.Fprintf(&b, "Files still to record (%d): %s\n", n, strings.Join(remaining[:min(n, 10)], ", "))
		if n > 10 {
			fmt.Fprintf(&b, "and %d more.\n", n-10)
		}
		b.WriteString("Record each with: specdev check record FILE [--finding \"SEVERITY: …\" --line N]\n")
	}
	b.WriteString("Then give the verdict: specdev check verdict pass|fail --summary \"…\"\n")
	return b.String()
}

// fixPrompt, then a failed review's findings, resumes the implementer.
const fixPrompt = "The review of your change failed. Fix what it found, then stop with a short summary:\n\n"
