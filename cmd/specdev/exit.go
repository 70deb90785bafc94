package main

import (
	"errors"

	"github.com/alecthomas/kong"

	"github.com/specdev/specdev/checkpoint"
	"github.com/specdev/specdev/protocol"
)

// The exit codes of SPEC.md §4.1. They are stable and the same with --json.
const (
	exitOK               = 0
	exitError            = 1
	exitUsage            = 2
	exitWaiting          = 3
	exitChangesRequested = 4
	exitBusy             = 5
	exitBlocked          = 6
	exitInvalid          = 7
	exitConflict         = 8
	exitInterrupted      = 130 // a signal (Ctrl+C, SIGTERM) stopped the command, as shells report it
)

var exitNames = map[int]string{
	exitOK: "OK", exitError: "ERROR", exitUsage: "USAGE", exitWaiting: "WAITING",
	exitChangesRequested: "CHANGES_REQUESTED", exitBusy: "BUSY", exitBlocked: "BLOCKED",
	exitInvalid: "INVALID", exitConflict: "CONFLICT", exitInterrupted: "INTERRUPTED",
}

func usage(hint, msg string) error { return &protocol.UsageError{Msg: msg, Hint: hint} }

// exitCode is the one place that decides which exit code an error gets.
func exitCode(err error) int {
	var parseErr *kong.ParseError
	var interrupted *interruptedError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &interrupted):
		return exitInterrupted
	case errors.As(err, &parseErr), errors.Is(err, protocol.ErrUsage):
		return exitUsage
	case errors.Is(err, protocol.ErrInvalid):
		return exitInvalid
	case errors.Is(err, checkpoint.ErrBusy):
		return exitBusy
	case errors.Is(err, checkpoint.ErrBlocked):
		return exitBlocked
	case errors.Is(err, protocol.ErrConflict):
		return exitConflict
	case errors.Is(err, checkpoint.ErrNotFound):
		return exitUsage
	}
	return exitError
}

// hintOf returns the fix an error suggests, if any.
func hintOf(err error) string {
	var h interface{ HintText() string }
	if errors.As(err, &h) {
		return h.HintText()
	}
	var parseErr *kong.ParseError
	if errors.As(err, &parseErr) {
		return "run specdev --help (or specdev <command> --help) for the commands and flags"
	}
	return ""
}

// interruptedError is a command stopped by a signal. What the command left
// behind is in the wrapped error (e.g. "the review was released").
type interruptedError struct{ err error }

func (e *interruptedError) Error() string {
	var stopped *stoppedError
	if errors.As(e.err, &stopped) {
		return "interrupted: " + stopped.what
	}
	return "interrupted"
}

func (e *interruptedError) Unwrap() error { return e.err }

// HintText says what to do next: what the stopped command left behind is
// in its message, and the hints of the errors it wraps do not apply.
func (e *interruptedError) HintText() string { return "" }

// stoppedError is what a command that was stopped by a signal left behind,
// said in a few words.
type stoppedError struct{ what string }

func (e *stoppedError) Error() string { return e.what }
