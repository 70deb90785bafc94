package review

import (
	"testing"

	"github.com/specdev/specdev/protocol"
)

func TestGroupSummary(t *testing.T) {
	tests := []struct {
		name   string
		labels []string
		want   string
	}{
		{"the issue's example", []string{"in progress", "failed", "passed"}, "group api: 1 passed, 1 failed, 1 in progress"},
		{"decided first, counted", []string{"pending", "passed", "blocked", "passed"}, "group api: 2 passed, 1 blocked, 1 pending"},
		{"checkpoint states after the rest", []string{"checkpoint failed", "passed", "checkpoint passed"}, "group api: 1 passed, 1 checkpoint failed, 1 checkpoint passed"},
		{"one member", []string{"awaiting approval"}, "group api: 1 awaiting approval"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := groupSummary("api", tt.labels); got != tt.want {
				t.Errorf("groupSummary(%q) = %q, want %q", tt.labels, got, tt.want)
			}
		})
	}
}

func TestMostPressing(t *testing.T) {
	tests := []struct {
		name     string
		codes    []Code
		wantCode Code
		wantAt   int
	}{
		{"all passed", []Code{0, 0, 0}, OK, -1},
		{"none", nil, OK, -1},
		{"waiting", []Code{0, 3, 0}, Waiting, 1},
		{"changed beats waiting", []Code{3, 8}, Conflict, 1},
		{"failed beats changed", []Code{8, 3, 4}, ChangesRequested, 2},
		{"a human beats all", []Code{4, 8, 6, 3}, Blocked, 2},
		{"the first of the most pressing", []Code{4, 4}, ChangesRequested, 0},
		{"an unranked code is never a pass", []Code{0, 7, 6}, Invalid, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, at := mostPressing(tt.codes)
			if code != tt.wantCode || at != tt.wantAt {
				t.Errorf("mostPressing(%v) = %d, %d; want %d, %d", tt.codes, code, at, tt.wantCode, tt.wantAt)
			}
		})
	}
}

func TestPeekLabel(t *testing.T) {
	tests := []struct {
		name    string
		request protocol.Request
		want    string
	}{
		{"in progress", protocol.Request{Status: protocol.StatusInProgress}, "in progress"},
		{"awaiting approval", protocol.Request{Status: protocol.StatusAwaitingApproval}, "awaiting approval"},
		{"failed", protocol.Request{Status: protocol.StatusFailed, Mode: protocol.ModeAuto}, "failed"},
		{"paused", protocol.Request{Status: protocol.StatusFailed, Mode: protocol.ModeManual}, "paused"},
		{"checkpoint", protocol.Request{Status: protocol.StatusPassed, Checkpoint: true}, "checkpoint passed"},
		{"checkpoint in progress", protocol.Request{Status: protocol.StatusInProgress, Checkpoint: true}, "checkpoint in progress"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := peekLabel(&tt.request); got != tt.want {
				t.Errorf("peekLabel = %q, want %q", got, tt.want)
			}
		})
	}
}
