package checkpoint

import (
	"cmp"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/specdev/specdev/internal/shellword"
	"github.com/specdev/specdev/protocol"
)

// Conditions the CLI maps to exit codes.
var (
	// ErrBusy: the lock was not had in time, or a live session holds the review.
	ErrBusy = errors.New("busy")
	// ErrBlocked: the review loop needs a human (round limit, or paused).
	ErrBlocked = errors.New("blocked")
	// ErrNotFound: no .specdev/ folder, or no such assignment.
	ErrNotFound = errors.New("not found")
)

// BusyError says an assignment's lock (or the groups') was not had
// within the wait, and who holds it as far as the lock file tells.
type BusyError struct {
	Assignment string
	Holder     string
	Waited     time.Duration
}

func (e *BusyError) Error() string {
	what := "assignment " + e.Assignment
	if e.Assignment == "" { // the lock of the group declarations
		what = protocol.StateDir + "/" + GroupsDir
	}
	msg := what + " is locked by " + cmp.Or(e.Holder, "another process")
	if e.Waited <= 0 {
		return msg
	}
	return fmt.Sprintf("%s; gave up after %s", msg, e.Waited)
}

// Is makes errors.Is(err, ErrBusy) true.
func (e *BusyError) Is(target error) bool { return target == ErrBusy }

// HintText suggests what to do.
func (e *BusyError) HintText() string {
	return "retry in a moment; a lock held by a dead process frees itself, and lock_timeout in .specdev/config.json sets the wait"
}

// HeldError says a live session holds the review.
type HeldError struct {
	Assignment string
	Session    string
	Idle       time.Duration
	StaleAfter time.Duration
}

func (e *HeldError) Error() string {
	return fmt.Sprintf("review %s is held by live session %s (last activity %s ago; stale after %s)",
		e.Assignment, e.Session, roundDuration(e.Idle), e.StaleAfter)
}

// Is makes errors.Is(err, ErrBusy) true.
func (e *HeldError) Is(target error) bool { return target == ErrBusy }

// HintText suggests what to do.
func (e *HeldError) HintText() string {
	return "wait for it, or if that reviewer is gone take it over: specdev check --force --assignment " + e.Assignment
}

// ClaimCommand is the command that claims a review for session, with
// flags after it: the id is written out so that a hint or a Next: line
// works as printed, wherever the session came from (--session,
// SPECDEV_SESSION, --new-session).
func ClaimCommand(session string, flags ...string) string {
	cmd := "specdev check"
	if session != "" {
		cmd += " --session " + shellword.Word(session)
	}
	return strings.Join(append([]string{cmd}, flags...), " ")
}

// condition is the sentinel an error of the store satisfies (errors.Is).
type condition interface{ sentinel() error }

type (
	conflictCondition struct{}
	blockedCondition  struct{}
	notFoundCondition struct{}
	busyCondition     struct{}
	linkCondition     struct{}
)

func (conflictCondition) sentinel() error { return protocol.ErrConflict }
func (blockedCondition) sentinel() error  { return ErrBlocked }
func (notFoundCondition) sentinel() error { return ErrNotFound }
func (busyCondition) sentinel() error     { return ErrBusy }
func (linkCondition) sentinel() error     { return protocol.ErrInvalid }

// hintedError is an error of condition C with its message and the fix.
type hintedError[C condition] struct {
	Msg  string
	Hint string
}

func (e *hintedError[C]) Error() string { return e.Msg }

// Is makes errors.Is(err, the sentinel of C) true.
func (e *hintedError[C]) Is(target error) bool {
	var c C
	return target == c.sentinel()
}

// HintText suggests what to do.
func (e *hintedError[C]) HintText() string { return e.Hint }

// StateError is an action that does not fit the review's state
// (protocol.ErrConflict).
type StateError = hintedError[conflictCondition]

// BlockedError says the review loop waits for a human (ErrBlocked).
type BlockedError = hintedError[blockedCondition]

// NotFoundError says a folder or assignment does not exist (ErrNotFound).
type NotFoundError = hintedError[notFoundCondition]

// LinkError says a state file or folder is a symlink, a hard link, or not
// a regular file (folder) at all (protocol.ErrInvalid). specdev never
// follows links in its state: a link committed to a repository could
// otherwise make it write outside the project.
type LinkError = hintedError[linkCondition]

func conflict(hint, format string, args ...any) error {
	return &StateError{Msg: fmt.Sprintf(format, args...), Hint: hint}
}

func roundDuration(d time.Duration) time.Duration {
	switch {
	case d >= time.Minute:
		return d.Round(time.Second)
	case d >= time.Second:
		return d.Round(100 * time.Millisecond)
	default:
		return d.Round(time.Millisecond)
	}
}
