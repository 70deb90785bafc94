package main

import (
	"io"

	"github.com/charmbracelet/log"
)

// logger writes log lines to stderr through charmbracelet/log. The
// library's logger is made on the first line written at or above the
// level: most runs write none, and making one builds styles and a
// renderer, which would cost every short command start-up time.
//
// Logs are plain text: the library sees stderr only through plainWriter,
// so it never queries the terminal (on a terminal that does not answer,
// its colour probe made every command hang for seconds).
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

// at returns the library's logger if a line of level is to be written.
func (z *logger) at(level log.Level) *log.Logger {
	if level < z.level {
		return nil
	}
	if z.l == nil {
		z.l = log.NewWithOptions(plainWriter{z.w}, log.Options{Level: z.level, Prefix: "specdev"})
	}
	return z.l
}

// Debug logs msg with key-value pairs at debug level.
func (z *logger) Debug(msg any, keyvals ...any) {
	if l := z.at(log.DebugLevel); l != nil {
		l.Debug(msg, keyvals...)
	}
}

// Info logs msg with key-value pairs at info level.
func (z *logger) Info(msg any, keyvals ...any) {
	if l := z.at(log.InfoLevel); l != nil {
		l.Info(msg, keyvals...)
	}
}

// Warn logs msg with key-value pairs at warn level.
func (z *logger) Warn(msg any, keyvals ...any) {
	if l := z.at(log.WarnLevel); l != nil {
		l.Warn(msg, keyvals...)
	}
}

// Debugf logs a formatted line at debug level.
func (z *logger) Debugf(format string, args ...any) {
	if l := z.at(log.DebugLevel); l != nil {
		l.Debugf(format, args...)
	}
}

// Warnf logs a formatted line at warn level.
func (z *logger) Warnf(format string, args ...any) {
	if l := z.at(log.WarnLevel); l != nil {
		l.Warnf(format, args...)
	}
}

// Errorf logs a formatted line at error level.
func (z *logger) Errorf(format string, args ...any) {
	if l := z.at(log.ErrorLevel); l != nil {
		l.Errorf(format, args...)
	}
}

// plainWriter hides the terminal behind stderr from the logging library.
type plainWriter struct{ w io.Writer }

func (p plainWriter) Write(b []byte) (int, error) { return p.w.Write(b) }
