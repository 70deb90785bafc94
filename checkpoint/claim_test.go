package checkpoint

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/specdev/specdev/protocol"
)

// TestClaimRace: eight sessions, each with its own store handle (its own
// lock file handle), claim one pending request at once. Exactly one wins;
// each other is told the review is held (busy) or no longer pending
// (conflict); the history has one "claimed" event, by the winner.
func TestClaimRace(t *testing.T) {
	const sessions = 8
	a := testAssignment(t)
	ctx := context.Background()
	if _, err := a.RequestReview(ctx, NewRequest{ChangedFiles: []string{"src/a.go"}}); err != nil {
		t.Fatal(err)
	}
	errs := make([]error, sessions)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range sessions {
		st, err := Open(a.store.Dir)
		if err != nil {
			t.Fatal(err)
		}
		mine, err := st.Assignment(a.Name)
		if err != nil {
			t.Fatal(err)
		}
		wg.Go(func() {
			<-start
			_, errs[i] = mine.Claim(ctx, ClaimOptions{Session: fmt.Sprintf("rv-%d", i)})
		})
	}
	close(start)
	wg.Wait()

	winner := ""
	for i, err := range errs {
		switch {
		case err == nil && winner == "":
			winner = fmt.Sprintf("rv-%d", i)
		case err == nil:
			t.Errorf("rv-%d won too, after %s", i, winner)
		case !errors.Is(err, ErrBusy) && !errors.Is(err, protocol.ErrConflict):
			t.Errorf("rv-%d: %v (%T), want busy or conflict", i, err, err)
		}
	}
	if winner == "" {
		t.Fatalf("nobody won: %v", errs)
	}
	snap, err := a.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	if snap.Request.Status != protocol.StatusInProgress || snap.Progress.SessionID != winner {
		t.Errorf("status %s held by %s, want in_progress held by %s", snap.Request.Status, snap.Progress.SessionID, winner)
	}
	events, _, err := a.History()
	if err != nil {
		t.Fatal(err)
	}
	var claims []string
	for _, e := range events {
		if e.Event == protocol.EventClaimed {
			claims = append(claims, e.Session)
		}
	}
	if len(claims) != 1 || claims[0] != winner {
		t.Errorf("claimed events by %v, want one by %s", claims, winner)
	}
}
