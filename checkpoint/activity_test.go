package checkpoint

import (
	"context"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/specdev/specdev/protocol"
)

func TestIdle(t *testing.T) {
	now := time.Date(2026, 2, 11, 10, 30, 0, 0, time.UTC)
	year := 365 * 24 * time.Hour
	tests := []struct {
		name          string
		last, written time.Time
		wantIdle      time.Duration
		wantSkewed    bool
	}{
		{"past, written just after", now.Add(-5 * time.Minute), now.Add(-5*time.Minute + time.Millisecond), 5 * time.Minute, false},
		{"past, write time unknown", now.Add(-5 * time.Minute), time.Time{}, 5 * time.Minute, false},
		{"a moment ahead, within tolerance", now.Add(time.Second), now, 0, false},
		{"a year ahead, written 20m ago", now.Add(year), now.Add(-20 * time.Minute), 20 * time.Minute, true},
		{"a year ahead, write time unknown", now.Add(year), time.Time{}, 0, true},
		{"ahead of its own write, now past", now.Add(-5 * time.Minute), now.Add(-10 * time.Minute), 10 * time.Minute, true},
		{"written in the future too", now.Add(year), now.Add(time.Hour), 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			idle, skewed := Idle(now, tt.last, tt.written)
			if idle != tt.wantIdle || skewed != tt.wantSkewed {
				t.Errorf("Idle = %v, skewed %v; want %v, %v", idle, skewed, tt.wantIdle, tt.wantSkewed)
			}
		})
	}
}

// TestFutureActivityGoesStale: a review whose last_activity is a year
// ahead (a reviewer's clock running ahead) is not held for a year: it goes
// stale stale_after after its progress file was last written. The poll
// lists it as stale and another session takes it over.
func TestFutureActivityGoesStale(t *testing.T) {
	a := testAssignment(t)
	ctx := context.Background()
	if _, err := a.RequestReview(ctx, NewRequest{ChangedFiles: []string{"src/a.go"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Claim(ctx, ClaimOptions{Session: "rv-ahead"}); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	err := a.Update(ctx, func(tx *Tx) error {
		tx.Progress.LastActivity = protocol.At(now.Add(365 * 24 * time.Hour))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	written := now.Add(-20 * time.Minute)
	if err := os.Chtimes(a.path(protocol.ProgressFile), written, written); err != nil {
		t.Fatal(err)
	}

	entries, err := a.store.Scan()
	if err != nil {
		t.Fatal(err)
	}
	if got := a.store.Candidates(entries, "rv-other", false); !slices.Equal(got, []string{a.Name}) {
		t.Errorf("Candidates = %v, want the review as stale", got)
	}
	if idle, skewed := entries[0].Idle(now); idle < 19*time.Minute || !skewed {
		t.Errorf("Entry.Idle = %v, skewed %v; want about 20m, skewed", idle, skewed)
	}
	c, err := a.Claim(ctx, ClaimOptions{Session: "rv-other"})
	if err != nil {
		t.Fatalf("Claim of a review idle for 20m (last_activity a year ahead) = %v, want a takeover", err)
	}
	if c.Kind != ClaimTakeover || c.From != "rv-ahead" || c.Idle < 19*time.Minute || c.Idle > 21*time.Minute {
		t.Errorf("claim = %s from %s after %v, want a takeover from rv-ahead after about 20m", c.Kind, c.From, c.Idle)
	}
}
