package checkpoint

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/specdev/specdev/protocol"
)

// eventLines are n whole event lines of several kinds and rounds, the
// seventh with a detail long enough to span several of eachLineBack's reads.
func eventLines(t *testing.T, n int) []string {
	t.Helper()
	names := []protocol.EventName{protocol.EventRequested, protocol.EventClaimed, protocol.EventFileReviewed, protocol.EventFailed}
	lines := make([]string, n)
	for i := range lines {
		note := fmt.Sprint("event ", i)
		if i == 6 {
			note = strings.Repeat("long ", 60<<10)
		}
		data, err := json.Marshal(protocol.Event{TS: protocol.At(time.Date(2026, 2, 11, 10, 0, i, 0, time.UTC)),
			Event: names[i%len(names)], RequestID: "rq-1", Round: 1 + i/10, Session: "rv-1", Detail: map[string]any{"note": note}})
		if err != nil {
			t.Fatal(err)
		}
		lines[i] = string(data)
	}
	return lines
}

// HistoryLast gives what History gives, filtered and cut to the last n:
// the same events, the same total, the same torn mark, whatever the
// blank lines, a torn or unended last line, or lines longer than a read.
func TestHistoryLastAsHistory(t *testing.T) {
	lines := eventLines(t, 45)
	whole := strings.Join(lines, "\n") + "\n"
	files := map[string]string{
		"whole":                     whole,
		"blank lines":               "\n" + strings.Join(lines[:20], "\n") + "\n\n  \t\n" + strings.Join(lines[20:], "\n\n") + "\n \n",
		"torn last line":            whole + lines[3][:40],
		"last line without newline": strings.TrimSuffix(whole, "\n"),
		"one line":                  lines[0] + "\n",
		"only a torn line":          lines[0][:30],
		"empty":                     "",
	}
	keeps := map[string]func(protocol.Event) bool{
		"all":     nil,
		"round 2": func(e protocol.Event) bool { return e.Round == 2 },
		"claimed": func(e protocol.Event) bool { return e.Event == protocol.EventClaimed },
		"none":    func(protocol.Event) bool { return false },
	}
	for name, content := range files {
		t.Run(name, func(t *testing.T) {
			a := testAssignment(t)
			writeFiles(t, a.Dir, map[string]string{protocol.HistoryFile: content})
			all, torn, err := a.History()
			if err != nil {
				t.Fatal(err)
			}
			for keepName, keep := range keeps {
				for _, n := range []int{0, 1, 2, 3, 5, 20, 44, 45, 46, 1000} {
					got, err := a.HistoryLast(n, keep)
					if err != nil {
						t.Fatalf("%s, n %d: %v", keepName, n, err)
					}
					want := HistoryPart{Events: []protocol.Event{}, Total: len(all), Torn: torn}
					for _, e := range all {
						if keep == nil || keep(e) {
							want.Events = append(want.Events, e)
						}
					}
					if n > 0 && len(want.Events) > n {
						want.Events = want.Events[len(want.Events)-n:]
					}
					if !reflect.DeepEqual(got, want) {
						t.Errorf("%s, n %d: got %d events (total %d, torn %v), want %d (total %d, torn %v)",
							keepName, n, len(got.Events), got.Total, got.Torn, len(want.Events), want.Total, want.Torn)
					}
				}
			}
		})
	}
}

// A missing history is an empty one.
func TestHistoryLastMissing(t *testing.T) {
	a := testAssignment(t)
	got, err := a.HistoryLast(5, nil)
	if err != nil || got.Events == nil || len(got.Events) != 0 || got.Total != 0 || got.Torn {
		t.Errorf("got %+v, %v; want no events, no error", got, err)
	}
}

// A malformed line among those read is an *InvalidError naming its line,
// as History names it; one before them is counted, not read.
func TestHistoryLastMalformedLine(t *testing.T) {
	lines := eventLines(t, 10)
	bad := `{"ts": "2026-02-11T10:30:00Z", "event": "exploded"}`
	withBad := append(append(append([]string{}, lines[:7]...), bad), lines[7:]...)
	a := testAssignment(t)
	writeFiles(t, a.Dir, map[string]string{protocol.HistoryFile: strings.Join(withBad, "\n") + "\n"})

	_, _, wantErr := a.History()
	_, err := a.HistoryLast(5, nil)
	var invalid *protocol.InvalidError
	if !errors.As(err, &invalid) || err.Error() != wantErr.Error() {
		t.Fatalf("HistoryLast(5) = %v; want History's error %v", err, wantErr)
	}
	if want := a.rel(protocol.HistoryFile) + " line 8"; invalid.File != want {
		t.Errorf("the error names %q, want %q", invalid.File, want)
	}

	got, err := a.HistoryLast(3, nil)
	if err != nil || len(got.Events) != 3 || got.Total != 11 {
		t.Errorf("HistoryLast(3) = %d events, total %d, %v; want 3 of 11, no error", len(got.Events), got.Total, err)
	}
}

// eachLineBack gives every line, last first, with its offset.
func TestBackLines(t *testing.T) {
	long := strings.Repeat("x", 300<<10)
	for _, content := range []string{"", "\n", "a", "a\n", "a\nb", "\n\na\n\n", "a\n" + long + "\nb\n", long} {
		path := t.TempDir() + "/f"
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		err = eachLineBack(f, int64(len(content)), func(line []byte, start int64) bool {
			if content[start:start+int64(len(line))] != string(line) {
				t.Errorf("%.20q: line %.20q at %d is not there", content, line, start)
			}
			got = append([]string{string(line)}, got...)
			return true
		})
		if err != nil {
			t.Fatal(err)
		}
		f.Close()
		if want := strings.Split(content, "\n"); !reflect.DeepEqual(got, want) {
			t.Errorf("%.20q: got %d lines, want %d", content, len(got), len(want))
		}
	}
}
