package checkpoint

import (
	"context"
	"maps"
	"testing"

	"github.com/specdev/specdev/protocol"
)

// A checkpoint review is no round: whatever its verdict, by the reviewer
// or a human, the gate's loop, its last reviewed commit and its pass
// record stay as they were, and the next real request opens the round it
// would have opened without it.
func TestCheckpointReviewIsNoRound(t *testing.T) {
	tests := []struct {
		name      string
		openLoop  bool // a real round failed before the checkpoint review
		pass      bool
		manual    bool // the reviewer proposes, a human decides
		wantRound int
	}{
		{"failed, no loop", false, false, false, 1},
		{"passed, no loop", false, true, false, 1},
		{"failed in an open loop", true, false, false, 2},
		{"passed in an open loop", true, true, false, 2},
		{"rejected by a human in an open loop", true, false, true, 2},
		{"approved by a human in an open loop", true, true, true, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := testAssignment(t)
			ctx := context.Background()
			review := func(checkpoint, pass, manual bool, head string) *protocol.Request {
				t.Helper()
				mode := protocol.ModeAuto
				if manual {
					mode = protocol.ModeManual
				}
				in := NewRequest{ChangedFiles: []string{"a.go"}, HeadCommit: head, Checkpoint: checkpoint}
				if checkpoint {
					in.Mode = mode // a manual implementer too: a checkpoint review never pauses it
				}
				if _, err := a.RequestReview(ctx, in); err != nil {
					t.Fatal(err)
				}
				c, err := a.Claim(ctx, ClaimOptions{Session: "rv-1", Mode: mode})
				if err != nil {
					t.Fatal(err)
				}
				h := Holder{"rv-1", c.Lease}
				if _, err := a.Record(ctx, h, FileRecord{File: "a.go"}); err != nil {
					t.Fatal(err)
				}
				if _, err := a.GiveVerdict(ctx, h, protocol.Verdict{Passed: pass, Summary: "s"}); err != nil {
					t.Fatal(err)
				}
				if manual {
					if _, err := a.Decide(ctx, pass, "n"); err != nil {
						t.Fatal(err)
					}
				}
				snap, err := a.Snapshot()
				if err != nil {
					t.Fatal(err)
				}
				return snap.Request
			}
			if tt.openLoop {
				review(false, false, false, "h-real")
			}
			var loops map[string]protocol.Loop
			if before, _ := a.Snapshot(); before.Request != nil {
				loops = before.Request.Loops
			}
			r := review(true, tt.pass, tt.manual, "h-checkpoint")
			switch {
			case !maps.Equal(r.Loops, loops):
				t.Errorf("loops after the checkpoint review = %v, want %v", r.Loops, loops)
			case len(r.Passed) != 0:
				t.Errorf("the checkpoint review left a pass record: %v", r.Passed)
			case r.LastReviewedCommit == "h-checkpoint":
				t.Errorf("the checkpoint review became the last reviewed commit")
			case Paused(r):
				t.Errorf("a rejected checkpoint review paused the implementer")
			}
			next, err := a.RequestReview(ctx, NewRequest{ChangedFiles: []string{"a.go"}})
			if err != nil {
				t.Fatal(err)
			}
			if next.Round != tt.wantRound {
				t.Errorf("the next real request is round %d, want %d", next.Round, tt.wantRound)
			}
		})
	}
}
