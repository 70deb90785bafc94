package checkpoint

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/specdev/specdev/protocol"
)

// A transaction that would write a value breaking its schema writes
// nothing and names the file and the field: values are validated on
// write by the same rules as on read.
func TestCommitRefusesWhatBreaksTheSchema(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name  string
		setup func(*Assignment) error
		do    func(*Assignment) error
		file  string
		field string
	}{
		{"negative line", claimed, func(a *Assignment) error {
			_, err := a.Record(ctx, holderOf(a), FileRecord{File: "a.go", Findings: []protocol.Finding{{Severity: protocol.SeverityMinor, Description: "x", Line: -5}}})
			return err
		}, "review_progress.json", "findings[0].line"},
		{"huge notes", func(*Assignment) error { return nil }, func(a *Assignment) error {
			_, err := a.RequestReview(ctx, NewRequest{ChangedFiles: []string{"a.go"}, Notes: strings.Repeat("n", 110_000)})
			return err
		}, "review_request.json", "notes"},
		{"huge summary", claimedAndRecorded, func(a *Assignment) error {
			_, err := a.GiveVerdict(ctx, holderOf(a), protocol.Verdict{Passed: true, Summary: strings.Repeat("s", protocol.MaxTextLength+1)})
			return err
		}, "review_request.json", "reviewer_notes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := testAssignment(t)
			if err := tt.setup(a); err != nil {
				t.Fatal(err)
			}
			before := snapshotFiles(t, a)
			err := tt.do(a)
			var inv *protocol.InvalidError
			if !errors.As(err, &inv) || !strings.HasSuffix(inv.File, tt.file) || inv.Field != tt.field {
				t.Fatalf("got %v, want an InvalidError for %s field %s", err, tt.file, tt.field)
			}
			if !strings.Contains(err.Error(), "nothing was changed") {
				t.Errorf("error %q does not say that nothing was changed", err)
			}
			if after := snapshotFiles(t, a); !bytes.Equal(after, before) {
				t.Errorf("files changed:\nbefore %s\nafter  %s", before, after)
			}
		})
	}
}

func claimed(a *Assignment) error {
	ctx := context.Background()
	if _, err := a.RequestReview(ctx, NewRequest{ChangedFiles: []string{"a.go"}}); err != nil {
		return err
	}
	_, err := a.Claim(ctx, ClaimOptions{Session: "rv-1"})
	return err
}

func claimedAndRecorded(a *Assignment) error {
	if err := claimed(a); err != nil {
		return err
	}
	_, err := a.Record(context.Background(), holderOf(a), FileRecord{File: "a.go"})
	return err
}

// snapshotFiles is the content of the state files and the history.
func snapshotFiles(t *testing.T, a *Assignment) []byte {
	t.Helper()
	var all []byte
	for _, name := range []string{protocol.RequestFile, protocol.ProgressFile, protocol.HistoryFile, ReportFile} {
		data, err := os.ReadFile(a.path(name))
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		all = append(append(all, name+":"...), data...)
	}
	return all
}
