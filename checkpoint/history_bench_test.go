package checkpoint

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/specdev/specdev/protocol"
)

// BenchmarkHistory reads the end of a history of 10,000 events (history
// -n 20), with and without a filter that only early events pass, against
// reading all of it.
func BenchmarkHistory(b *testing.B) {
	a := testAssignment(b)
	var lines strings.Builder
	for i := range 10000 {
		name := protocol.EventFileReviewed
		if i%1000 == 0 {
			name = protocol.EventClaimed
		}
		data, err := json.Marshal(protocol.Event{TS: protocol.At(time.Date(2026, 2, 11, 10, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Second)),
			Event: name, RequestID: "rq-1", Round: 1, Session: "rv-1", Detail: map[string]any{"file": fmt.Sprintf("src/f%d.go", i), "findings": 1}})
		if err != nil {
			b.Fatal(err)
		}
		lines.Write(data)
		lines.WriteByte('\n')
	}
	if err := os.WriteFile(a.path(protocol.HistoryFile), []byte(lines.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	claimed := func(e protocol.Event) bool { return e.Event == protocol.EventClaimed }
	b.Run("last=20", func(b *testing.B) {
		for b.Loop() {
			if _, err := a.HistoryLast(20, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("last=5/claimed", func(b *testing.B) {
		for b.Loop() {
			if _, err := a.HistoryLast(5, claimed); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("all", func(b *testing.B) {
		for b.Loop() {
			if _, _, err := a.History(); err != nil {
				b.Fatal(err)
			}
		}
	})
}
