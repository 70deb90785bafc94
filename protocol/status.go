package protocol

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Status is the state of a review request, kept in review_request.json.
type Status string

// The statuses of a review request.
const (
	StatusNone             Status = "" // no request yet
	StatusPending          Status = "pending"
	StatusInProgress       Status = "in_progress"
	StatusAwaitingApproval Status = "awaiting_approval"
	StatusPassed           Status = "passed"
	StatusFailed           Status = "failed"
	StatusBlocked          Status = "blocked"
	StatusCancelled        Status = "cancelled"
)

// Statuses lists every status a request file may hold, in lifecycle order.
var Statuses = []Status{
	StatusPending, StatusInProgress, StatusAwaitingApproval,
	StatusPassed, StatusFailed, StatusBlocked, StatusCancelled,
}

// transitions is the state machine as data: for each status, the statuses
// it may move to. StatusNone is the state before the first request.
//
//	none/passed           -> pending              work request (new review, round 1)
//	failed/cancelled      -> pending | blocked    work request (the next round of an open loop, or past its limit)
//	pending               -> in_progress          check (claim)
//	in_progress           -> pending              check release
//	in_progress           -> passed | failed      check verdict (auto), preflight failure
//	in_progress           -> awaiting_approval    check verdict (manual)
//	awaiting_approval     -> passed | failed      check approve / reject
//	in_progress/awaiting_approval -> blocked      a rejection that repeats the round before's findings (stuck)
//	blocked               -> pending | failed     work unblock (a new request; a stuck rejection)
//	pending/in_progress/awaiting_approval/blocked -> cancelled   work cancel
//
// It is a table, not a map: the linker lays it out, where a map would be
// built at start-up by every command.
var transitions = [...]struct {
	from Status
	to   []Status
}{
	{StatusNone, []Status{StatusPending}},
	{StatusPending, []Status{StatusInProgress, StatusCancelled}},
	{StatusInProgress, []Status{StatusPending, StatusAwaitingApproval, StatusPassed, StatusFailed, StatusBlocked, StatusCancelled}},
	{StatusAwaitingApproval, []Status{StatusPassed, StatusFailed, StatusBlocked, StatusCancelled}},
	{StatusPassed, []Status{StatusPending}},
	{StatusFailed, []Status{StatusPending, StatusBlocked}},
	{StatusBlocked, []Status{StatusPending, StatusFailed, StatusCancelled}},
	{StatusCancelled, []Status{StatusPending, StatusBlocked}},
}

// nextStatuses are the statuses a request may move to from from.
func nextStatuses(from Status) []Status {
	for _, t := range transitions {
		if t.from == from {
			return t.to
		}
	}
	return nil
}

// Transition returns nil if the move is legal and a *TransitionError if not.
func Transition(from, to Status) error {
	if slices.Contains(nextStatuses(from), to) {
		return nil
	}
	return &TransitionError{From: from, To: to}
}

// Valid reports whether s is one of the statuses a request file may hold.
func (s Status) Valid() bool { return slices.Contains(Statuses, s) }

// Active reports whether the request is waiting on a reviewer or a human
// approver, so that a new request must not replace it.
func (s Status) Active() bool {
	return s == StatusPending || s == StatusInProgress || s == StatusAwaitingApproval
}

// TransitionError is an illegal status change.
type TransitionError struct {
	From, To Status
}

func (e *TransitionError) Error() string {
	from := cmp.Or(string(e.From), "no request")
	return fmt.Sprintf("cannot move a review from %s to %s (from %s it can only become %s)",
		from, e.To, from, strings.Join(names(nextStatuses(e.From)), ", "))
}

// Is makes errors.Is(err, ErrConflict) true for illegal transitions.
func (e *TransitionError) Is(target error) bool { return target == ErrConflict }

// Mode is how a side runs: autonomously, or pausing for a human.
type Mode string

// The modes of the implementer and the reviewer.
const (
	ModeAuto   Mode = "auto"
	ModeManual Mode = "manual"
)

// Phase is where a reviewer is in one review, kept in review_progress.json.
type Phase string

// The phases of a review, in order.
const (
	PhasePreflight     Phase = "preflight"
	PhaseReviewing     Phase = "reviewing"
	PhaseWritingReport Phase = "writing-report"
	PhaseDone          Phase = "done"
)
