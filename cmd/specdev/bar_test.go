package main

import "testing"

// bar draws any counts a progress file may hold without panicking
// (files_total below the files reviewed, as a hand-edited file may say).
func TestBar(t *testing.T) {
	tests := []struct {
		done, total int
		want        string
	}{
		{3, 10, "[###-------] 3/10"},
		{0, 4, "[----------] 0/4"},
		{4, 4, "[##########] 4/4"},
		{5, 2, "[##########] 5/2"},
		{-1, 2, "[----------] -1/2"},
		{1, 0, "[----------] 1/0"},
		{1, -3, "[----------] 1/-3"},
	}
	for _, tt := range tests {
		if got := bar(tt.done, tt.total); got != tt.want {
			t.Errorf("bar(%d, %d) = %q, want %q", tt.done, tt.total, got, tt.want)
		}
	}
}
