package agent

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/specdev/specdev/protocol"
	"github.com/specdev/specdev/review"
)

// looper runs one assignment's loop.
type looper struct {
	svc       *review.Service // names the assignment
	impl, rev *runner
	plan      string // the implementer's briefing
	implAgent string // the implementer's session, to resume with findings
	rounds    []loopRound
	began     time.Time
}

// loopRound is what one round of the loop took.
type loopRound struct {
	Round       int                 `json:"round"`
	Implementer protocol.AgentUsage `json:"implementer"`
	Reviewer    protocol.AgentUsage `json:"reviewer"`
	Status      protocol.Status     `json:"status"`
	Read        int                 `json:"files_reviewed"` // files the reviewer recorded in the round
}

// Loop runs an assignment's review loop with agents on both sides: the
// implementer works from the plan and specdev requests the review when it
// stops; the reviewer reviews (as Check does); after a fail the
// implementer's session is resumed with the findings. It ends at a pass,
// or where the loop needs a human (the round limit, a stuck loop, a
// manual-mode pause: whatever the operations report BLOCKED or CONFLICT),
// or when an agent fails. The reviewer is opt.Agent, the implementer the
// agent called implementer; both report through opt.
func Loop(ctx context.Context, s *review.Service, implementer string, opt Options) (review.Result, error) {
	plan, err := s.PlanBriefing()
	if err != nil {
		return review.Result{}, err
	}
	name := plan.Data.(map[string]any)["assignment"].(string)
	svc := s.With("", "", name)
	l := &looper{svc: svc, plan: plan.Text, began: time.Now()}
	if l.impl, err = newRunner(svc, Options{Agent: implementer, Progress: opt.Progress, Say: opt.Say}); err != nil {
		return review.Result{}, err
	}
	if l.rev, err = newRunner(svc, opt); err != nil {
		return review.Result{}, err
	}
	for ctx.Err() == nil {
		view, err := svc.Work(ctx, review.WorkOptions{})
		if err != nil {
			return review.Result{}, err
		}
		var stop *review.Result
		blocked := view.Code == review.Blocked || view.Code == review.Conflict // paused, blocked, stuck: whatever blocks the loop
		switch {
		case !blocked && view.State == "passed":
			return l.summary("passed", view.Code, firstLine(view.Text)), nil
		case !blocked && (view.State == "pending" || view.State == "in_progress"):
			stop = l.review(ctx)
		case !blocked && (view.State == "failed" || view.State == "idle" || view.State == "cancelled"):
			stop = l.implement(ctx, view)
		default: // blocked, or awaiting a human's approval
			return l.summary("stopped: a human decides", view.Code, view.Text+"\nNext: "+view.Next), nil
		}
		if stop != nil {
			return *stop, nil
		}
	}
	return review.Result{}, &review.StoppedError{What: "the loop was stopped; run specdev loop again to go on"}
}

// implement runs the implementer (resumed with the findings after a
// fail, else afresh from the plan) and requests the review.
func (l *looper) implement(ctx context.Context, view review.Result) *review.Result {
	j := l.impl.job(l.svc.Assignment, nil)
	j.heading = fmt.Sprintf("%s implements %s", l.impl.agent.Name, l.svc.Assignment)
	j.prompt = implementerRole + l.plan
	if view.State == "failed" {
		j.prompt += "\nThe last review failed:\n" + view.Text
		if l.implAgent != "" && len(l.impl.agent.ResumeArgv) > 0 {
			j.resume, j.prompt = l.implAgent, fixPrompt+view.Text
		}
	}
	l.impl.say("%s: %s implements (%s)", l.svc.Assignment, l.impl.agent.Name, map[bool]string{true: "resumed with the findings", false: "from the plan"}[j.resume != ""])
	res := execute(ctx, j, &scanner{agent: j.agent})
	if res.sessionLost(j.resume) {
		l.impl.say("%s: the implementer's session is gone; starting afresh", l.svc.Assignment)
		j.resume, j.prompt = "", implementerRole+l.plan+"\nThe last review failed:\n"+view.Text
		res = execute(ctx, j, &scanner{agent: j.agent})
	}
	l.implAgent = cmp.Or(res.Session, j.resume)
	if res.crashed() {
		l.recordImpl(ctx, j, res)
		return l.stop(review.Failure, fmt.Sprintf("the implementer %s", res.outcome), res.err)
	}
	req, err := l.svc.Request(ctx, review.RequestOptions{Notes: "implemented by agent " + l.impl.agent.Name + " (specdev loop)"})
	l.recordImpl(ctx, j, res)
	if err != nil {
		return l.stop(review.CodeOf(err), "the review could not be requested", err)
	}
	l.impl.say("%s", firstLine(req.Text))
	return nil
}

