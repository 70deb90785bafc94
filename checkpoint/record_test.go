package checkpoint

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/specdev/specdev/protocol"
)

// Recording a file again says what it replaced; Add keeps the
// earlier findings and leaves out ones already there.
func TestRecordSaysWhatItReplaced(t *testing.T) {
	important := protocol.Finding{Severity: protocol.SeverityImportant, Description: "kept in memory", Line: 4}
	minor := protocol.Finding{Severity: protocol.SeverityMinor, Description: "naming"}
	critical := protocol.Finding{Severity: protocol.SeverityCritical, Description: "no lock"}
	inFile := func(fs ...protocol.Finding) []protocol.Finding {
		out := []protocol.Finding{}
		for _, f := range fs {
			f.File = "a.go"
			out = append(out, f)
		}
		return out
	}
	type step struct {
		add      bool
		findings []protocol.Finding
		again    bool
		replaced []protocol.Finding
		skipped  int
		after    []protocol.Finding // the file's findings afterwards
	}
	tests := []struct {
		name  string
		steps []step
	}{
		{"first record replaces nothing", []step{
			{findings: []protocol.Finding{important}, replaced: inFile(), after: inFile(important)},
		}},
		{"a re-record replaces and says what", []step{
			{findings: []protocol.Finding{important, minor}, replaced: inFile(), after: inFile(important, minor)},
			{findings: []protocol.Finding{critical}, again: true, replaced: inFile(important, minor), after: inFile(critical)},
		}},
		{"add keeps the earlier findings", []step{
			{findings: []protocol.Finding{important}, replaced: inFile(), after: inFile(important)},
			{add: true, findings: []protocol.Finding{minor}, again: true, after: inFile(important, minor)},
		}},
		{"an add retried adds nothing twice", []step{
			{findings: []protocol.Finding{important}, replaced: inFile(), after: inFile(important)},
			{add: true, findings: []protocol.Finding{minor, important}, again: true, skipped: 1, after: inFile(important, minor)},
			{add: true, findings: []protocol.Finding{minor}, again: true, skipped: 1, after: inFile(important, minor)},
		}},
		{"add on a new file is a record", []step{
			{add: true, findings: []protocol.Finding{minor}, after: inFile(minor)},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := testAssignment(t)
			ctx := context.Background()
			if _, err := a.RequestReview(ctx, NewRequest{ChangedFiles: []string{"a.go", "b.go"}}); err != nil {
				t.Fatal(err)
			}
			if _, err := a.Claim(ctx, ClaimOptions{Session: "rv-1"}); err != nil {
				t.Fatal(err)
			}
			for i, s := range tt.steps {
				rec, err := a.Record(ctx, holderOf(a), FileRecord{File: "a.go", Findings: s.findings, Add: s.add})
				if err != nil {
					t.Fatalf("step %d: %v", i, err)
				}
				if rec.Again != s.again || rec.Skipped != s.skipped {
					t.Errorf("step %d: again %v, skipped %d; want %v, %d", i, rec.Again, rec.Skipped, s.again, s.skipped)
				}
				if !slices.Equal(rec.Replaced, s.replaced) {
					t.Errorf("step %d: replaced %v, want %v", i, rec.Replaced, s.replaced)
				}
				var got []protocol.Finding
				for _, f := range rec.Progress.Findings {
					if f.File == "a.go" {
						got = append(got, f)
					}
				}
				if !slices.Equal(got, s.after) || rec.Progress.FindingsSoFar != len(s.after) {
					t.Errorf("step %d: findings %v (so far %d), want %v", i, got, rec.Progress.FindingsSoFar, s.after)
				}
				if !slices.Equal(rec.Progress.FilesReviewed, []string{"a.go"}) {
					t.Errorf("step %d: files reviewed %v, want [a.go] once", i, rec.Progress.FilesReviewed)
				}
			}
		})
	}
}

// A record takes what HeldBy decoded only for the very bytes it decoded:
// a progress rewritten in between (here, by a takeover) is read again, so
// the displaced session is refused, and one left as it was is taken as
// HeldBy read it.
func TestRecordReadsAgainWhatChangedSinceHeldBy(t *testing.T) {
	a := testAssignment(t)
	ctx := context.Background()
	if _, err := a.RequestReview(ctx, NewRequest{ChangedFiles: []string{"a.go", "b.go"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Claim(ctx, ClaimOptions{Session: "rv-1"}); err != nil {
		t.Fatal(err)
	}
	h := holderOf(a)
	held, err := a.store.HeldBy("rv-1", "")
	if err != nil || held.read == nil || held.read.Progress == nil {
		t.Fatalf("HeldBy = %v, %v: want the review with what it read", held, err)
	}
	if _, err := held.Record(ctx, h, FileRecord{File: "a.go"}); err != nil {
		t.Fatalf("record with nothing changed: %v", err)
	}

	held, err = a.store.HeldBy("rv-1", "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Claim(ctx, ClaimOptions{Session: "rv-2", Force: true}); err != nil {
		t.Fatal(err)
	}
	_, err = held.Record(ctx, h, FileRecord{File: "b.go"})
	if !errors.Is(err, protocol.ErrConflict) || !strings.Contains(fmt.Sprint(err), "session rv-1 no longer holds review 00001_test: taken over by rv-2 at ") {
		t.Fatalf("record after a takeover = %v, want a conflict naming who took it over", err)
	}
}
