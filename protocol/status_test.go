package protocol

import (
	"errors"
	"fmt"
	"testing"
)

// legal is the expected state machine, written out pair by pair so that a
// change to the transitions table must be made twice, on purpose.
var legal = map[[2]Status]bool{
	{StatusNone, StatusPending}:                true,
	{StatusPending, StatusInProgress}:          true,
	{StatusPending, StatusCancelled}:           true,
	{StatusInProgress, StatusPending}:          true,
	{StatusInProgress, StatusAwaitingApproval}: true,
	{StatusInProgress, StatusPassed}:           true,
	{StatusInProgress, StatusFailed}:           true,
	{StatusInProgress, StatusCancelled}:        true,
	{StatusInProgress, StatusBlocked}:          true, // a rejection that leaves the loop stuck
	{StatusAwaitingApproval, StatusPassed}:     true,
	{StatusAwaitingApproval, StatusFailed}:     true,
	{StatusAwaitingApproval, StatusBlocked}:    true,
	{StatusAwaitingApproval, StatusCancelled}:  true,
	{StatusPassed, StatusPending}:              true,
	{StatusFailed, StatusPending}:              true,
	{StatusFailed, StatusBlocked}:              true,
	{StatusBlocked, StatusPending}:             true,
	{StatusBlocked, StatusFailed}:              true, // unblocking a stuck rejection
	{StatusBlocked, StatusCancelled}:           true,
	{StatusCancelled, StatusPending}:           true,
	{StatusCancelled, StatusBlocked}:           true, // a cancelled loop keeps its rejected rounds
}

func TestTransitionsExhaustive(t *testing.T) {
	all := append([]Status{StatusNone}, Statuses...)
	all = append(all, Status("done")) // unknown statuses never move
	for _, from := range all {
		for _, to := range all {
			t.Run(fmt.Sprintf("%s->%s", name(from), name(to)), func(t *testing.T) {
				want := legal[[2]Status{from, to}]
				if got := Transition(from, to) == nil; got != want {
					t.Fatalf("Transition(%q, %q) allowed %v, want %v", from, to, got, want)
				}
				err := Transition(from, to)
				if want && err != nil {
					t.Fatalf("Transition(%q, %q) = %v, want nil", from, to, err)
				}
				if !want && !errors.Is(err, ErrConflict) {
					t.Fatalf("Transition(%q, %q) = %v, want a conflict", from, to, err)
				}
			})
		}
	}
}

func TestTransitionErrorNamesBothStates(t *testing.T) {
	err := Transition(StatusPassed, StatusInProgress)
	want := "cannot move a review from passed to in_progress (from passed it can only become pending)"
	if err == nil || err.Error() != want {
		t.Fatalf("got %v, want %q", err, want)
	}
}

func TestActive(t *testing.T) {
	for _, s := range Statuses {
		want := s == StatusPending || s == StatusInProgress || s == StatusAwaitingApproval
		if got := s.Active(); got != want {
			t.Errorf("%s.Active() = %v, want %v", s, got, want)
		}
	}
}

func name(s Status) string {
	if s == StatusNone {
		return "none"
	}
	return string(s)
}
