package protocol

import (
	"encoding/json"
	"errors"
	"maps"
	"os"
	"reflect"
	"strings"
	"testing"
)

func readFixture(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestSeedRequestIsValidAndTakesDefaults(t *testing.T) {
	r, err := DecodeRequest("review_request.json", readFixture(t, "seed_request.json"))
	if err != nil {
		t.Fatal(err)
	}
	if r.Round != 1 || r.Gate != "gate_3" || r.Status != StatusPending || len(r.ChangedFiles) != 2 {
		t.Fatalf("got round %d gate %q status %q files %v", r.Round, r.Gate, r.Status, r.ChangedFiles)
	}
	if r.Fingerprint != "" || !r.CompletedAt.IsZero() {
		t.Fatalf("got fingerprint %q completed_at %v, want both empty", r.Fingerprint, r.CompletedAt)
	}
}

func TestSeedProgressIsValid(t *testing.T) {
	p, err := DecodeProgress("review_progress.json", readFixture(t, "seed_progress.json"))
	if err != nil {
		t.Fatal(err)
	}
	if p.Version != 1 || len(p.FilesReviewed) != 3 || len(p.FilesRemaining) != 4 || p.SessionID != "abc123" {
		t.Fatalf("got %+v", p)
	}
}

func TestUnknownStateFieldsSurviveARoundTrip(t *testing.T) {
	in := `{"version":1,"status":"pending","changed_files":["a.go"],"x_tool":{"k": [1,
	  2]},"zeta":"z"}`
	r, err := DecodeRequest("review_request.json", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"x_tool":{"k":[1,2]}`, `"zeta":"z"`} {
		if !strings.Contains(string(out), want) {
			t.Errorf("re-encoded request %s lacks %s", out, want)
		}
	}
	file, err := EncodeRequest(r, 0)
	if err != nil {
		t.Fatal(err)
	}
	if want := "\"x_tool\": {\n    \"k\": [\n      1,\n      2\n    ]\n  }"; !strings.Contains(string(file), want) {
		t.Errorf("written request does not indent the kept field like the rest:\n%s", file)
	}
}

func TestInvalidInputsNameFileAndField(t *testing.T) {
	tests := []struct {
		name, file, input string
		decode            func(string, []byte) error
		field, problem    string
	}{
		{"bad status", "review_request.json", `{"version":1,"status":"done","changed_files":[]}`, request, "status", "is not one of"},
		{"wrong type", "review_request.json", `{"version":1,"status":"pending","changed_files":"a.go"}`, request, "changed_files", "expected array"},
		{"missing field", "review_request.json", `{"version":1,"changed_files":[]}`, request, "status", "missing"},
		{"absolute path", "review_request.json", `{"version":1,"status":"pending","changed_files":["ok.go","/etc/passwd"]}`, request, "changed_files[1]", "absolute"},
		{"dot-dot path", "review_request.json", `{"version":1,"status":"pending","changed_files":["a/../../x"]}`, request, "changed_files[0]", "leads out"},
		{"state path", "review_request.json", `{"version":1,"status":"pending","changed_files":[".specdev/config.json"]}`, request, "changed_files[0]", "state"},
		{"bad timestamp", "review_request.json", `{"version":1,"status":"pending","changed_files":[],"timestamp":"yesterday"}`, request, "timestamp", ""},
		{"newer version", "review_request.json", `{"version":2,"status":"pending","changed_files":[]}`, request, "version", "newer than this specdev supports"},
		{"newer progress", "review_progress.json", `{"version":9,"phase":"reviewing","files_reviewed":[],"files_remaining":[]}`, progress, "version", "newer"},
		{"syntax", "review_request.json", "{\n  \"version\": 1,\n  \"status\": \"pending\",,\n}", request, "", "line 3"},
		{"empty", "review_request.json", "", request, "", "is empty"},
		{"cut off", "review_request.json", "{\n  \"version\": 1,\n  \"status\": \"pend", request, "", "line 3, column 18"},
		{"not utf8", "review_request.json", "{\"version\":1,\"status\":\"pending\",\"changed_files\":[],\"notes\":\"\xff\"}", request, "", "UTF-8"},
		{"two values", "review_request.json", `{"version":1,"status":"pending","changed_files":[]} {}`, request, "", "after top-level value"},
		{"bad phase", "review_progress.json", `{"phase":"thinking","files_reviewed":[],"files_remaining":[]}`, progress, "phase", "is not one of"},
		{"misspelt verdict field", "verdict.json", `{"passed":true,"sumary":"x"}`, verdict, "sumary", "valid fields are: intent_satisfied, interpreted_intent, issues, passed, summary"},
		{"misspelt issue field", "verdict.json", `{"passed":false,"issues":[{"severity":"minor","description":"d","sugestion":"s"}]}`, verdict, "issues[0].sugestion", "valid fields are"},
		{"misspelt required field", "findings.json", `[{"severity":"minor","descripton":"x"}]`, findings, "[0].descripton", "unknown field; valid fields are: category, description, file"},
		{"missing field beside a kept unknown one", "review_request.json", `{"version":1,"changed_files":[],"x_tool":1}`, request, "status", "missing"},
		{"bad severity", "findings.json", `[{"severity":"blocker","description":"d"}]`, findings, "[0].severity", "is not one of"},
		{"config typo", "config.json", `{"stale_afer":"1m"}`, config, "stale_afer", "valid fields"},
		{"config duration", "config.json", `{"stale_after":"soon"}`, config, "stale_after", ""},
		{"config effort", "config.json", `{"effort":"huge"}`, config, "effort", "is not one of"},
		{"fraction", "config.json", `{"max_rounds":3.5}`, config, "max_rounds", `is "3.5", not an integer`},
		{"integral past the bound", "config.json", `{"max_rounds":2e3}`, config, "max_rounds", "is 2000, more than the maximum of 1000"},
		{"past any integer", "config.json", `{"max_rounds":1e300}`, config, "max_rounds", "out of the range of any integer"},
		{"byte-order mark", "config.json", "\ufeff{}", config, "", "starts with a UTF-8 byte-order mark; save it without one"},
		{"utf-16", "config.json", "\xff\xfe{\x00}\x00", config, "", "is UTF-16"},
		{"explicit zero", "review_request.json", `{"version":1,"status":"pending","changed_files":[],"round":0}`, request, "round", "is 0: leave the field out"},
		{"explicit empty", "review_request.json", `{"version":1,"status":"pending","changed_files":[],"gate":""}`, request, "gate", "is empty: leave the field out"},
		{"empty argv", "config.json", `{"preflight":[]}`, config, "preflight", "is an empty list"},
		{"null", "review_request.json", `{"version":1,"status":"pending","changed_files":[],"notes":null}`, request, "notes", "expected string, but got null"},
		{"null object", "verdict.json", `{"passed":true,"intent_satisfied":null}`, verdict, "intent_satisfied", "expected boolean, but got null"},
		{"version written as 0", "review_request.json", `{"version":0,"status":"pending","changed_files":[]}`, request, "version", "less than the minimum of 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.decode(tt.file, []byte(tt.input))
			var inv *InvalidError
			if !errors.As(err, &inv) {
				t.Fatalf("got %v, want an *InvalidError", err)
			}
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("errors.Is(%v, ErrInvalid) is false", err)
			}
			if inv.File != tt.file || inv.Field != tt.field {
				t.Fatalf("got file %q field %q, want %q %q (%v)", inv.File, inv.Field, tt.file, tt.field, err)
			}
			if !strings.Contains(err.Error(), tt.problem) {
				t.Fatalf("error %q does not say %q", err, tt.problem)
			}
			if inv.Hint == "" {
				t.Fatalf("error %q has no hint", err)
			}
		})
	}
}

// Integers may be written as any number without a fraction (JSON Schema
// counts 3.0 and 1e3 as integers): they decode to their value.
func TestIntegralNumbersAreIntegers(t *testing.T) {
	c, err := DecodeConfig("config.json", []byte(`{"max_rounds": 3.0, "checkpoint_every": 1e1, "version": 1.0}`))
	if err != nil || c.MaxRounds != 3 || *c.CheckpointEvery != 10 || c.Version != 1 {
		t.Fatalf("got %+v, %v", c, err)
	}
	v, err := DecodeVerdict("verdict.json", []byte(`{"passed": false, "issues": [{"severity": "minor", "description": "d", "line": 1e3}, {"severity": "minor", "description": "d", "line": -0.0}]}`))
	if err != nil || v.Issues[0].Line != 1000 || v.Issues[1].Line != 0 {
		t.Fatalf("got %+v, %v", v, err)
	}
	r, err := DecodeRequest("review_request.json", []byte(`{"version": 1e0, "status": "pending", "changed_files": [], "round": 2.0, "max_rounds": 0.3e1}`))
	if err != nil || r.Round != 2 || r.MaxRounds != 3 {
		t.Fatalf("got %+v, %v", r, err)
	}
}

func request(f string, b []byte) error  { _, err := DecodeRequest(f, b); return err }
func progress(f string, b []byte) error { _, err := DecodeProgress(f, b); return err }
func verdict(f string, b []byte) error  { _, err := DecodeVerdict(f, b); return err }
func findings(f string, b []byte) error { _, err := DecodeFindings(f, b); return err }
func config(f string, b []byte) error   { _, err := DecodeConfig(f, b); return err }

func TestConfigDurationsAcceptGoSyntaxAndSeconds(t *testing.T) {
	c, err := DecodeConfig("config.json", []byte(`{"stale_after":"90s","lock_timeout":2,"preflight_timeout":"1m15s"}`))
	if err != nil {
		t.Fatal(err)
	}
	if c.StaleAfter.String() != "1m30s" || c.LockTimeout.String() != "2s" || c.PreflightTimeout.String() != "1m15s" {
		t.Fatalf("got %v %v %v", c.StaleAfter, c.LockTimeout, c.PreflightTimeout)
	}
}

func TestRoundLimit(t *testing.T) {
	tests := []struct {
		cfg  Config
		want int
	}{
		{Config{}, 3},
		{Config{Effort: "low"}, 2},
		{Config{Effort: "high"}, 4},
		{Config{Effort: "max"}, 5},
		{Config{Effort: "low", MaxRounds: 7}, 7},
	}
	for _, tt := range tests {
		if got := tt.cfg.RoundLimit(); got != tt.want {
			t.Errorf("%+v.RoundLimit() = %d, want %d", tt.cfg, got, tt.want)
		}
	}
}

func TestParseFindingFlag(t *testing.T) {
	f, err := ParseFindingFlag("IMPORTANT: counter kept in memory: lost on restart")
	if err != nil {
		t.Fatal(err)
	}
	if f.Severity != SeverityImportant || f.Description != "counter kept in memory: lost on restart" {
		t.Fatalf("got %+v", f)
	}
	for _, bad := range []string{"no colon", "blocker: x", "minor:   "} {
		if _, err := ParseFindingFlag(bad); err == nil {
			t.Errorf("ParseFindingFlag(%q) succeeded, want an error", bad)
		}
	}
}

func TestOversizedInputIsRefusedBeforeParsing(t *testing.T) {
	data := make([]byte, MaxFileSize+1)
	_, err := DecodeVerdict("verdict.json", data)
	var inv *InvalidError
	if !errors.As(err, &inv) || !strings.Contains(err.Error(), "more than the limit") {
		t.Fatalf("got %v, want an oversized-input error", err)
	}
}

// A large state file, whose strings are cut from its text, decodes to
// what was written, escaped strings included, as a small one does.
func TestLargeStateFilesDecodeAsWritten(t *testing.T) {
	r, p := benchReview(2000)
	r.ChangedFiles[7], r.FileDigests[`src/say "hi".go`] = `src/say "hi".go`, r.FileDigests[r.ChangedFiles[7]]
	delete(r.FileDigests, "src/pkg007/file0007.go")
	p.FilesReviewed[3] = "src/ünïcode/f.go"
	p.RecordedDigests = map[string]string{} // every file changed since the request: a large map to read
	for _, f := range p.FilesReviewed {
		p.RecordedDigests[f] = r.FileDigests["src/pkg001/file0001.go"]
	}
	data, err := EncodeRequest(r, 0)
	if err != nil || len(data) < 16<<10 {
		t.Fatalf("encoding a request of %d bytes: %v", len(data), err)
	}
	gotR, err := DecodeRequest(RequestFile, data)
	if err != nil {
		t.Fatal(err)
	}
	if !gotR.Same(r) {
		t.Errorf("the request read back differs: files %q…, digests %d", gotR.ChangedFiles[:8], len(gotR.FileDigests))
	}
	if data, err = EncodeProgress(p, 0); err != nil {
		t.Fatal(err)
	}
	gotP, err := DecodeProgress(ProgressFile, data)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(gotP.FilesReviewed, p.FilesReviewed) || !maps.Equal(gotP.RecordedDigests, p.RecordedDigests) || !reflect.DeepEqual(gotP.Findings, p.Findings) {
		t.Errorf("the progress read back differs: reviewed %q…", gotP.FilesReviewed[:4])
	}
}
