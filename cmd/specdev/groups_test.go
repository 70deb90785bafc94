package main

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
		codes    []int
		wantCode int
		wantAt   int
	}{
		{"all passed", []int{0, 0, 0}, exitOK, -1},
		{"none", nil, exitOK, -1},
		{"waiting", []int{0, 3, 0}, exitWaiting, 1},
		{"changed beats waiting", []int{3, 8}, exitConflict, 1},
		{"failed beats changed", []int{8, 3, 4}, exitChangesRequested, 2},
		{"a human beats all", []int{4, 8, 6, 3}, exitBlocked, 2},
		{"the first of the most pressing", []int{4, 4}, exitChangesRequested, 0},
		{"an unranked code is never a pass", []int{0, 7, 6}, exitInvalid, 1},
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

func TestLoopLabel(t *testing.T) {
	tests := []struct {
		name       string
		status     protocol.Status
		checkpoint bool
		paused     bool
		want       string
	}{
		{"in progress", protocol.StatusInProgress, false, false, "in progress"},
		{"awaiting approval", protocol.StatusAwaitingApproval, false, false, "awaiting approval"},
		{"paused", protocol.StatusFailed, false, true, "paused"},
		{"checkpoint", protocol.StatusPassed, true, false, "checkpoint passed"},
		{"checkpoint in progress", protocol.StatusInProgress, true, false, "checkpoint in progress"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := loopLabel(tt.status, tt.checkpoint, tt.paused); got != tt.want {
				t.Errorf("loopLabel = %q, want %q", got, tt.want)
			}
		})
	}
}
