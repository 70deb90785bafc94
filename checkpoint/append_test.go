package checkpoint

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/specdev/specdev/protocol"
)

// TestHistoryAppendFailureSaysWhatLanded: when the history cannot be
// appended after the state files landed, the transaction succeeds (its
// state is there: a retry would be refused), a warning says what landed,
// and the journal gives the events to the next transaction.
func TestHistoryAppendFailureSaysWhatLanded(t *testing.T) {
	a := testAssignment(t)
	ctx := context.Background()
	var warnings []string
	a.store.Warnf = func(format string, args ...any) { warnings = append(warnings, fmt.Sprintf(format, args...)) }
	if _, err := a.RequestReview(ctx, NewRequest{ChangedFiles: []string{"a.go", "b.go"}}); err != nil {
		t.Fatal(err)
	}
	c, err := a.Claim(ctx, ClaimOptions{Session: "rv-1"})
	if err != nil {
		t.Fatal(err)
	}
	history := a.path(protocol.HistoryFile)
	err = a.Update(ctx, func(tx *Tx) error {
		// the history becomes unwritable after the checks at the start
		if err := os.Rename(history, history+".saved"); err != nil {
			t.Fatal(err)
		}
		if err := os.Mkdir(history, 0o755); err != nil {
			t.Fatal(err)
		}
		tx.Progress.FilesReviewed = []string{"a.go"}
		tx.Progress.FilesRemaining = []string{"b.go"}
		tx.Log(protocol.EventFileReviewed, "rv-1", map[string]any{"file": "a.go"})
		return nil
	})
	if err != nil {
		t.Fatalf("Update with a failing history append: %v, want nil (the state landed)", err)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "the change (file_reviewed) landed, but its history events could not be appended yet") {
		t.Fatalf("warnings %q", warnings)
	}
	snap, err := a.Snapshot()
	if err != nil || len(snap.Progress.FilesReviewed) != 1 {
		t.Fatalf("the state did not land: %v %v", snap.Progress, err)
	}
	if err := os.Remove(history); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(history+".saved", history); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Record(ctx, Holder{"rv-1", c.Lease}, FileRecord{File: "b.go"}); err != nil {
		t.Fatal(err)
	}
	events, _, err := a.History()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range events {
		names = append(names, string(e.Event))
	}
	if got, want := strings.Join(names, " "), "requested claimed file_reviewed file_reviewed"; got != want {
		t.Fatalf("history %q, want %q", got, want)
	}
}