func (l *looper) recordImpl(ctx context.Context, j job, res ran) {
	run := l.impl.record(ctx, l.svc, j, res, map[bool]string{true: res.outcome, false: "done"}[res.crashed()], "implementer")
	r, _ := l.round(ctx)
	r.Implementer = r.Implementer.Add(run.Used)
}

// review claims the assignment's review for the reviewer agent and runs it.
func (l *looper) review(ctx context.Context) *review.Result {
	claim, err := l.svc.Claim(ctx, review.ClaimOptions{NewSession: true, Agent: l.rev.resumable()})
	if err != nil {
		return l.stop(review.CodeOf(err), "the review could not be claimed", err)
	}
	if _, ok := review.ClaimedOf(claim); !ok {
		if claim.State == "preflight_failed" {
			return nil // the implementer sees the gate's failure next
		}
		return l.stop(claim.Code, "the review could not be claimed", errors.New(claim.Text))
	}
	rep := l.rev.review(ctx, claim)
	r, w := l.round(ctx)
	r.Reviewer, r.Status, r.Read = r.Reviewer.Add(rep.Used), rep.Status, max(r.Read, w.Recorded)
	if rep.Outcome != "verdict" {
		return l.stop(review.Failure, "the reviewer "+outcomeWords(rep), nil)
	}
	return nil
}

// round is the entry of the request's current round, and how far its
// review is (nothing when that cannot be read).
func (l *looper) round(ctx context.Context) (*loopRound, review.Watch) {
	w, _ := l.svc.Beat(ctx, false)
	if k := len(l.rounds); k == 0 || l.rounds[k-1].Round != max(w.Round, 1) {
		l.rounds = append(l.rounds, loopRound{Round: max(w.Round, 1)})
	}
	return &l.rounds[len(l.rounds)-1], w
}

func (l *looper) stop(code review.Code, why string, err error) *review.Result {
	text := why
	if err != nil {
		text += ": " + protocol.SafeText(err.Error())
		if hint := review.HintOf(err); hint != "" {
			text += "\nhint: " + hint
		}
	}
	res := l.summary("stopped", code, text)
	if code == review.OK {
		res.Code = review.Failure
	}
	res.Next = fmt.Sprintf("see above what stopped it, then go on: specdev loop --implementer %s --reviewer %s --assignment %s",
		l.impl.agent.Name, l.rev.agent.Name, l.svc.Assignment)
	return &res
}

// summary is the loop's end: its rounds, files re-reviewed, tokens,
// cost and time.
func (l *looper) summary(end string, code review.Code, detail string) review.Result {
	var b strings.Builder
	fmt.Fprintf(&b, "Loop of %s %s after %s.\n", l.svc.Assignment, end, protocol.Plural(len(l.rounds), "round"))
	var all protocol.AgentUsage
	reread := 0
	for i, r := range l.rounds {
		fmt.Fprintf(&b, "  round %d: %s; %s reviewed\n    implementer %s: %s\n    reviewer %s: %s\n", r.Round,
			cmp.Or(string(r.Status), "not reviewed"), protocol.Plural(r.Read, "file"), l.impl.agent.Name, r.Implementer, l.rev.agent.Name, r.Reviewer)
		all = all.Add(r.Implementer).Add(r.Reviewer)
		if i > 0 {
			reread += r.Read
		}
	}
	took := time.Since(l.began).Round(time.Second) // a loop takes minutes: seconds are precise enough
	fmt.Fprintf(&b, "Files re-reviewed after round 1: %d\nAgents used: %s\nTook: %s\n", reread, all, protocol.ShortDuration(took))
	if detail != "" {
		b.WriteString(strings.TrimRight(detail, "\n") + "\n")
	}
	return review.Result{State: "loop_" + strings.Fields(end)[0], Code: code, Text: b.String(),
		Data: map[string]any{"assignment": l.svc.Assignment, "rounds": l.rounds, "used": all, "files_re_reviewed": reread},
		Next: "see the report: specdev report --assignment " + l.svc.Assignment}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return protocol.SafeText(line)
}
