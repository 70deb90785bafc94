package protocol

import (
	"errors"
	"fmt"
)

// Sentinel conditions shared by every package. Callers wrap them; the CLI
// maps them to exit codes with errors.Is.
var (
	// ErrInvalid: a state file or an input is malformed or breaks its schema.
	ErrInvalid = errors.New("invalid")
	// ErrConflict: the action does not fit the current state.
	ErrConflict = errors.New("conflict")
)

// InvalidError says what is wrong with one file or input: which file, which
// field (a JSON path such as changed_files[2]; empty for the whole
// document), what is wrong, and how to fix it.
type InvalidError struct {
	File    string
	Field   string
	Problem string
	Hint    string
}

func (e *InvalidError) Error() string {
	where := e.File
	if e.Field != "" {
		where = fmt.Sprintf("%s: field %s", e.File, quotePrefix(e.Field, 200))
	}
	return fmt.Sprintf("%s: %s", where, e.Problem)
}

// Is makes errors.Is(err, ErrInvalid) true.
func (e *InvalidError) Is(target error) bool { return target == ErrInvalid }

// HintText returns the fix to suggest to the user.
func (e *InvalidError) HintText() string { return e.Hint }

func invalid(file, field, hint, format string, args ...any) *InvalidError {
	return &InvalidError{File: file, Field: field, Problem: fmt.Sprintf(format, args...), Hint: hint}
}

// ErrUsage: a bad flag or argument (exit code 2).
var ErrUsage = errors.New("usage")

// UsageError is a bad flag or argument, with the fix.
type UsageError struct {
	Msg  string
	Hint string
	Err  error // an underlying condition errors.Is can find, or nil
}

func (e *UsageError) Error() string { return e.Msg }

// Is makes errors.Is(err, ErrUsage) true.
func (e *UsageError) Is(target error) bool { return target == ErrUsage }

// Unwrap lets errors.Is find the underlying condition.
func (e *UsageError) Unwrap() error { return e.Err }

// HintText suggests what to do.
func (e *UsageError) HintText() string { return e.Hint }
