package review

import (
	"errors"
	"fmt"
	"testing"

	"github.com/specdev/specdev/checkpoint"
	"github.com/specdev/specdev/protocol"
)

func TestExitCodeMapsEveryCondition(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want Code
	}{
		{"nil", nil, OK},
		{"plain error", errors.New("boom"), Failure},
		{"usage", usage("h", "m"), Usage},
		{"wrapped usage", fmt.Errorf("x: %w", &protocol.UsageError{Msg: "m"}), Usage},
		{"not found", &checkpoint.NotFoundError{Msg: "m"}, Usage},
		{"invalid", &protocol.InvalidError{File: "f", Problem: "p"}, Invalid},
		{"busy lock", &checkpoint.BusyError{Assignment: "a"}, Busy},
		{"held by a live session", &checkpoint.HeldError{Assignment: "a"}, Busy},
		{"blocked", &checkpoint.BlockedError{Msg: "m"}, Blocked},
		{"state conflict", &checkpoint.StateError{Msg: "m"}, Conflict},
		{"illegal transition", protocol.Transition(protocol.StatusPassed, protocol.StatusInProgress), Conflict},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := CodeOf(tt.err); got != tt.want {
				t.Fatalf("CodeOf(%v) = %d (%s), want %d (%s)", tt.err, got, got, tt.want, tt.want)
			}
		})
	}
}

func TestEveryExitCodeHasAName(t *testing.T) {
	for code := OK; code <= Conflict; code++ {
		if codeNames[code] == "" {
			t.Errorf("exit code %d has no name", code)
		}
	}
}
