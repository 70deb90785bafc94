package checkpoint

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/specdev/specdev/protocol"
)

// historyLine is one whole event line, without its newline.
func historyLine(t *testing.T, name protocol.EventName, session, note string) string {
	t.Helper()
	at := time.Date(2026, 2, 11, 10, 30, 0, 0, time.UTC)
	data, err := json.Marshal(protocol.Event{TS: protocol.At(at), Event: name, RequestID: "rq-1", Round: 1, Session: session,
		Detail: map[string]any{"note": note}})
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// appendOne appends one "released" event through a transaction.
func appendOne(t *testing.T, a *Assignment) {
	t.Helper()
	err := a.Update(context.Background(), func(tx *Tx) error {
		tx.Log(protocol.EventReleased, "rv-next", nil)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestHistoryTornTail: a last line a crash left without its newline is
// tolerated on read (skipped and reported as torn if it is not a whole
// event), and the next append repairs it: cut off if torn, kept with its
// newline if whole.
func TestHistoryTornTail(t *testing.T) {
	good := historyLine(t, protocol.EventClaimed, "rv-1", "")
	whole := historyLine(t, protocol.EventFileReviewed, "rv-1", "café")
	// 200 KB: the repair reads it back in several chunks
	long := historyLine(t, protocol.EventFileReviewed, "rv-1", strings.Repeat("long ", 40<<10))
	// cut inside the two bytes of é
	cutRune := whole[:strings.Index(whole, "é")+1]
	tests := []struct {
		name       string
		file       string
		wantEvents int
		wantTorn   bool
		wantKept   string // the file before the appended line, once repaired
	}{
		{"cut mid-JSON", good + "\n" + whole[:len(whole)/2], 1, true, good + "\n"},
		{"cut inside a UTF-8 character", good + "\n" + cutRune, 1, true, good + "\n"},
		{"cut before the closing brace", good + "\n" + whole[:len(whole)-1], 1, true, good + "\n"},
		{"only a torn line", whole[:10], 0, true, ""},
		{"long line cut", good + "\n" + long[:len(long)-3], 1, true, good + "\n"},
		{"whole event without its newline", good + "\n" + whole, 2, false, good + "\n" + whole + "\n"},
		{"long whole event without its newline", good + "\n" + long, 2, false, good + "\n" + long + "\n"},
		{"whole", good + "\n" + whole + "\n", 2, false, good + "\n" + whole + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := testAssignment(t)
			writeFiles(t, a.Dir, map[string]string{protocol.HistoryFile: tt.file})
			events, torn, err := a.History()
			if err != nil || torn != tt.wantTorn || len(events) != tt.wantEvents {
				t.Fatalf("History() = %d events, torn %v, err %v; want %d events, torn %v", len(events), torn, err, tt.wantEvents, tt.wantTorn)
			}

			appendOne(t, a)
			got := dirFiles(t, a.Dir)[protocol.HistoryFile]
			added, ok := strings.CutPrefix(got, tt.wantKept)
			if !ok || strings.Count(added, "\n") != 1 || !strings.HasSuffix(added, "\n") || !strings.Contains(added, `"event":"released"`) {
				t.Fatalf("after an append the file is\n%s\nwant\n%s<one released line>\n", got, tt.wantKept)
			}
			events, torn, err = a.History()
			if err != nil || torn || len(events) != strings.Count(tt.wantKept, "\n")+1 {
				t.Errorf("History() after the repair = %d events, torn %v, err %v", len(events), torn, err)
			}
		})
	}
}

// TestHistoryMalformedLine: a bad line before the last is not a crash's
// doing: History reports it as an *InvalidError naming the file and line,
// and an append does not drop or rewrite it.
func TestHistoryMalformedLine(t *testing.T) {
	good := historyLine(t, protocol.EventClaimed, "rv-1", "")
	tests := []struct {
		name, bad string
	}{
		{"not JSON", `{"ts": "2026-02-11T10:30:00Z", "event": `},
		{"unknown event", `{"ts": "2026-02-11T10:30:00Z", "event": "exploded"}`},
		{"not UTF-8", "{\"ts\": \"2026-02-11T10:30:00Z\", \"event\": \"claimed\", \"session\": \"\xff\"}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := testAssignment(t)
			file := good + "\n" + tt.bad + "\n" + good + "\n"
			writeFiles(t, a.Dir, map[string]string{protocol.HistoryFile: file})
			events, _, err := a.History()
			var invalid *protocol.InvalidError
			if !errors.As(err, &invalid) || !errors.Is(err, protocol.ErrInvalid) {
				t.Fatalf("History() = %d events, %v (%T); want an *InvalidError", len(events), err, err)
			}
			if want := a.rel(protocol.HistoryFile) + " line 2"; invalid.File != want {
				t.Errorf("InvalidError names %q, want %q: %v", invalid.File, want, err)
			}

			appendOne(t, a)
			data, err := os.ReadFile(a.path(protocol.HistoryFile))
			if err != nil || !strings.HasPrefix(string(data), file) {
				t.Errorf("after an append the file is\n%s\nwant it to start with the lines as they were", data)
			}
		})
	}
}

// TestLastHistorySeq: the sequence number a transaction continues from is
// the last whole event's, whatever a crash left after it.
func TestLastHistorySeq(t *testing.T) {
	line := func(seq int64) string {
		data, err := json.Marshal(protocol.Event{Seq: seq, TS: protocol.At(time.Date(2026, 2, 11, 10, 30, 0, 0, time.UTC)),
			Event: protocol.EventClaimed, RequestID: "rq-1", Round: 1, Session: "rv-1"})
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	tests := []struct {
		name string
		file string
		want int64
	}{
		{"no history", "", 0},
		{"ends with a newline", line(1) + "\n" + line(2) + "\n", 2},
		{"last event without its newline", line(1) + "\n" + line(2), 2},
		{"torn last line", line(1) + "\n" + line(2)[:20], 1},
		{"blank lines at the end", line(3) + "\n\n  \n", 3},
		{"events older than sequence numbers", line(0) + "\n", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := testAssignment(t)
			if tt.file != "" {
				writeFiles(t, a.Dir, map[string]string{protocol.HistoryFile: tt.file})
			}
			if got, err := a.lastHistorySeq(); err != nil || got != tt.want {
				t.Errorf("lastHistorySeq() = %d, %v; want %d", got, err, tt.want)
			}
		})
	}
}
