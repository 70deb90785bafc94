package agent

import (
	"cmp"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/specdev/specdev/protocol"
	"github.com/specdev/specdev/review"
)

// Options say which agent runs and how a runner reports.
type Options struct {
	Agent    string
	Timeout  time.Duration // wait up to this long for a review to claim; with Parallel, serve until then
	Parallel int           // at most this many agents at once, each on its own review (0 or 1: one)
	Mode     protocol.Mode // the reviewer mode of the reviews claimed ("": keep)
	Progress func(line string)
	Say      func(line string) // one line per step
}

// pollEvery is how often a runner looks at its review while its agent runs.
const pollEvery = 500 * time.Millisecond

type runner struct {
	svc   *review.Service // the caller's, without a session of its own
	agent Agent
	opt   Options
}

func newRunner(s *review.Service, opt Options) (*runner, error) {
	a, err := Lookup(s, opt.Agent)
	if err != nil {
		return nil, err
	}
	return &runner{svc: s.With("", "", s.Assignment), agent: a, opt: opt}, nil
}

// Check claims a waiting review (waiting up to Timeout for one), runs the
// agent on it until it gives a verdict, and reports what happened. With
// Parallel it goes on claiming until Timeout, up to Parallel agents at
// once. It exits OK once every agent gave a verdict.
func Check(ctx context.Context, s *review.Service, opt Options) (review.Result, error) {
	r, err := newRunner(s, opt)
	if err != nil {
		return review.Result{}, err
	}
	deadline := time.Now().Add(opt.Timeout)
	var (
		mu    sync.Mutex
		done  []reviewed
		wg    sync.WaitGroup
		slots = make(chan struct{}, max(opt.Parallel, 1))
		last  review.Result
	)
	for ctx.Err() == nil {
		slots <- struct{}{}
		if opt.Parallel > 1 && opt.Timeout > 0 && time.Now().After(deadline) {
			break // served until the timeout
		}
		claim, err := r.svc.Claim(ctx, review.ClaimOptions{NewSession: true, Agent: r.resumable(), Mode: opt.Mode,
			Timeout: max(time.Until(deadline), 0)})
		if _, ok := review.ClaimedOf(claim); err != nil || !ok {
			<-slots
			if err != nil && ctx.Err() == nil {
				wg.Wait()
				return review.Result{}, err
			}
			last = claim
			if opt.Parallel > 1 && time.Now().Before(deadline) && err == nil && claim.State != "idle" {
				continue // a failed pre-flight gate ended that review: look for the next
			}
			break
		}
		wg.Go(func() {
			rep := r.review(ctx, claim)
			mu.Lock()
			done = append(done, rep)
			mu.Unlock()
			<-slots
		})
		if opt.Parallel <= 1 {
			break
		}
	}
	wg.Wait()
	if ctx.Err() != nil {
		return review.Result{}, &review.StoppedError{What: "the agents were stopped and their reviews given back with their progress"}
	}
	if len(done) == 0 {
		return last, nil // nothing claimed: the poll's own answer
	}
	return r.result(done), nil
}

// result sums the reviews up.
func (r *runner) result(done []reviewed) review.Result {
	var b strings.Builder
	var used protocol.AgentUsage
	res := review.Result{State: "reviewed", Data: map[string]any{"agent": r.agent.Name, "reviews": done}}
	for _, d := range done {
		fmt.Fprintf(&b, "%s, round %d, by %s: %s.\n", d.Assignment, d.Round, r.agent.Name, outcomeWords(d))
		for i, run := range d.Runs {
			how := map[bool]string{true: "resumed session", false: "fresh session"}[run.Resumed]
			fmt.Fprintf(&b, "  run %d, %s %s: %s (exit %d); %s; prompt %s bytes\n", i+1, how, cmp.Or(protocol.SafeText(run.Session), "(no id reported)"),
				strings.ReplaceAll(run.Outcome, "_", " "), run.Exit, run.Used, protocol.Thousands(int64(run.PromptBytes)))
		}
		fmt.Fprintf(&b, "  log: %s\n", d.Log)
		used = used.Add(d.Used)
		if d.Outcome != "verdict" {
			res.Code = review.Failure
		}
	}
	fmt.Fprintf(&b, "Agents used: %s\n", used)
	res.Text = b.String()
	res.Next = "the implementer sees the verdict: specdev work"
	if res.Code != review.OK {
		res.Next = fmt.Sprintf("read the log, then run again (it resumes from the files not yet reviewed): specdev check --agent %s", r.agent.Name)
	}
	return res
}

// job is a run of the agent for assignment, with its environment, in the
// checkout the assignment's request was made in (the project root, or
// the project folder in another worktree of the repository).
func (r *runner) job(assignment string, env []string) job {
	st := r.svc.Store
	root := st.Root
	if a, err := st.Assignment(assignment); err == nil {
		if snap, err := a.Snapshot(); err == nil {
			if dir, err := st.CheckoutOf(snap.Request); err == nil {
				root = dir
			}
		}
	}
	return job{agent: r.agent, root: root, log: filepath.Join(st.Dir, "assignments", assignment, "agent.log"),
		env: append(env, "SPECDEV_ASSIGNMENT="+assignment, "SPECDEV_DIR="+st.Dir)}
}

// record appends the run's agent_run event, and returns the run.
func (r *runner) record(ctx context.Context, svc *review.Service, j job, res ran, outcome, role string) review.AgentRun {
	used := res.Used
	used.Runs, used.DurationMS = 1, res.took.Milliseconds()
	session := res.Session
	if session == "" && outcome != "session_lost" {
		session = j.resume // a resumed session that reported no id is still the one to resume
	}
	run := review.AgentRun{Agent: r.agent.Name, Role: role, Session: session, Resumed: j.resume != "", PromptBytes: len(j.prompt),
		Used: used, Exit: res.exit, Outcome: outcome, Keep: outcome != "session_lost"}
	if err := svc.RecordAgentRun(context.WithoutCancel(ctx), run); err != nil {
		r.say("record the run of %s on %s: %v", r.agent.Name, svc.Assignment, err)
	}
	if res.err != nil {
		r.say("%s: %v", svc.Assignment, res.err)
	}
	return run
}

func (r *runner) event(ctx context.Context, svc *review.Service, e protocol.EventName, detail map[string]any) {
	if err := svc.RecordAgentEvent(context.WithoutCancel(ctx), e, detail); err != nil {
		r.say("record %s on %s: %v", e, svc.Assignment, err)
	}
}

func (r *runner) say(format string, args ...any) {
	if r.opt.Say != nil {
		r.opt.Say(fmt.Sprintf(format, args...))
	}
}

// resumable is the agent's name if it can resume its sessions: a claim
// for it then goes to the reviewer session that worked with its
// remembered session, whose follow-up briefing assumes what the agent
// remembers. An agent that starts afresh every run gets a full briefing.
func (r *runner) resumable() string {
	if len(r.agent.ResumeArgv) == 0 {
		return ""
	}
	return r.agent.Name
}
