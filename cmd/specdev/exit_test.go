package main

import (
	"errors"
	"fmt"
	"testing"

	"github.com/alecthomas/kong"

	"github.com/specdev/specdev/checkpoint"
	"github.com/specdev/specdev/protocol"
)

func TestExitCodeMapsEveryCondition(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want int
	}{
		{"nil", nil, exitOK},
		{"plain error", errors.New("boom"), exitError},
		{"kong parse error", &kong.ParseError{}, exitUsage},
		{"usage", usage("h", "m"), exitUsage},
		{"wrapped usage", fmt.Errorf("x: %w", &protocol.UsageError{Msg: "m"}), exitUsage},
		{"not found", &checkpoint.NotFoundError{Msg: "m"}, exitUsage},
		{"invalid", &protocol.InvalidError{File: "f", Problem: "p"}, exitInvalid},
		{"busy lock", &checkpoint.BusyError{Assignment: "a"}, exitBusy},
		{"held by a live session", &checkpoint.HeldError{Assignment: "a"}, exitBusy},
		{"blocked", &checkpoint.BlockedError{Msg: "m"}, exitBlocked},
		{"state conflict", &checkpoint.StateError{Msg: "m"}, exitConflict},
		{"displaced", &checkpoint.DisplacedError{Assignment: "a"}, exitConflict},
		{"illegal transition", protocol.Transition(protocol.StatusPassed, protocol.StatusInProgress), exitConflict},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := exitCode(tt.err); got != tt.want {
				t.Fatalf("exitCode(%v) = %d (%s), want %d (%s)", tt.err, got, exitNames[got], tt.want, exitNames[tt.want])
			}
		})
	}
}

func TestEveryExitCodeHasAName(t *testing.T) {
	for code := exitOK; code <= exitConflict; code++ {
		if exitNames[code] == "" {
			t.Errorf("exit code %d has no name", code)
		}
	}
}
