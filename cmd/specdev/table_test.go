package main

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/specdev/specdev/review"
)

// statusSample is a status with one row of each kind that needs room.
func statusSample() []review.StatusRow {
	rows := []review.StatusRow{
		{Assignment: "00001_feature_login_throttling", Status: "in_progress", Round: 1, MaxRounds: 3, Reviewer: "rv-4f2a9c01",
			FilesReviewed: 3, FilesTotal: 7, LastActivity: "x", Idle: 17 * time.Minute, Stale: true},
		{Assignment: "00002_logout", Status: "blocked", Round: 3, MaxRounds: 2},
		{Assignment: "00003_signup", Status: "awaiting_approval", Round: 1, MaxRounds: 3, Reviewer: "rv-b", FilesReviewed: 1, FilesTotal: 1, LastActivity: "x", Idle: 5 * time.Second},
		{Assignment: "00004_empty", Status: "none"},
	}
	for i := range rows {
		rows[i].Description = review.StatusWords(rows[i])
	}
	return rows
}

// At any width a status fits (no row wraps), keeping the most detail
// that fits, and the assignment and its status always show.
func TestStatusTableFits(t *testing.T) {
	rows := statusSample()
	tests := []struct {
		width    int
		contains []string // in the output
		lacks    []string
	}{
		{200, []string{"GROUP", "MODE", "3/7", "17m", "in review, STALE", "blocked at round 2 of 2", "2 of 2", "rv-4f2a9c01"}, nil},
		{100, []string{"REVIEWER", "in review, STALE", "awaiting a human's decision", "3/7", "17m"}, []string{"MODE"}},
		{80, []string{"in review, STALE", "blocked at round 2 of 2", "00001_feature_login_throttling", "1 of 3", "IDLE"}, []string{"REVIEWER", "GROUP"}},
		{60, []string{"STATUS", "00001_feature_login_throttling  in review, STALE"}, []string{"REVIEWER", "rv-4f2a9c01", "ROUND"}},
		{50, []string{"00001_feature_login_…  in review, STALE", "00002_logout           blocked at round 2 of 2"}, []string{"ROUND", "IDLE"}},
	}
	for _, tt := range tests {
		t.Run(strconv.Itoa(tt.width), func(t *testing.T) {
			tab := statusTable(rows)
			out := tab.render(tab.fit(tt.width), false)
			for _, line := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
				if n := textWidth(line); n > tt.width {
					t.Errorf("line of %d characters at width %d: %q", n, tt.width, line)
				}
				if strings.HasSuffix(line, " ") {
					t.Errorf("line ends in spaces: %q", line)
				}
			}
			for _, s := range tt.contains {
				if !strings.Contains(out, s) {
					t.Errorf("width %d: want %q in\n%s", tt.width, s, out)
				}
			}
			for _, s := range tt.lacks {
				if strings.Contains(out, s) {
					t.Errorf("width %d: want no %q in\n%s", tt.width, s, out)
				}
			}
		})
	}
}

// Colour wraps the status cell only; the columns stay aligned.
func TestStatusTableColour(t *testing.T) {
	tab := statusTable(statusSample())
	out := tab.render(tab.fit(200), true)
	lines := strings.Split(out, "\n")
	if !strings.Contains(lines[1], "\x1b[33min review, STALE\x1b[0m") {
		t.Errorf("the stale row is not yellow: %q", lines[1])
	}
	if !strings.Contains(lines[2], "\x1b[1;31mblocked at round 2 of 2\x1b[0m") {
		t.Errorf("the blocked row is not bold red: %q", lines[2])
	}
	plainOut := tab.render(tab.fit(200), false)
	strip := strings.NewReplacer("\x1b[33m", "", "\x1b[1;31m", "", "\x1b[31m", "", "\x1b[32m", "", "\x1b[0m", "")
	if strip.Replace(out) != plainOut {
		t.Errorf("colour changed the layout:\n%s\nwant\n%s", strip.Replace(out), plainOut)
	}
}
