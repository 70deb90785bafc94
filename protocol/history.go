package protocol

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
)

// Event is one line of review_history.jsonl.
type Event struct {
	TS        Timestamp      `json:"ts"`
	Event     EventName      `json:"event"`
	RequestID string         `json:"request_id,omitempty"`
	Round     int            `json:"round,omitempty"`
	Session   string         `json:"session,omitempty"`
	Detail    map[string]any `json:"detail,omitempty"`
}
