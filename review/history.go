package review

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/specdev/specdev/protocol"
)

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
