package protocol

import (
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"
)

const (
	digestA = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	digestB = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
	digestC = "cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc"
)

func TestPassRecordCompare(t *testing.T) {
	rec := PassRecord{FileDigests: map[string]string{"a.go": digestA, "b.go": digestB, "gone.go": DigestDeleted}}
	tests := []struct {
		name                   string
		now                    map[string]string
		wantChanged, wantUnrev []string
	}{
		{"all as reviewed", map[string]string{"a.go": digestA, "gone.go": DigestDeleted}, nil, nil},
		{"changed content", map[string]string{"a.go": digestC, "b.go": digestB}, []string{"a.go"}, nil},
		{"deleted since", map[string]string{"b.go": DigestDeleted}, []string{"b.go"}, nil},
		{"not reviewed", map[string]string{"z.go": digestA, "new.go": digestB, "a.go": digestA}, nil, []string{"new.go", "z.go"}},
		{"both", map[string]string{"a.go": digestB, "c.go": digestC}, []string{"a.go"}, []string{"c.go"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			changed, unrev := rec.Compare(tt.now)
			if !slices.Equal(changed, tt.wantChanged) || !slices.Equal(unrev, tt.wantUnrev) {
				t.Errorf("got changed %q, not reviewed %q; want %q, %q", changed, unrev, tt.wantChanged, tt.wantUnrev)
			}
		})
	}
}

func TestRequestPassRecord(t *testing.T) {
	at := At(time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC))
	r := &Request{RequestID: "rq-1", Round: 2, HeadCommit: "h", BaseCommit: "b", Fingerprint: "sha256:x", Staged: true,
		ChangedFiles:   []string{"a.go"},
		FileDigests:    map[string]string{"a.go": digestA},
		CarriedDigests: map[string]string{"a.go": digestC, "old.go": digestB},
	}
	rec := r.PassRecord(at, nil)
	want := PassRecord{RequestID: "rq-1", Round: 2, HeadCommit: "h", BaseCommit: "b", Fingerprint: "sha256:x", Staged: true,
		Files: []string{"a.go"}, FileDigests: map[string]string{"a.go": digestA, "old.go": digestB}, CompletedAt: at}
	if !slices.Equal(rec.Files, want.Files) || !maps.Equal(rec.FileDigests, want.FileDigests) ||
		rec.RequestID != want.RequestID || rec.Round != want.Round || rec.HeadCommit != want.HeadCommit ||
		rec.BaseCommit != want.BaseCommit || rec.Fingerprint != want.Fingerprint || !rec.Staged || rec.CompletedAt != at {
		t.Errorf("got %+v\nwant %+v", rec, want)
	}
	rec.FileDigests["a.go"] = digestB
	rec.Files[0] = "changed"
	if r.FileDigests["a.go"] != digestA || r.CarriedDigests["a.go"] != digestC || r.ChangedFiles[0] != "a.go" {
		t.Errorf("the record shares maps or slices with the request")
	}
	if (&Request{}).PassRecord(at, nil).FileDigests != nil {
		t.Errorf("a request without digests gave a record with digests")
	}
	// what the round reviewed stands for the request's own digests: a file
	// it named but never reviewed is not vouched for
	r.ChangedFiles = []string{"a.go", "left.go"}
	r.FileDigests["left.go"] = digestB
	rec = r.PassRecord(at, map[string]string{"a.go": digestC})
	if want := map[string]string{"a.go": digestC, "old.go": digestB}; !maps.Equal(rec.FileDigests, want) {
		t.Errorf("with reviewed digests: got %v, want %v", rec.FileDigests, want)
	}
}

func TestRequestCloneCopiesCoverage(t *testing.T) {
	r := &Request{
		FileDigests:    map[string]string{"a.go": digestA},
		CarriedDigests: map[string]string{"b.go": digestB},
		Passed:         map[string]PassRecord{"review": {Files: []string{"a.go"}, FileDigests: map[string]string{"a.go": digestA}}},
	}
	c := r.Clone()
	c.FileDigests["a.go"] = digestC
	c.CarriedDigests["b.go"] = digestC
	c.Passed["review"].FileDigests["a.go"] = digestC
	c.Passed["review"].Files[0] = "x"
	c.Passed["other"] = PassRecord{}
	if r.FileDigests["a.go"] != digestA || r.CarriedDigests["b.go"] != digestB ||
		r.Passed["review"].FileDigests["a.go"] != digestA || r.Passed["review"].Files[0] != "a.go" || len(r.Passed) != 1 {
		t.Errorf("Clone shares coverage with the original: %+v", r)
	}
}

func TestDecodeRequestCoverage(t *testing.T) {
	head := `{"version":1,"status":"passed","changed_files":["a.go"],`
	rec := `{"request_id":"rq-1","round":1,"head_commit":"h","files":["a.go"],"completed_at":"","file_digests":{"a.go":"` + digestA + `"}}`
	tests := []struct {
		name      string
		fields    string
		wantField string // "" for valid
	}{
		{"valid", `"base_commit":"` + strings.Repeat("0", 40) + `","staged":true,"file_digests":{"a.go":"` + digestA + `","b.go":"deleted"},"passed":{"review":` + rec + `}`, ""},
		{"short base commit", `"base_commit":"abc1234"`, "base_commit"},
		{"digest not hex", `"file_digests":{"a.go":"xyz"}`, "file_digests"},
		{"digest path with ..", `"file_digests":{"../a.go":"` + digestA + `"}`, `file_digests["../a.go"]`},
		{"carried path absolute", `"carried_digests":{"/etc/passwd":"` + digestA + `"}`, `carried_digests["/etc/passwd"]`},
		{"gate name", `"passed":{"bad gate":` + rec + `}`, "passed"},
		{"record without files", `"passed":{"review":{"request_id":"r","round":1,"head_commit":"","completed_at":""}}`, "passed"},
		{"record file outside", `"passed":{"review":{"request_id":"r","round":1,"head_commit":"","completed_at":"","files":[".specdev/x"]}}`, "passed.review.files[0]"},
		{"staged not a boolean", `"staged":"yes"`, "staged"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := DecodeRequest("review_request.json", []byte(head+tt.fields+"}"))
			if tt.wantField == "" {
				if err != nil {
					t.Fatalf("DecodeRequest: %v", err)
				}
				if !r.Staged || r.FileDigests["b.go"] != DigestDeleted || r.Passed["review"].FileDigests["a.go"] != digestA {
					t.Errorf("decoded %+v", r)
				}
				return
			}
			var inv *InvalidError
			if !errors.As(err, &inv) {
				t.Fatalf("got %v, want an *InvalidError", err)
			}
			if !strings.HasPrefix(inv.Field, tt.wantField) {
				t.Errorf("field: got %q, want it to start with %q (%v)", inv.Field, tt.wantField, err)
			}
		})
	}
}
