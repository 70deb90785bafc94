package review

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/specdev/specdev/protocol"
	"github.com/specdev/specdev/schemas"
)

// history --event accepts exactly the events a history file may hold.
func TestHistoryEventsMatchTheSchema(t *testing.T) {
	data, err := schemas.Get("history")
	if err != nil {
		t.Fatal(err)
	}
	var schema struct {
		Properties struct {
			Event struct {
				Enum []protocol.EventName `json:"enum"`
			} `json:"event"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(data, &schema); err != nil {
		t.Fatal(err)
	}
	got, want := slices.Sorted(slices.Values(historyEvents)), slices.Sorted(slices.Values(schema.Properties.Event.Enum))
	if len(want) == 0 || !slices.Equal(got, want) {
		t.Fatalf("historyEvents = %v, the history schema's events = %v", got, want)
	}
}

func TestHistoryFilter(t *testing.T) {
	events := []protocol.Event{
		{Event: protocol.EventRequested, Round: 1}, {Event: protocol.EventClaimed, Round: 1},
		{Event: protocol.EventFailed, Round: 1}, {Event: protocol.EventRequested, Round: 2},
		{Event: protocol.EventClaimed, Round: 2}, {Event: protocol.EventPassed, Round: 2},
	}
	tests := []struct {
		name string
		cmd  HistoryOptions
		want []protocol.EventName
	}{
		{"all", HistoryOptions{}, []protocol.EventName{"requested", "claimed", "failed", "requested", "claimed", "passed"}},
		{"round 1", HistoryOptions{Round: 1}, []protocol.EventName{"requested", "claimed", "failed"}},
		{"events", HistoryOptions{Event: []string{"failed", "passed"}}, []protocol.EventName{"failed", "passed"}},
		{"event and round", HistoryOptions{Event: []string{"claimed", "passed"}, Round: 2}, []protocol.EventName{"claimed", "passed"}},
		{"nothing matches", HistoryOptions{Round: 3}, []protocol.EventName{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := []protocol.EventName{}
			for _, e := range events {
				if tt.cmd.keep(e) {
					got = append(got, e.Event)
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
		})
	}
}
