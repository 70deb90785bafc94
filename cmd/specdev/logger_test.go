package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestLoggerIsMadeOnlyForALineWritten(t *testing.T) {
	var out bytes.Buffer
	z := newLogger(&out, "warn")
	z.Debug("not shown", "k", 1)
	z.Debug("not shown", "n", 2)
	if z.l != nil || out.Len() > 0 {
		t.Fatalf("a debug line below the level made the logger (%v) or wrote %q", z.l != nil, out.String())
	}
	z.Warnf("lock held by %s", "rv-1")
	if z.l == nil {
		t.Fatal("a warning did not make the logger")
	}
	got := out.String()
	if !strings.Contains(got, "lock held by rv-1") || strings.Contains(got, "\x1b") {
		t.Fatalf("log line %q: want the message, plain", got)
	}
}

func TestLoggerLevels(t *testing.T) {
	tests := []struct {
		level string
		debug bool
		warn  bool
	}{
		{"debug", true, true},
		{"info", false, true},
		{"warn", false, true},
		{"error", false, false},
		{"nonsense", false, true}, // kong's enum refuses it; warn is the fallback
	}
	for _, tt := range tests {
		t.Run(tt.level, func(t *testing.T) {
			var out bytes.Buffer
			z := newLogger(&out, tt.level)
			z.Debug("d-line")
			z.Warnf("w-line")
			if got := strings.Contains(out.String(), "d-line"); got != tt.debug {
				t.Errorf("debug line written: %v, want %v", got, tt.debug)
			}
			if got := strings.Contains(out.String(), "w-line"); got != tt.warn {
				t.Errorf("warn line written: %v, want %v", got, tt.warn)
			}
		})
	}
}
