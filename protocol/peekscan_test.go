package protocol

import (
	"strings"
	"testing"
)

// TestPeekReadsExactKeys: a peek reads the wanted top-level fields,
// skims the rest (nested objects, arrays, strings with escapes and
// brackets), matches keys exactly, and refuses broken structure and a
// wanted key given twice.
func TestPeekReadsExactKeys(t *testing.T) {
	tests := []struct {
		name, doc string
		want      RequestPeek
		err       string
	}{
		{"plain", `{"version":1,"status":"pending","round":2,"gate":"review"}`,
			RequestPeek{Version: 1, Status: StatusPending, Round: 2, Gate: "review"}, ""},
		{"skims what it does not want", `{"journal":{"events":[{"x":"a\"}]{["}]},"status":"failed","notes":"}\\\"{","checkpoint":true}`,
			RequestPeek{Status: StatusFailed, Round: 1, Checkpoint: true}, ""},
		{"case-folded keys are other keys", `{"STATUS":"passed","ſtatus":"passed","status":"pending"}`,
			RequestPeek{Status: StatusPending, Round: 1}, ""},
		{"a wanted key twice", `{"status":"pending","status":"passed"}`, RequestPeek{}, "given twice"},
		{"escaped key", `{"st\u0061tus":"pending"}`, RequestPeek{Status: StatusPending, Round: 1}, ""},
		{"not an object", `[1]`, RequestPeek{}, "not a JSON object"},
		{"cut off", `{"status":"pend`, RequestPeek{}, "not closed"},
		{"trailing value", `{"status":"pending"} {}`, RequestPeek{}, "more than one"},
		{"wrong type", `{"status":"pending","round":"two"}`, RequestPeek{}, "not an integer"},
		{"unknown status", `{"status":"done"}`, RequestPeek{}, "not a known status"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := PeekRequest("review_request.json", []byte(tt.doc))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err %v, want one saying %q", err, tt.err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("got %+v, %v; want %+v", got, err, tt.want)
			}
		})
	}
}

// FuzzPeekRequest: a peek never panics, whatever the bytes.
func FuzzPeekRequest(f *testing.F) {
	f.Add([]byte(`{"version":1,"status":"pending","journal":{"events":[]}}`))
	f.Add([]byte(`{"a":[{"b":"]}"}],"status":"failed"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		PeekRequest("r", data)
		PeekProgress("p", data)
	})
}
