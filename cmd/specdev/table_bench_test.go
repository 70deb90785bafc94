package main

import (
	"fmt"
	"testing"
	"time"

	"github.com/specdev/specdev/review"
)

// BenchmarkStatusText is the table of specdev status over many
// assignments, fitted to a terminal: its cost must grow with the rows,
// not with their square (scripts/bench.sh times the whole command).
func BenchmarkStatusText(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		rows := make([]review.StatusRow, n)
		for i := range rows {
			rows[i] = review.StatusRow{Assignment: fmt.Sprintf("%05d_feature", i), Status: "in_progress", Round: 1, MaxRounds: 3,
				Reviewer: "rv-1", FilesReviewed: i % 7, FilesTotal: 7, LastActivity: "x", Idle: time.Duration(i) * time.Second}
		}
		b.Run(fmt.Sprintf("rows=%d", n), func(b *testing.B) {
			for b.Loop() {
				statusText(rows, nil, 80, false)
			}
		})
	}
}
