package checkpoint

import (
	"bytes"
	"context"
	"os"
	"testing"
	"time"

	"github.com/specdev/specdev/protocol"
)

// A transaction writes the progress only if it changed, and then with the
// transaction's events in its journal (the request is not written): the
// same whether last_activity moved (encoded once, journal included) or
// not (encoded as it stands, compared, and encoded again with the
// journal). Events without a change go to the history alone.
func TestCommitWritesProgressOnlyIfChanged(t *testing.T) {
	tests := []struct {
		name    string
		change  func(tx *Tx)
		written bool
	}{
		{"last_activity moves", func(tx *Tx) { tx.Progress.LastActivity = protocol.At(tx.Now.Add(time.Minute)) }, true},
		{"a change without activity", func(tx *Tx) { tx.Progress.Mode = protocol.ModeManual }, true},
		{"last_activity moves less than a millisecond", func(tx *Tx) {
			tx.Progress.LastActivity = protocol.At(tx.Progress.LastActivity.Truncate(time.Millisecond).Add(time.Microsecond))
		}, false},
		{"events only", func(*Tx) {}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := testAssignment(t)
			requestAndClaim(t, a, protocol.ModeAuto)
			before := fileBytes(t, a, protocol.ProgressFile)
			request := fileBytes(t, a, protocol.RequestFile)
			err := a.Update(context.Background(), func(tx *Tx) error {
				tt.change(tx)
				tx.Log(protocol.EventFileReviewed, "rv-1", map[string]any{"file": "a.go", "findings": 0})
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			after := fileBytes(t, a, protocol.ProgressFile)
			if written := !bytes.Equal(after, before); written != tt.written {
				t.Fatalf("progress written: %v, want %v", written, tt.written)
			}
			if !bytes.Equal(fileBytes(t, a, protocol.RequestFile), request) {
				t.Error("the request was written, but nothing changed it")
			}
			p, err := protocol.DecodeProgress(protocol.ProgressFile, after)
			if err != nil {
				t.Fatal(err)
			}
			events, _, err := a.History()
			if err != nil || len(events) == 0 || events[len(events)-1].Event != protocol.EventFileReviewed {
				t.Fatalf("the event is not the history's last: %v, %v", events, err)
			}
			if tt.written && (p.Journal == nil || len(p.Journal.Events) != 1 || p.Journal.Events[0].Seq != events[len(events)-1].Seq) {
				t.Errorf("the progress's journal is %+v, want the transaction's event", p.Journal)
			}
		})
	}
}

func fileBytes(t *testing.T, a *Assignment, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(a.path(name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}
