package main

import (
	"encoding/json"
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

// The exit codes are the review layer's outcome codes, stable and the
// same with --json. review.CodeOf is the one place that decides which
// code an error gets (a command line kong refused is a usage error, see
// withSuggestion; a command a signal stopped, 130).
const exitOK = int(review.OK)

func usage(hint, msg string) error { return &protocol.UsageError{Msg: msg, Hint: hint} }

func exitCode(err error) int { return int(review.CodeOf(err)) }
