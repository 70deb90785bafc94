package checkpoint

import (
	"context"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/specdev/specdev/protocol"
)

// A pass, by the reviewer's verdict or by a human's approval, records the
// reviewed request for its gate; a rejection records nothing; a later
// request (for another gate too) keeps the records; every write validates.
func TestPassRecords(t *testing.T) {
	a := testAssignment(t)
	ctx := context.Background()
	clock := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	a.store.Now = func() time.Time { return clock }
	dA, dB := strings.Repeat("a", 64), strings.Repeat("b", 64)
	base := strings.Repeat("1", 40)

	content := dA
	review := func(gate string, mode protocol.Mode, files ...string) {
		t.Helper()
		digests := map[string]string{}
		for _, f := range files {
			digests[f] = content
		}
		_, err := a.RequestReview(ctx, NewRequest{Gate: gate, ChangedFiles: files, HeadCommit: "h-" + gate,
			Fingerprint: "sha256:" + dB, Coverage: Coverage{BaseCommit: base, Staged: gate == "staged", FileDigests: digests,
				CarriedDigests: map[string]string{"carried.go": dB}}})
		if err != nil {
			t.Fatal(err)
		}
		c, err := a.Claim(ctx, ClaimOptions{Session: "rv-1", Mode: mode})
		if err != nil {
			t.Fatal(err)
		}
		h := Holder{"rv-1", c.Lease}
		for _, f := range files {
			if _, err := a.Record(ctx, h, FileRecord{File: f}); err != nil {
				t.Fatal(err)
			}
		}
		clock = clock.Add(time.Minute)
		if _, err := a.GiveVerdict(ctx, h, protocol.Verdict{Passed: true}); err != nil {
			t.Fatal(err)
		}
	}
	validRequest := func() *protocol.Request {
		t.Helper()
		data, err := os.ReadFile(a.path(protocol.RequestFile))
		if err != nil {
			t.Fatal(err)
		}
		r, err := protocol.DecodeRequest(protocol.RequestFile, data)
		if err != nil {
			t.Fatalf("the request fails full validation: %v", err)
		}
		return r
	}

	review("review", protocol.ModeAuto, "a.go", "b.go")
	r := validRequest()
	rec, ok := r.Passed["review"]
	if !ok || len(r.Passed) != 1 {
		t.Fatalf("after an auto pass: records %v", r.Passed)
	}
	want := map[string]string{"a.go": dA, "b.go": dA, "carried.go": dB}
	if rec.RequestID != r.RequestID || rec.Round != 1 || rec.HeadCommit != "h-review" || rec.BaseCommit != base ||
		!slices.Equal(rec.Files, []string{"a.go", "b.go"}) || !maps.Equal(rec.FileDigests, want) ||
		rec.Fingerprint != r.Fingerprint || rec.Staged || !rec.CompletedAt.Equal(clock) {
		t.Errorf("record: got %+v", rec)
	}

	// another gate, decided by a human: rejected first, then approved
	review("staged", protocol.ModeManual, "c.go")
	if _, err := a.Decide(ctx, false, "no"); err != nil {
		t.Fatal(err)
	}
	if r := validRequest(); len(r.Passed) != 1 || r.Passed["review"].RequestID != rec.RequestID {
		t.Fatalf("after a rejection: records %v, want the review gate's only", r.Passed)
	}
	content = dB // the fix: the same content would not be reviewed again
	review("staged", protocol.ModeManual, "c.go")
	clock = clock.Add(time.Minute)
	if _, err := a.Decide(ctx, true, "ok"); err != nil {
		t.Fatal(err)
	}
	r = validRequest()
	staged, ok := r.Passed["staged"]
	if !ok || !staged.Staged || staged.Round != 2 || !slices.Equal(staged.Files, []string{"c.go"}) || !staged.CompletedAt.Equal(clock) {
		t.Errorf("after an approval: staged record %+v", staged)
	}
	if r.Passed["review"].RequestID != rec.RequestID {
		t.Errorf("the review gate's record was lost: %v", r.Passed)
	}

	// a new request keeps both until its own gate passes
	if _, err := a.RequestReview(ctx, NewRequest{Gate: "review", ChangedFiles: []string{"d.go"}}); err != nil {
		t.Fatal(err)
	}
	if r := validRequest(); len(r.Passed) != 2 || r.Status != protocol.StatusPending {
		t.Errorf("new request: records %v", r.Passed)
	}
}
