package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestLoggerLineIsPlainAndSafe(t *testing.T) {
	var out bytes.Buffer
	z := newLogger(&out, "debug")
	z.Debug("lost the race", "assignment", "00001_x", "err", "locked by rv-1", "empty", "")
	z.Warnf("file %s is odd", "a\x1b[31mred\u202e.go\nnext")
	want := "specdev: debug: lost the race assignment=00001_x err=\"locked by rv-1\" empty=\"\"\n" +
		"specdev: warn: file ared.go next is odd\n"
	if got := out.String(); got != want {
		t.Fatalf("log lines:\n%q\nwant\n%q", got, want)
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
