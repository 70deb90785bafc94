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
)

var exitNames = map[int]string{
	exitOK: "OK", exitError: "ERROR", exitUsage: "USAGE", exitWaiting: "WAITING",
	exitChangesRequested: "CHANGES_REQUESTED", exitBusy: "BUSY", exitBlocked: "BLOCKED",
	exitInvalid: "INVALID", exitConflict: "CONFLICT",
}

func usage(hint, msg string) error { return &protocol.UsageError{Msg: msg, Hint: hint} }

// exitCode is the one place that decides which exit code an error gets.
func exitCode(err error) int {
	var parseErr *kong.ParseError
	switch {
	case err == nil:
		return exitOK
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
