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
		where = fmt.Sprintf("%s: field %q", e.File, e.Field)
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
