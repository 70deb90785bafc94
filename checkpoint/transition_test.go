package checkpoint

import (
	"context"
	"errors"
	"maps"
	"testing"

	"github.com/specdev/specdev/protocol"
)

// TestCommitRefusesIllegalTransition: a status change that the state
// machine's table does not allow is refused where the transaction commits,
// whichever code made it, and nothing is written.
func TestCommitRefusesIllegalTransition(t *testing.T) {
	tests := []struct {
		name     string
		from, to protocol.Status
	}{
		{"pending straight to passed", protocol.StatusPending, protocol.StatusPassed},
		{"pending to failed", protocol.StatusPending, protocol.StatusFailed},
		{"pending to awaiting approval", protocol.StatusPending, protocol.StatusAwaitingApproval},
		{"pending to blocked", protocol.StatusPending, protocol.StatusBlocked},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := testAssignment(t)
			ctx := context.Background()
			if _, err := a.RequestReview(ctx, NewRequest{ChangedFiles: []string{"a.go"}}); err != nil {
				t.Fatal(err)
			}
			before := dirFiles(t, a.Dir)
			err := a.Update(ctx, func(tx *Tx) error {
				if tx.Request.Status != tt.from {
					t.Fatalf("status %s, want %s", tx.Request.Status, tt.from)
				}
				tx.Request.Status = tt.to
				tx.Log(protocol.EventPassed, "", nil)
				return nil
			})
			var terr *protocol.TransitionError
			if !errors.As(err, &terr) || !errors.Is(err, protocol.ErrConflict) {
				t.Fatalf("Update: %v, want a *protocol.TransitionError", err)
			}
			after := dirFiles(t, a.Dir)
			delete(before, LockFile)
			delete(after, LockFile)
			if !maps.Equal(before, after) {
				t.Errorf("the refused transaction changed files")
			}
		})
	}
}
