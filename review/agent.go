package review

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/specdev/specdev/checkpoint"
	"github.com/specdev/specdev/protocol"
)

// The operations an agent runner needs beyond a reviewer's own: what a
// claim gave it, keeping the lease fresh while its agent works, and
// recording what the agent's runs did and used.

// Claimed is what an agent runner needs of a claim's Result.
type Claimed struct {
	Assignment string
	Session    string
	Lease      string
	Round      int
	Resume     *protocol.AgentSession // the agent session the review's loop remembers, if any
}

// ClaimedOf returns what a claim's Result claimed, if it claimed one for
// review (a failed pre-flight gate or an idle poll claims nothing to do).
func ClaimedOf(res Result) (Claimed, bool) {
	d, ok := res.Data.(briefingData)
	if !ok {
		return Claimed{}, false
	}
	return Claimed{Assignment: d.Assignment, Session: d.Session, Lease: d.Lease, Round: d.Request.Round, Resume: d.Request.AgentSession}, true
}

// Watch is what a runner sees of the review its agent works on.
type Watch struct {
	Held      bool // the caller still holds the review, in progress
	Status    protocol.Status
	Round     int
	Reviewed  int // files counted reviewed, those carried unchanged from the previous round too
	Recorded  int // files recorded in this round
	Total     int
	Remaining []string
}

// BeatEvery is how often a runner renews its lease (Beat with renew).
func (s *Service) BeatEvery() time.Duration { return s.Store.BeatEvery() }

// Beat reads how far the caller's review (the assignment it names) is,
// and with renew first renews the caller's lease, as a reviewer's
// activity would. A review that has left in_progress is no error: Held
// says so.
func (s *Service) Beat(ctx context.Context, renew bool) (Watch, error) {
	a, err := s.Store.Resolve(s.Assignment)
	if err != nil {
		return Watch{}, err
	}
	if renew {
		err := a.Heartbeat(ctx, checkpoint.Holder{Session: s.Session, Lease: s.Lease})
		if err != nil && !errors.Is(err, protocol.ErrConflict) && !errors.Is(err, checkpoint.ErrBusy) {
			return Watch{}, err
		}
	}
	snap, err := a.Snapshot()
	if err != nil || snap.Request == nil {
		return Watch{}, err
	}
	w := Watch{Status: snap.Request.Status, Round: snap.Request.Round}
	if snap.Current() {
		p := snap.Progress
		w.Held = p.SessionID == s.Session && p.Lease == s.Lease && w.Status == protocol.StatusInProgress
		w.Reviewed, w.Total, w.Remaining = len(p.FilesReviewed), p.FilesTotal, p.FilesRemaining
		w.Recorded = w.Reviewed
		if p.Plan != nil {
			w.Recorded -= len(p.Plan.Unchanged) // still carried: not read in this round
		}
	}
	return w, nil
}

// AgentRun is one run of an agent, as the history keeps it.
type AgentRun struct {
	Agent       string              `json:"-"`
	Role        string              `json:"-"`                       // reviewer or implementer
	Session     string              `json:"agent_session,omitempty"` // the agent's own session id ("" if it reported none)
	Resumed     bool                `json:"resumed"`                 // the run resumed Session
	PromptBytes int                 `json:"prompt_bytes"`
	Exit        int                 `json:"exit"`
	Outcome     string              `json:"outcome"` // verdict, no_verdict, crashed, timed_out, session_lost, done
	Used        protocol.AgentUsage `json:"used"`    // one run: its tokens, cost and duration
	Keep        bool                `json:"-"`       // keep Session for the loop's next run of this agent
}

// RecordAgentRun appends the run's agent_run event to the caller's
// assignment and adds what it used to the request's round and loop.
func (s *Service) RecordAgentRun(ctx context.Context, run AgentRun) error {
	detail := map[string]any{"agent": run.Agent, "role": run.Role, "resumed": run.Resumed, "prompt_bytes": run.PromptBytes,
		"input_tokens": run.Used.InputTokens, "output_tokens": run.Used.OutputTokens, "cache_read_tokens": run.Used.CacheReadTokens,
		"duration_ms": run.Used.DurationMS, "exit": run.Exit, "outcome": run.Outcome}
	if run.Session != "" {
		detail["agent_session"] = run.Session
	}
	if run.Used.CostUSD > 0 {
		detail["cost_usd"] = run.Used.CostUSD
	}
	var keep *protocol.AgentSession
	if run.Keep && run.Session != "" && protocol.CheckSession(run.Session) == nil { // an id no state file may hold is not kept (the event shows it, clipped)
		keep = &protocol.AgentSession{Agent: run.Agent, ID: run.Session}
	}
	return s.agentEvent(ctx, protocol.EventAgentRun, keep, &run.Used, detail)
}

// RecordAgentEvent appends an event of the caller's agent runner
// (agent_incomplete, or resume_fallback with reason agent_session_lost).
func (s *Service) RecordAgentEvent(ctx context.Context, event protocol.EventName, detail map[string]any) error {
	return s.agentEvent(ctx, event, nil, nil, detail)
}

func (s *Service) agentEvent(ctx context.Context, event protocol.EventName, keep *protocol.AgentSession, used *protocol.AgentUsage,
	detail map[string]any) error {
	a, err := s.Store.Resolve(s.Assignment)
	if err != nil {
		return err
	}
	return a.AgentRan(ctx, s.Session, keep, event, used, detail)
}

