package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/specdev/specdev/protocol"
	"github.com/specdev/specdev/review"
)

// writeResult prints a result: text ending in one "Next:" line, or one
// JSON document.
func writeResult(w io.Writer, asJSON bool, res review.Result) {
	if asJSON {
		writeJSON(w, review.Envelope{OK: true, State: res.State, Data: res.Data, Next: res.Next})
		return
	}
	text := strings.TrimRight(res.Text, "\n")
	if text != "" {
		fmt.Fprintln(w, text)
	}
	if res.Next != "" {
		fmt.Fprintln(w, "Next: "+res.Next)
	}
}

// writeError prints an error: to stderr as text, or as the one JSON
// document on stdout.
func writeError(stdout, stderr io.Writer, asJSON bool, err error) {
	code := exitCode(err)
	hint := review.HintOf(err)
	if asJSON {
		writeJSON(stdout, review.Envelope{Error: &review.ErrorBody{Code: review.Code(code).String(), Message: err.Error(), Hint: hint}})
		return
	}
	fmt.Fprintf(stderr, "specdev: %s\n", protocol.SafeText(err.Error()))
	if hint != "" {
		fmt.Fprintf(stderr, "hint: %s\n", protocol.SafeText(hint))
	}
}

func writeJSON(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	enc.Encode(v)
}

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
