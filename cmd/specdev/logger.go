package main

import (
	"fmt"
	"io"

	"github.com/charmbracelet/log"
)

// logger writes log lines to stderr through charmbracelet/log. The
// library's logger is made on the first line written at or above the
// level: most runs write none, and making one builds styles and a
// renderer, which would cost every short command start-up time.
//
// Logs are plain text: the library sees stderr only as an io.Writer, not
// as the *os.File it is, so it never queries the terminal (on a terminal
// that does not answer, its colour probe made every command hang for
// seconds).
type logger struct {
	w     io.Writer
	level log.Level
	l     *log.Logger
}

func newLogger(w io.Writer, level string) *logger {
	lvl, err := log.ParseLevel(level)
	if err != nil {
		lvl = log.WarnLevel
	}
	return &logger{w: w, level: lvl}
}

// log writes a line of level, making the library's logger for the first.
func (z *logger) log(level log.Level, msg any, keyvals ...any) {
	if level < z.level {
		return
	}
	if z.l == nil {
		z.l = log.NewWithOptions(struct{ io.Writer }{z.w}, log.Options{Level: z.level, Prefix: "specdev"})
	}
	z.l.Log(level, msg, keyvals...)
}

// Debug and Warnf are what review.Logger asks for: a debug message with
// key-value pairs, a formatted warning.
func (z *logger) Debug(msg any, keyvals ...any) { z.log(log.DebugLevel, msg, keyvals...) }
func (z *logger) Warnf(f string, a ...any)      { z.log(log.WarnLevel, fmt.Sprintf(f, a...)) }