// PlanBriefing is the implementer agent's briefing: the assignment and
// the Markdown files of its folder to work from, the plan first.
func (s *Service) PlanBriefing() (Result, error) {
	a, err := s.Target()
	if err != nil {
		return Result{}, err
	}
	docs, more := documents(a)
	if len(docs) == 0 {
		return Result{}, usage(fmt.Sprintf("write what to build in %s/plan.md", a.RelDir()),
			fmt.Sprintf("assignment %s has no plan: no .md file in %s", a.Name, a.RelDir()))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Assignment: %s\nWork from its plan and notes (read them first):\n", a.Name)
	writeDocumentList(&b, docs, more, a.RelDir())
	return Result{State: "plan", Text: b.String(), Data: map[string]any{"assignment": a.Name, "documents": docs}}, nil
}

// AgentCostText sums the agent_run events of a history by loop and round:
// a line per round and a total per loop (a loop starts again when the
// rounds do). "" when there are none.
func AgentCostText(events []protocol.Event) string {
	runs := slices.DeleteFunc(slices.Clone(events), func(e protocol.Event) bool { return e.Event != protocol.EventAgentRun })
	if len(runs) == 0 {
		return ""
	}
	var b strings.Builder
	var round, loop protocol.AgentUsage
	n := 1 // the loop being summed
	for i, e := range runs {
		// the detail's keys are AgentUsage's JSON names; one of the wrong type counts 0
		u := protocol.AgentUsage{}
		data, _ := json.Marshal(e.Detail)
		json.Unmarshal(data, &u)
		u.Runs = 1
		round, loop = round.Add(u), loop.Add(u)
		if last := i == len(runs)-1; last || runs[i+1].Round != e.Round {
			fmt.Fprintf(&b, "  loop %d, round %d: %s\n", n, e.Round, round)
			round = protocol.AgentUsage{}
			if last || runs[i+1].Round < e.Round {
				fmt.Fprintf(&b, "  loop %d in all: %s\n", n, loop)
				loop, n = protocol.AgentUsage{}, n+1
			}
		}
	}
	return "Agent runs:\n" + b.String()
}

// HistoryOptions selects part of an assignment's event log.
type HistoryOptions struct {
	Last  int      // only the last N events the other options keep (0: all)
	Round int      // only the events of this round (0: every round)
	Event []string // only events of these kinds
}

// MaxHistoryLast bounds Last: more than any history holds.
const MaxHistoryLast = 1_000_000

// historyData is the data of specdev history.
type historyData struct {
	Assignment string           `json:"assignment"`
	Events     []protocol.Event `json:"events"`
	Torn       bool             `json:"torn"`
	Total      int              `json:"total"`
}

// History reads the caller's assignment's review_history.jsonl,
// tolerating a torn last line; with Last, only its end, as far back as
// the last N events the other options keep.
func (s *Service) History(opt HistoryOptions) (Result, error) {
	if err := opt.check(); err != nil {
		return Result{}, err
	}
	a, err := s.Target()
	if err != nil {
		return Result{}, err
	}
	part, err := a.HistoryLast(opt.Last, opt.keep)
	if err != nil {
		return Result{}, err
	}
	var b strings.Builder
	if opt.Last > 0 || opt.Round > 0 || len(opt.Event) > 0 {
		fmt.Fprintf(&b, "History of %s (%d of %d events):\n", a.Name, len(part.Events), part.Total)
	} else {
		fmt.Fprintf(&b, "History of %s (%d events):\n", a.Name, part.Total)
	}
	for _, e := range part.Events {
		fmt.Fprintf(&b, "  %s  %-16s round %d  %s%s\n", e.TS, e.Event, e.Round, cmp.Or(oneLine(e.Session), "-"), detailText(e.Detail))
	}
	if part.Torn {
		b.WriteString("  (the last line is torn by a crash; the next change repairs it)\n")
	}
	b.WriteString(AgentCostText(part.Events))
	return Result{State: "history", Text: b.String(), Next: "specdev status",
		Data: historyData{Assignment: a.Name, Events: part.Events, Total: part.Total, Torn: part.Torn}}, nil
}

// check refuses what selects nothing by mistake: an unknown event name,
// a round or count out of bounds.
func (opt HistoryOptions) check() error {
	if opt.Last < 0 || opt.Last > MaxHistoryLast {
		return usage(fmt.Sprintf("give -n from 1 to %d (0 or no -n: all)", MaxHistoryLast), fmt.Sprintf("-n %d: out of range", opt.Last))
	}
	if opt.Round < 0 || opt.Round > protocol.MaxRound {
		return usage(fmt.Sprintf("give --round from 1 to %d", protocol.MaxRound), fmt.Sprintf("--round %d: out of range", opt.Round))
	}
	for _, e := range opt.Event {
		if !slices.Contains(protocol.EventNames, protocol.EventName(e)) {
			return usage("known events: "+eventList(), "--event "+protocol.QuotePrefix(e)+": no such event")
		}
	}
	return nil
}

// keep tells whether an event is of the round and kinds asked for.
func (opt HistoryOptions) keep(e protocol.Event) bool {
	return (opt.Round == 0 || e.Round == opt.Round) && (len(opt.Event) == 0 || slices.Contains(opt.Event, string(e.Event)))
}

func eventList() string {
	names := make([]string, len(protocol.EventNames))
	for i, e := range protocol.EventNames {
		names[i] = string(e)
	}
	return strings.Join(names, ", ")
}

func detailText(detail map[string]any) string {
	var text string
	for _, k := range slices.Sorted(maps.Keys(detail)) {
		text += " " + oneLine(fmt.Sprintf("%s=%v", k, detail[k]))
	}
	if text == "" {
		return ""
	}
	return " " + text
}
