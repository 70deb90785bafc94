package protocol

import (
	"errors"
	"strings"
	"testing"
)

// Keys decode exactly: a key that equals a field only when case is
// ignored, or a key given twice, is refused at every depth, naming the key
// and the field it resembles. Nesting is bounded.
func TestKeysDecodeExactly(t *testing.T) {
	deep := `{"version":1,"status":"pending","changed_files":[],"x_deep":` + strings.Repeat("[", 9000) + strings.Repeat("]", 9000) + `}`
	tests := []struct {
		name, file, input string
		decode            func(string, []byte) error
		field, problem    string
	}{
		{"long s", "review_request.json", `{"version":1,"status":"in_progress","ſtatus":"passed","changed_files":[]}`, request, "ſtatus", `is not the field "status"`},
		{"capitals", "review_request.json", `{"version":1,"status":"in_progress","STATUS":"passed","changed_files":[]}`, request, "STATUS", `is not the field "status"`},
		{"capital alone", "review_request.json", `{"version":1,"Status":"passed","changed_files":[]}`, request, "Status", `is not the field "status"`},
		{"round in capitals", "review_request.json", `{"version":1,"status":"pending","changed_files":[],"Round":-7}`, request, "Round", `is not the field "round"`},
		{"exact duplicate", "review_request.json", `{"version":1,"status":"pending","status":"passed","changed_files":[]}`, request, "status", "appears twice"},
		{"duplicate unknown key", "review_request.json", `{"version":1,"status":"pending","changed_files":[],"x":1,"x":2}`, request, "x", "appears twice"},
		{"unknown keys differing in case", "review_request.json", `{"version":1,"status":"pending","changed_files":[],"x":1,"X":2}`, request, "x", `repeats the field "X"`},
		{"nested finding", "review_progress.json", `{"phase":"reviewing","files_total":1,"files_reviewed":["a.go"],"files_remaining":[],"findings":[{"severity":"minor","description":"d","LINE":-5}]}`, progress, "findings[0].LINE", `is not the field "line"`},
		{"verdict", "verdict.json", `{"Passed":true}`, verdict, "Passed", `is not the field "passed"`},
		{"verdict issue", "verdict.json", `{"passed":false,"issues":[{"severity":"minor","description":"d","description":"e"}]}`, verdict, "issues[0].description", "appears twice"},
		{"findings file", "findings.json", `[{"Severity":"minor","description":"d"}]`, findings, "[0].Severity", `is not the field "severity"`},
		{"config", "config.json", `{"Stale_After":"1m"}`, config, "Stale_After", `is not the field "stale_after"`},
		{"event", "review_history.jsonl line 1", `{"ts":"2026-02-11T10:30:00Z","event":"passed","ROUND":-7}`, event, "ROUND", `is not the field "round"`},
		{"duplicate inside a kept unknown field", "review_request.json", `{"version":1,"status":"pending","changed_files":[],"x":{"k":[{"a":1,"a":2}]}}`, request, "x.k[0].a", "appears twice"},
		{"duplicate gate of a map", "review_request.json", `{"version":1,"status":"pending","changed_files":[],"loops":{"review":{"rounds_failed":1,"max_rounds":3},"review":{"rounds_failed":1,"max_rounds":3}}}`, request, "loops.review", "appears twice"},
		{"duplicate digest", "review_request.json", `{"version":1,"status":"pending","changed_files":[],"file_digests":{"a.go":"deleted","a.go":"deleted"}}`, request, "file_digests.a.go", "appears twice"},
		{"event detail duplicate", "review_history.jsonl line 1", `{"ts":"2026-02-11T10:30:00Z","event":"passed","detail":{"a":1,"a":2}}`, event, "detail.a", "appears twice"},
		{"deep nesting", "review_request.json", deep, request, "x_deep", "nests deeper than 32 levels"},
		{"deep unknown field", "verdict.json", `{"passed":true,"x":` + strings.Repeat("[", 40) + strings.Repeat("]", 40) + `}`, verdict, "x", "nests deeper"},
		{"deep detail", "review_history.jsonl line 1", `{"ts":"2026-02-11T10:30:00Z","event":"passed","detail":{"a":` + strings.Repeat("[", 40) + strings.Repeat("]", 40) + `}}`, event, "detail", "nests deeper"},
		{"kept fields too big", "review_request.json", `{"version":1,"status":"pending","changed_files":[],"x_big":"` + strings.Repeat("a", MaxExtraBytes) + `"}`, request, "x_big", "more than 65536 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.decode(tt.file, []byte(tt.input))
			var inv *InvalidError
			if !errors.As(err, &inv) {
				t.Fatalf("got %v, want an *InvalidError", err)
			}
			if inv.File != tt.file || inv.Field != tt.field {
				t.Fatalf("got file %q field %q, want %q %q (%v)", inv.File, inv.Field, tt.file, tt.field, err)
			}
			if !strings.Contains(err.Error(), tt.problem) || inv.Hint == "" {
				t.Fatalf("error %q (hint %q) does not say %q", err, inv.Hint, tt.problem)
			}
		})
	}
}

// event decodes line 1 of the history; its errors name "FILE line 1".
func event(_ string, b []byte) error { _, err := DecodeEvent("review_history.jsonl", 1, b); return err }

// Kept unknown fields within the bounds still survive, nested ones too.
func TestKeptFieldsWithinBoundsSurvive(t *testing.T) {
	nested := strings.Repeat("[", MaxDepth-1) + strings.Repeat("]", MaxDepth-1)
	in := `{"version":1,"status":"pending","changed_files":[],"x_deep":` + nested + `,"x_big":"` + strings.Repeat("b", 60_000) + `"}`
	r, err := DecodeRequest("review_request.json", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Validate(); err != nil {
		t.Fatalf("a request read back fails Validate: %v", err)
	}
	out, err := EncodeRequest(r, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := DecodeRequest("review_request.json", out); err != nil {
		t.Fatalf("re-reading what was written: %v", err)
	}
}
