package protocol

import (
	"encoding/json"
	"errors"
	"os"
	"testing"
)

// Every decoder either returns a value or an *InvalidError; it never
// panics, and what it accepts survives a round trip.
func FuzzDecodeRequest(f *testing.F) {
	f.Add(readFixtureF(f, "seed_request.json"))
	f.Add([]byte(`{"version":1,"status":"failed","changed_files":["a"],"round":2,"x":1}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := DecodeRequest("review_request.json", data)
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("error %v is not ErrInvalid", err)
			}
			return
		}
		if err := r.Validate(); err != nil { // or a transaction could not write back what it read
			t.Fatalf("accepted %s, but Validate refuses it: %v", data, err)
		}
		out, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := DecodeRequest("review_request.json", out); err != nil {
			t.Fatalf("re-decoding %s: %v", out, err)
		}
	})
}

func FuzzDecodeProgress(f *testing.F) {
	f.Add(readFixtureF(f, "seed_progress.json"))
	f.Add([]byte(`{"phase":"reviewing","mode":"manual","files_total":2,"files_reviewed":["a.go"],"files_remaining":["b.go"],"findings_so_far":1,` +
		`"findings":[{"file":"a.go","line":3,"severity":"minor","description":"d"}],"takeovers":[{"from":"a","to":"b","at":""}],` +
		`"preflight":{"passed":true,"command":["g"]},"previous_rounds":[{"round":1,"status":"failed","files_reviewed":["a.go"],"files_total":1}],"x":[1]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := DecodeProgress("review_progress.json", data)
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("error %v is not ErrInvalid", err)
			}
			return
		}
		if err := p.Validate(); err != nil {
			t.Fatalf("accepted %s, but Validate refuses it: %v", data, err)
		}
		out, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := DecodeProgress("review_progress.json", out); err != nil {
			t.Fatalf("re-decoding %s: %v", out, err)
		}
	})
}

func FuzzDecodeVerdict(f *testing.F) {
	f.Add([]byte(`{"passed":false,"summary":"s","issues":[{"file":"a.go","line":3,"severity":"minor","description":"d"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := DecodeVerdict("verdict.json", data)
		if err != nil && !errors.Is(err, ErrInvalid) {
			t.Fatalf("error %v is not ErrInvalid", err)
		}
		if err == nil {
			if err := v.Validate(); err != nil {
				t.Fatalf("accepted %s, but Validate refuses it: %v", data, err)
			}
		}
	})
}

func FuzzParseFindingFlag(f *testing.F) {
	f.Add("important: x")
	f.Fuzz(func(t *testing.T, s string) {
		if fd, err := ParseFindingFlag(s); err == nil && (fd.Description == "" || fd.Severity == "") {
			t.Fatalf("accepted %q as %+v", s, fd)
		}
	})
}

func readFixtureF(f *testing.F, name string) []byte {
	f.Helper()
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		f.Fatal(err)
	}
	return data
}
