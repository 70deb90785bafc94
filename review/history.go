package review

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/specdev/specdev/checkpoint"
	"github.com/specdev/specdev/protocol"
)

// HistoryOptions selects part of an assignment's event log: the events
// of a round and of some kinds, then the last N of those (0: all).
type HistoryOptions struct {
	Last   int
	Round  int
	Events []string
}

// HistoryEvents are the event names a history holds (the history
// schema's enum; a test keeps them the same).
var HistoryEvents = []protocol.EventName{
	protocol.EventRequested, protocol.EventClaimed, protocol.EventPreflight, protocol.EventFileReviewed,
	protocol.EventTakeover, protocol.EventReleased, protocol.EventResumeFallback, protocol.EventVerdictProposed,
	protocol.EventPassed, protocol.EventFailed, protocol.EventApproved, protocol.EventRejected,
	protocol.EventBlocked, protocol.EventUnblocked, protocol.EventContinued, protocol.EventCancelled,
}

// MaxHistoryLast bounds Last: more than any history holds.
const MaxHistoryLast = 1_000_000

// History reads the caller's assignment's review_history.jsonl,
// tolerating a torn last line, and keeps the events asked for.
func (s *Service) History(ctx context.Context, opt HistoryOptions) (Result, error) {
	if err := opt.check(); err != nil {
		return Result{}, err
	}
	a, err := s.Target()
	if err != nil {
		return Result{}, err
	}
	all, torn, err := a.History()
	if err != nil {
		return Result{}, err
	}
	events := opt.filter(all)
	return Result{State: "history", Text: historyText(a, events, len(all), torn, opt.filtered()), Next: "specdev status",
		Data: map[string]any{"assignment": a.Name, "events": events, "total": len(all), "torn": torn}}, nil
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
	for _, e := range opt.Events {
		if !slices.Contains(HistoryEvents, protocol.EventName(e)) {
			return usage("known events: "+eventList(), "--event "+protocol.QuotePrefix(e)+": no such event")
		}
	}
	return nil
}

func (opt HistoryOptions) filtered() bool {
	return opt.Last > 0 || opt.Round > 0 || len(opt.Events) > 0
}

// keep tells whether an event is of the round and kinds asked for.
func (opt HistoryOptions) keep(e protocol.Event) bool {
	return (opt.Round == 0 || e.Round == opt.Round) && (len(opt.Events) == 0 || slices.Contains(opt.Events, string(e.Event)))
}

// filter keeps the events of the round and kinds asked for, then the last N.
func (opt HistoryOptions) filter(all []protocol.Event) []protocol.Event {
	events := []protocol.Event{}
	for _, e := range all {
		if opt.keep(e) {
			events = append(events, e)
		}
	}
	if opt.Last > 0 && len(events) > opt.Last {
		events = events[len(events)-opt.Last:]
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
		session := oneLine(e.Session)
		if session == "" {
			session = "-"
		}
		fmt.Fprintf(&b, "  %s  %-16s round %d  %s%s\n", e.TS, e.Event, e.Round, session, detailText(e.Detail))
	}
	if torn {
		b.WriteString("  (the last line is torn by a crash; the next change repairs it)\n")
	}
	return b.String()
}

func eventList() string {
	names := make([]string, len(HistoryEvents))
	for i, e := range HistoryEvents {
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
