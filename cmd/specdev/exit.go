package main

import (
	"errors"

	"github.com/specdev/specdev/protocol"
	"github.com/specdev/specdev/review"
)

// The exit codes this package names: the review layer's outcome codes,
// stable and the same with --json.
const (
	exitOK          = int(review.OK)
	exitUsage       = int(review.Usage)
	exitInterrupted = int(review.Interrupted)
)

func usage(hint, msg string) error { return &protocol.UsageError{Msg: msg, Hint: hint} }

// exitCode decides which exit code an error gets: an interrupted command
// 130, the rest as the review layer says (review.CodeOf, the one place
// for the rest; a command line kong refused is a usage error, see
// withSuggestion).
func exitCode(err error) int {
	var interrupted *interruptedError
	if errors.As(err, &interrupted) {
		return exitInterrupted
	}
	return int(review.CodeOf(err))
}

// interruptedError is a command stopped by a signal. What the command left
// behind is in the wrapped error (e.g. "the review was released").
type interruptedError struct{ err error }

func (e *interruptedError) Error() string {
	var stopped *review.StoppedError
	if errors.As(e.err, &stopped) {
		return stopped.Error()
	}
	return "interrupted"
}

func (e *interruptedError) Unwrap() error { return e.err }

// HintText says what to do next: what the stopped command left behind is
// in its message, and the hints of the errors it wraps do not apply.
func (e *interruptedError) HintText() string { return "" }
