package protocol

import (
	"slices"
	"unicode/utf8"
)

// HistoryFile is the name of the append-only event log of an assignment.
const HistoryFile = "review_history.jsonl"

// EventName names what happened to a review.
type EventName string

// The events of review_history.jsonl.
const (
	EventRequested       EventName = "requested"
	EventClaimed         EventName = "claimed"
	EventPreflight       EventName = "preflight"
	EventFileReviewed    EventName = "file_reviewed"
	EventTakeover        EventName = "takeover"
	EventReleased        EventName = "released"
	EventResumeFallback  EventName = "resume_fallback"
	EventVerdictProposed EventName = "verdict_proposed"
	EventPassed          EventName = "passed"
	EventFailed          EventName = "failed"
	EventApproved        EventName = "approved"
	EventRejected        EventName = "rejected"
	EventBlocked         EventName = "blocked"
	EventUnblocked       EventName = "unblocked"
	EventContinued       EventName = "continued"
	EventCancelled       EventName = "cancelled"
	EventAgentRun        EventName = "agent_run"        // an agent specdev started has ended (specdev check --agent, specdev loop)
	EventAgentIncomplete EventName = "agent_incomplete" // an agent stopped without a verdict though nudged; its review was given back
	EventGroupDropped    EventName = "group_dropped"    // the loop was dropped from its declared group (specdev group drop)

	EventStopGateOverridden EventName = "stop_gate_overridden" // Claude Code went on past a stop the review gate blocked
)

// Event is one line of review_history.jsonl.
type Event struct {
	Seq       int64          `json:"seq,omitzero" specdev:"nonzero" check:"seq"` // order of the event in its assignment's history; 0 in files older than the journal
	TS        Timestamp      `json:"ts" specdev:"required" check:"set"`
	Event     EventName      `json:"event" specdev:"required" check:"event"`
	RequestID string         `json:"request_id,omitempty" check:"id"`
	Round     int            `json:"round,omitzero" specdev:"nonzero" check:"round"`
	Session   string         `json:"session,omitempty" check:"id"`
	Detail    map[string]any `json:"detail,omitempty"`
}

// MaxDetailText bounds a string in an event's detail: the history is a log
// of what happened, not a copy of the data (the state files hold that).
const MaxDetailText = 1000

// ClipDetail shortens the strings of a detail map to MaxDetailText bytes
// (on a rune boundary, marked with "…").
func ClipDetail(detail map[string]any) map[string]any {
	for k, v := range detail {
		if s, ok := v.(string); ok && len(s) > MaxDetailText {
			cut := MaxDetailText
			for cut > 0 && !utf8.RuneStart(s[cut]) {
				cut--
			}
			detail[k] = s[:cut] + "…"
		}
	}
	return detail
}

// Journal is the history events of the last transaction that wrote a state
// file, carried inside the file itself. The events reach
// review_history.jsonl only after the state files are renamed into place;
// a crash in between would lose them, so the next transaction appends every
// journalled event whose Seq the history has not reached yet. The journal
// is replaced by each transaction that writes the file and has events.
type Journal struct {
	Events []Event `json:"events" specdev:"required"`
}

// MaxJournalEvents bounds the events one transaction logs.
const MaxJournalEvents = 16

// LastSeq is the highest sequence number in the journal, 0 if none.
func (j *Journal) LastSeq() int64 {
	if j == nil {
		return 0
	}
	var last int64
	for _, e := range j.Events {
		last = max(last, e.Seq)
	}
	return last
}

// After returns the journalled events whose Seq is above seq, in order.
func (j *Journal) After(seq int64) []Event {
	if j == nil {
		return nil
	}
	return slices.DeleteFunc(slices.Clone(j.Events), func(e Event) bool { return e.Seq <= seq })
}
