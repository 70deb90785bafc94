package checkpoint

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/specdev/specdev/protocol"
)

// Every file a transaction writes must pass the decoder and Validate when
// read back: a file specdev wrote and then refuses would stop the loop.
// It walks one review loop through every transaction.
func TestEveryWriteValidatesInFull(t *testing.T) {
	a := testAssignment(t)
	ctx := context.Background()
	clock := time.Date(2026, 2, 11, 10, 0, 0, 0, time.UTC)
	a.store.Now = func() time.Time { return clock }
	yes := true
	leases := map[string]string{}
	claim := func(opt ClaimOptions) error {
		c, err := a.Claim(ctx, opt)
		if err == nil {
			leases[opt.Session] = c.Lease
		}
		return err
	}
	h := func(session string) Holder { return Holder{session, leases[session]} }
	steps := []struct {
		name string
		do   func() error
	}{
		{"request", func() error {
			_, err := a.RequestReview(ctx, NewRequest{ChangedFiles: []string{"a.go", "b.go"}, Notes: "n", HeadCommit: "abc", Fingerprint: "sha256:" + digest([]byte{})})
			return err
		}},
		{"claim", func() error { return claim(ClaimOptions{Session: "rv-1", Preflight: true}) }},
		{"preflight", func() error {
			_, err := a.PreflightDone(ctx, h("rv-1"), protocol.PreflightResult{Command: []string{"gate"}, Passed: true, Output: "ok\n", At: protocol.At(clock)})
			return err
		}},
		{"record", func() error {
			_, err := a.Record(ctx, h("rv-1"), FileRecord{File: "a.go", Findings: []protocol.Finding{{Severity: protocol.SeverityImportant, Description: "d", Line: 3, Suggestion: "s", Category: "c"}}})
			return err
		}},
		{"takeover", func() error {
			clock = clock.Add(time.Hour)
			return claim(ClaimOptions{Session: "rv-2"})
		}},
		{"release", func() error { _, err := a.Release(ctx, h("rv-2"), ""); return err }},
		{"resume", func() error {
			return claim(ClaimOptions{Session: "rv-3", Mode: protocol.ModeManual})
		}},
		{"record rest", func() error { _, err := a.Record(ctx, h("rv-3"), FileRecord{File: "b.go"}); return err }},
		{"propose", func() error {
			_, err := a.GiveVerdict(ctx, h("rv-3"), protocol.Verdict{Summary: "fix", IntentSatisfied: &yes, InterpretedIntent: "i",
				Issues: []protocol.Finding{{Severity: protocol.SeverityMinor, Description: "general"}}})
			return err
		}},
		{"reject", func() error { _, err := a.Decide(ctx, false, "agree"); return err }},
		{"round 2", func() error { _, err := a.RequestReview(ctx, NewRequest{ChangedFiles: []string{"a.go"}}); return err }},
		{"claim round 2", func() error { return claim(ClaimOptions{Session: "rv-3"}) }},
		{"record round 2", func() error { _, err := a.Record(ctx, h("rv-3"), FileRecord{File: "a.go"}); return err }},
		{"pass", func() error { _, err := a.GiveVerdict(ctx, h("rv-3"), protocol.Verdict{Passed: true}); return err }},
		{"new loop", func() error { _, err := a.RequestReview(ctx, NewRequest{ChangedFiles: []string{"c.go"}}); return err }},
		{"cancel", func() error { _, err := a.Cancel(ctx); return err }},
	}
	for _, step := range steps {
		if err := step.do(); err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		for _, name := range []string{protocol.RequestFile, protocol.ProgressFile} {
			data, err := os.ReadFile(a.path(name))
			if os.IsNotExist(err) {
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			decode := func() error {
				r, err := protocol.DecodeRequest(name, data)
				if err == nil {
					err = r.Validate() // what was read can be written back
				}
				return err
			}
			if name == protocol.ProgressFile {
				decode = func() error {
					p, err := protocol.DecodeProgress(name, data)
					if err == nil {
						err = p.Validate()
					}
					return err
				}
			}
			if err := decode(); err != nil {
				t.Fatalf("after %s, %s fails full validation: %v", step.name, name, err)
			}
		}
	}
	snap, err := a.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	if snap.Request.Status != protocol.StatusCancelled || snap.Request.Round != 1 {
		t.Fatalf("got %s round %d, want cancelled round 1", snap.Request.Status, snap.Request.Round)
	}
	events, torn, err := a.History()
	if err != nil || torn {
		t.Fatalf("history: %v torn=%v", err, torn)
	}
	var names []string
	for _, e := range events {
		names = append(names, string(e.Event))
	}
	want := "requested claimed preflight file_reviewed takeover released claimed file_reviewed verdict_proposed rejected requested resume_fallback claimed file_reviewed passed requested cancelled"
	if got := strings.Join(names, " "); got != want {
		t.Fatalf("events:\n got %s\nwant %s", got, want)
	}
}
