package main

import (
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/specdev/specdev/checkpoint"
	"github.com/specdev/specdev/protocol"
	"github.com/specdev/specdev/review"
)

// HistoryCmd prints an assignment's event log, or the part of it asked for.
type HistoryCmd struct {
	Name  string   `arg:"" optional:"" name:"assignment" help:"Assignment folder name or a unique prefix (same as --assignment; default: the newest)." placeholder:"ASSIGNMENT"`
	Last  int      `short:"n" name:"last" help:"Only the last N events (of those the other flags select)." placeholder:"N"`
	Round int      `help:"Only the events of this review round." placeholder:"N"`
	Event []string `help:"Only events of this kind; repeat for more (requested, claimed, file_reviewed, failed, …)." sep:"none" placeholder:"NAME"`
}

// historyEvents are the event names a history holds (the history
// schema's enum; a test keeps them the same).
var historyEvents = []protocol.EventName{
	protocol.EventRequested, protocol.EventClaimed, protocol.EventPreflight, protocol.EventFileReviewed,
	protocol.EventTakeover, protocol.EventReleased, protocol.EventResumeFallback, protocol.EventVerdictProposed,
	protocol.EventPassed, protocol.EventFailed, protocol.EventApproved, protocol.EventRejected,
	protocol.EventBlocked, protocol.EventUnblocked, protocol.EventContinued, protocol.EventCancelled,
	protocol.EventAgentRun, protocol.EventAgentIncomplete,
}

// maxHistoryLast bounds -n: more than any history holds.
const maxHistoryLast = 1_000_000

// Run reads review_history.jsonl, tolerating a torn last line.
func (c *HistoryCmd) Run(app *App) error {
	if err := c.checkFlags(app); err != nil {
		return err
	}
	if c.Name != "" {
		app.Assignment = c.Name
	}
	a, err := app.Target()
	if err != nil {
		return err
	}
	all, torn, err := a.History()
	if err != nil {
		return err
	}
	events := c.filter(all)
	return app.emit(review.Result{State: "history", Text: historyText(a, events, len(all), torn, c.filtered()), Next: "specdev status",
		Data: map[string]any{"assignment": a.Name, "events": events, "total": len(all), "torn": torn}})
}

// checkFlags refuses what selects nothing by mistake: an unknown event
// name, a round or count out of bounds, or two different assignments
// (SPECDEV_ASSIGNMENT is only a default: the argument overrides it).
func (c *HistoryCmd) checkFlags(app *App) error {
	fromEnv := app.Assignment == os.Getenv("SPECDEV_ASSIGNMENT") // a default, which the argument overrides
	if c.Name != "" && app.Assignment != "" && c.Name != app.Assignment && !fromEnv {
		return usage("name the assignment once", fmt.Sprintf("history %s and --assignment %s name two assignments", oneLine(c.Name), oneLine(app.Assignment)))
	}
	if c.Last < 0 || c.Last > maxHistoryLast {
		return usage(fmt.Sprintf("give -n from 1 to %d (0 or no -n: all)", maxHistoryLast), fmt.Sprintf("-n %d: out of range", c.Last))
	}
	if c.Round < 0 || c.Round > protocol.MaxRound {
		return usage(fmt.Sprintf("give --round from 1 to %d", protocol.MaxRound), fmt.Sprintf("--round %d: out of range", c.Round))
	}
	for _, e := range c.Event {
		if !slices.Contains(historyEvents, protocol.EventName(e)) {
			return usage("known events: "+eventList(), "--event "+protocol.QuotePrefix(e)+": no such event")
		}
	}
	return nil
}

func (c *HistoryCmd) filtered() bool { return c.Last > 0 || c.Round > 0 || len(c.Event) > 0 }

// filter keeps the events of --round and --event, then the last -n.
func (c *HistoryCmd) filter(all []protocol.Event) []protocol.Event {
	events := []protocol.Event{}
	for _, e := range all {
		if c.Round > 0 && e.Round != c.Round {
			continue
		}
		if len(c.Event) > 0 && !slices.Contains(c.Event, string(e.Event)) {
			continue
		}
		events = append(events, e)
	}
	if c.Last > 0 && len(events) > c.Last {
		events = events[len(events)-c.Last:]
	}
	return events
}

func historyText(a *checkpoint.Assignment, events []protocol.Event, total int, torn, filtered bool) string {
	var b strings.Builder
	if filtered {
		fmt.Fprintf(&b, "History of %s (%d of %d events):\n", a.Name, len(events), total)
	} else {
		fmt.Fprintf(&b, "History of %s (%d events):\n", a.Name, total)
	}
	for _, e := range events {
		fmt.Fprintf(&b, "  %s  %-16s round %d  %s%s\n", e.TS, e.Event, e.Round, dash(oneLine(e.Session)), detailText(e.Detail))
	}
	if torn {
		b.WriteString("  (the last line is torn by a crash; the next change repairs it)\n")
	}
	b.WriteString(review.AgentCostText(events))
	return b.String()
}

func eventList() string {
	names := make([]string, len(historyEvents))
	for i, e := range historyEvents {
		names[i] = string(e)
	}
	return strings.Join(names, ", ")
}

func detailText(detail map[string]any) string {
	if len(detail) == 0 {
		return ""
	}
	keys := make([]string, 0, len(detail))
	for k := range detail {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, oneLine(fmt.Sprintf("%s=%v", k, detail[k])))
	}
	return "  " + strings.Join(parts, " ")
}
