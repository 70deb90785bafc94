package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/specdev/specdev/protocol"
)

// logLevels are --log-level's values, least severe first.
var logLevels = []string{"debug", "info", "warn", "error"}

// logger writes log lines to stderr, one a line:
//
//	specdev: warn: the message key=value key="a value with spaces"
//
// specdev logs a handful of lines, and most runs none; a logging library
// with styles and colours cost every short command a tenth of a
// millisecond of start-up, mostly the set-up of packages only it used.
// A line can carry an agent's text (an error naming a file), so the
// whole line goes through protocol.SafeText.
type logger struct {
	w     io.Writer
	level int
}

// newLogger logs at level and above; kong has already refused a level
// not in logLevels, so an unknown one is only a caller's mistake, and
// means warn.
func newLogger(w io.Writer, level string) *logger {
	i := slices.Index(logLevels, level)
	if i < 0 {
		i = slices.Index(logLevels, "warn")
	}
	return &logger{w: w, level: i}
}

// log writes msg and its key-value pairs if level is at or above the
// logger's.
func (z *logger) log(level int, msg string, keyvals ...any) {
	if level < z.level {
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "specdev: %s: %s", logLevels[level], msg)
	for i := 0; i+1 < len(keyvals); i += 2 {
		v := fmt.Sprint(keyvals[i+1])
		if strings.ContainsAny(v, " \"=") || v == "" {
			v = fmt.Sprintf("%q", v)
		}
		fmt.Fprintf(&b, " %v=%s", keyvals[i], v)
	}
	fmt.Fprintln(z.w, protocol.SafeText(b.String()))
}

// Debug and Warnf are what review.Logger asks for: a debug message with
// key-value pairs, a formatted warning.
func (z *logger) Debug(msg any, keyvals ...any) { z.log(0, fmt.Sprint(msg), keyvals...) }
func (z *logger) Warnf(f string, a ...any)      { z.log(2, fmt.Sprintf(f, a...)) }
