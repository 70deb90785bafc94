package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestValidateAgreesWithSchemas is the property that makes Validate and the
// schemas one source of truth: for every type that reaches a file, and for
// every field of it (nested ones included), set the field to each of a
// pool of extreme values — negative and huge numbers, strings at and just
// past every limit (in ASCII, in two-byte characters, in invalid UTF-8),
// odd Unicode, empty values, too many items — and check that Validate
// accepts exactly when the full validating decoder accepts the encoded
// bytes, and that both name the same field. Whatever both accept must
// round-trip: decoding what encoding wrote and encoding it again gives the
// same bytes.
func TestValidateAgreesWithSchemas(t *testing.T) {
	for _, root := range propertyRoots() {
		t.Run(root.name, func(t *testing.T) {
			t.Parallel()
			v := reflect.ValueOf(root.value).Elem()
			if err := root.check(t, "base"); err != nil {
				t.Fatalf("the base value is invalid: %v", err)
			}
			n := 0
			m := mutator{valid: func() bool { return root.validate() == nil }, seen: map[reflect.Type]bool{},
				visit: func(site, desc string) {
					n++
					root.check(t, site+" = "+desc)
				}}
			m.mutate(v, root.name)
			t.Logf("%d values checked", n)
		})
	}
}

type propertyRoot struct {
	name      string
	value     any // pointer to the value that mutate changes in place
	validate  func() error
	encode    func() ([]byte, error) // the value as specdev writes it
	canonical func() ([]byte, error) // the same with the decoder's defaults applied
	decode    func([]byte) (any, error)
	encodeAny func(any) ([]byte, error) // encodes what decode returned
}

// check compares Validate with the decoder for the current value.
func (r propertyRoot) check(t *testing.T, what string) error {
	t.Helper()
	verr := r.validate()
	data, encErr := r.encode()
	derr := encErr
	if encErr == nil {
		_, derr = r.decode(data)
	}
	switch {
	case (verr == nil) != (derr == nil):
		t.Errorf("%s: Validate says %v, the decoder says %v", what, short(verr), short(derr))
	case verr != nil && encErr == nil && !sameField(fieldOf(verr), fieldOf(derr)):
		t.Errorf("%s: Validate names field %q (%v), the decoder %q (%v)", what, fieldOf(verr), short(verr), fieldOf(derr), short(derr))
	case verr == nil && len(data) < 64<<10: // larger values add time, not cases
		r.roundTrip(t, what)
	}
	return verr
}

// roundTrip: decoding what encoding wrote and encoding it again gives the
// same bytes (once the decoder's defaults are applied). Invalid UTF-8,
// which encoding writes as U+FFFD, takes one more turn to settle.
func (r propertyRoot) roundTrip(t *testing.T, what string) {
	t.Helper()
	data, err := r.canonical()
	if err != nil {
		t.Errorf("%s: encoding: %v", what, err)
		return
	}
	again, err := r.reencode(data)
	if err == nil && !bytes.Equal(again, data) && bytes.Contains(data, []byte(`\ufffd`)) {
		data = again
		again, err = r.reencode(data)
	}
	switch {
	case err != nil:
		t.Errorf("%s: decoding or encoding what was written: %v", what, err)
	case !bytes.Equal(again, data):
		t.Errorf("%s: does not round-trip:\n%s\n%s", what, clip(data), clip(again))
	}
}

func (r propertyRoot) reencode(data []byte) ([]byte, error) {
	v, err := r.decode(data)
	if err != nil {
		return nil, err
	}
	return r.encodeAny(v)
}

// sameField: both name the same field, or one names a field inside the
// other (a nesting too deep is named where it starts or where it ends).
func sameField(a, b string) bool {
	// Validate names a map entry field["key"], the decoder field.key
	a, b = mapEntryDots(a), mapEntryDots(b)
	if len(a) > len(b) {
		a, b = b, a
	}
	return a == b || strings.HasPrefix(b, a) && (b[len(a)] == '.' || b[len(a)] == '[')
}

func mapEntryDots(field string) string {
	return strings.NewReplacer(`["`, ".", `"]`, "").Replace(field)
}

func fieldOf(err error) string {
	var inv *InvalidError
	if errors.As(err, &inv) {
		return inv.Field
	}
	return "(not an InvalidError)"
}

func short(err error) string {
	if err == nil {
		return "ok"
	}
	return clip([]byte(err.Error()))
}

func clip(b []byte) string {
	if len(b) > 300 {
		return string(b[:300]) + fmt.Sprintf("… (%d bytes)", len(b))
	}
	return string(b)
}

// propertyRoots are the documents specdev writes or reads, each starting
// from a valid value with every optional field set, so that every field
// is reached. Nested types (Finding, Takeover, PreflightResult, Decision,
// RoundRecord, Verdict) are reached inside them.
func propertyRoots() []propertyRoot {
	marshal := func(v any) ([]byte, error) { return json.Marshal(v) }
	r, p, v, e, c := baseRequest(), baseProgress(), baseVerdict(), baseEvent(), baseConfig()
	f := &[]Finding{baseFinding(), {Severity: SeverityCritical, Description: "general"}}
	encodeFindings := func(f []Finding) ([]byte, error) {
		if f == nil {
			return []byte("[]"), nil
		}
		return json.Marshal(f)
	}
	return []propertyRoot{
		{name: "request", value: r, validate: r.Validate,
			encode: func() ([]byte, error) { return EncodeRequest(r) },
			canonical: func() ([]byte, error) {
				d := *r
				d.applyDefaults()
				return EncodeRequest(&d)
			},
			decode:    func(b []byte) (any, error) { return DecodeRequest(RequestFile, b) },
			encodeAny: func(v any) ([]byte, error) { return EncodeRequest(v.(*Request)) }},
		{name: "progress", value: p, validate: p.Validate,
			encode: func() ([]byte, error) { return EncodeProgress(p) },
			canonical: func() ([]byte, error) {
				d := *p
				d.applyDefaults()
				return EncodeProgress(&d)
			},
			decode:    func(b []byte) (any, error) { return DecodeProgress(ProgressFile, b) },
			encodeAny: func(v any) ([]byte, error) { return EncodeProgress(v.(*Progress)) }},
		{name: "verdict", value: v, validate: v.Validate,
			encode:    func() ([]byte, error) { return json.Marshal(v) },
			canonical: func() ([]byte, error) { return json.Marshal(v) },
			decode:    func(b []byte) (any, error) { return DecodeVerdict("verdict", b) },
			encodeAny: marshal},
		{name: "findings", value: f,
			validate: func() error {
				var c check
				c.each("", len(*f), MaxIssues, func(i int, c *check) { (*f)[i].shape(c); (*f)[i].semantics(c) })
				return c.result("findings", "findings")
			},
			encode:    func() ([]byte, error) { return encodeFindings(*f) },
			canonical: func() ([]byte, error) { return encodeFindings(*f) },
			decode:    func(b []byte) (any, error) { return DecodeFindings("findings", b) },
			encodeAny: func(v any) ([]byte, error) { return encodeFindings(v.([]Finding)) }},
		{name: "event", value: e, validate: e.Validate,
			encode:    func() ([]byte, error) { return json.Marshal(e) },
			canonical: func() ([]byte, error) { return json.Marshal(e) },
			decode:    func(b []byte) (any, error) { return DecodeEvent(HistoryFile, 1, b) },
			encodeAny: marshal},
		{name: "config", value: c, validate: c.Validate,
			encode:    func() ([]byte, error) { return json.Marshal(c) },
			canonical: func() ([]byte, error) { return json.Marshal(c) },
			decode:    func(b []byte) (any, error) { return DecodeConfig(ConfigFile, b) },
			encodeAny: marshal},
	}
}

var baseTime = At(time.Date(2026, 2, 11, 10, 30, 0, 0, time.UTC))

func baseFinding() Finding {
	return Finding{File: "a.go", Line: 3, Severity: SeverityMinor, Category: "tests", Description: "d", Suggestion: "s"}
}

func basePreflight() *PreflightResult {
	return &PreflightResult{Command: []string{"./gate.sh", "-v"}, Passed: true, ExitCode: 0, DurationMS: 5, Output: "ok\n", Error: "e", At: baseTime}
}

func baseVerdict() *Verdict {
	yes := true
	return &Verdict{Passed: false, Summary: "fix it", InterpretedIntent: "i", IntentSatisfied: &yes, Issues: []Finding{baseFinding()}}
}

func baseRequest() *Request {
	return &Request{
		Version: 1, RequestID: "r-1", AssignmentID: "00001", AssignmentPath: ".specdev/assignments/00001_x",
		Gate: "review", Status: StatusFailed, Mode: ModeAuto, Timestamp: baseTime, HeadCommit: "abc1234",
		ChangedFiles: []string{"a.go", "b.go"}, Fingerprint: "sha256:" + strings.Repeat("0a", 32), Notes: "n",
		Round: 2, MaxRounds: 3, ReviewerNotes: "rn", ProposedVerdict: VerdictFail, CompletedAt: baseTime,
		ReviewerSessionID: "rv-1", LastReviewedCommit: "abc1234", Guidance: "g", ContinuedAt: baseTime,
		BaseCommit: strings.Repeat("1", 40), Staged: true, FileDigests: map[string]string{"a.go": strings.Repeat("a", 64), "b.go": DigestDeleted},
		CarriedDigests:  map[string]string{"c.go": strings.Repeat("c", 64)},
		Passed:          map[string]PassRecord{"review": basePassRecord()},
		Loops:           map[string]Loop{"review": {RoundsFailed: 1, MaxRounds: 3, Stuck: true}},
		Group:           "api",
		Checkpoint:      true,
		PreflightFailed: true,
		BlockedReason:   BlockedStuck,
		Journal:         &Journal{Events: []Event{*baseEvent()}},
		Delta: &Delta{Since: "abc1234", Changed: []string{"a.go"}, ChangedLines: 4, TotalLines: 100, ByFiles: true, CommitGone: true,
			Stat: " a.go | 4 ++--\n"},
		Extra: Extra{"x_tool": json.RawMessage(`{"k":[1,2]}`)},
	}
}

func basePassRecord() PassRecord {
	return PassRecord{RequestID: "r-0", Round: 1, HeadCommit: "abc1234", BaseCommit: strings.Repeat("2", 40),
		Fingerprint: "sha256:" + strings.Repeat("0b", 32), Files: []string{"a.go"},
		FileDigests: map[string]string{"a.go": strings.Repeat("a", 64)}, Staged: true, CompletedAt: baseTime}
}

func baseProgress() *Progress {
	return &Progress{
		Phase: PhaseReviewing, Mode: ModeManual, StartedAt: baseTime, LastActivity: baseTime,
		FilesTotal: 2, FilesReviewed: []string{"a.go"}, FilesRemaining: []string{"b.go"}, FindingsSoFar: 1,
		SessionID: "rv-1", Version: 1, RequestID: "r-2", Round: 2,
		Takeovers: []Takeover{{From: "rv-0", To: "rv-1", At: baseTime, Reason: "stale", Idle: "17m"}},
		Preflight: basePreflight(), Findings: []Finding{baseFinding()}, Verdict: baseVerdict(),
		Decision: &Decision{Approved: false, Notes: "agree", At: baseTime},
		Resolved: []Resolved{{Round: 1, Number: 1, Finding: baseFinding()}},
		PreviousRounds: []RoundRecord{{
			Round: 1, RequestID: "r-1", Status: StatusFailed, FilesReviewed: []string{"a.go"}, FilesTotal: 1,
			Gate: "review", HeadCommit: "abc1234", Since: "0123abc", Plan: PlanFull, Unchanged: []string{"c.go"},
			Preflight: basePreflight(), Findings: []Finding{baseFinding()}, Verdict: baseVerdict(),
			Resolved: []Resolved{{Round: 1, Number: 2, Finding: baseFinding()}},
			Decision: &Decision{Approved: true, Notes: "n", At: baseTime},
		}},
		Lease: "ls-0123456789abcdef",
		Plan: &RoundPlan{Kind: PlanFollowUp, Gate: "review", HeadCommit: "def5678", Since: "abc1234", Reason: FallbackOtherSession,
			ChangedLines: 4, TotalLines: 100, Unchanged: []string{"c.go"}, HadFindings: []string{"a.go"}},
		Journal:         &Journal{Events: []Event{*baseEvent()}},
		Extra:           Extra{"x_tool": json.RawMessage(`"kept"`)},
		RecordedDigests: map[string]string{"a.go": strings.Repeat("b", 64)},
	}
}

func baseEvent() *Event {
	return &Event{Seq: 7, TS: baseTime, Event: EventFileReviewed, RequestID: "r-1", Round: 1, Session: "rv-1",
		Detail: map[string]any{"file": "a.go", "findings": 2.0, "replaced": false}}
}

func baseConfig() *Config {
	every, stop := 3, false
	return &Config{CheckpointEvery: &every, StopOnRepeat: &stop, Version: 1, StaleAfter: Duration(15 * time.Minute), LockTimeout: Duration(10 * time.Second),
		Effort: "high", MaxRounds: 4, Preflight: []string{"./gate.sh"}, PreflightTimeout: Duration(5 * time.Minute)}
}

// mutator changes one field at a time of a value that is valid as a whole.
type mutator struct {
	valid func() bool             // whether the whole value passes Validate
	visit func(site, desc string) // checks the whole value
	seen  map[reflect.Type]bool   // struct types walked (under -race: once each)
}

// mutate walks v (addressable) and, for every field it reaches, sets each
// value of the field's pool in turn, calls visit, and restores the field.
func (m mutator) mutate(v reflect.Value, path string) {
	valid, visit := m.valid, m.visit
	try := func(cands []candidate) {
		old := reflect.New(v.Type()).Elem()
		old.Set(v)
		for _, c := range cands {
			v.Set(c.value.Convert(v.Type()))
			visit(path, c.desc)
		}
		v.Set(old)
	}
	switch v.Type() {
	case reflect.TypeFor[Timestamp]():
		try(timeCandidates())
		return
	case reflect.TypeFor[Duration]():
		try(durationCandidates())
		return
	case reflect.TypeFor[Extra]():
		try(extraCandidates())
		return
	case reflect.TypeFor[map[string]any]():
		try(detailCandidates())
		return
	case reflect.TypeFor[map[string]string]():
		try(digestCandidates())
		return
	case reflect.TypeFor[map[string]Loop]():
		try(loopCandidates())
		return
	case reflect.TypeFor[map[string]PassRecord]():
		try(passCandidates())
		return
	}
	switch v.Kind() {
	case reflect.String:
		try(stringCandidates(v, valid))
	case reflect.Int, reflect.Int64:
		try(intCandidates())
	case reflect.Bool:
		try([]candidate{{reflect.ValueOf(true), "true"}, {reflect.ValueOf(false), "false"}})
	case reflect.Pointer:
		try([]candidate{{reflect.Zero(v.Type()), "nil"}})
		if !v.IsNil() {
			m.mutate(v.Elem(), path)
		}
	case reflect.Struct:
		if m.seen[v.Type()] && raceEnabled { // the same $defs: once is enough under -race
			return
		}
		m.seen[v.Type()] = true
		for i := 0; i < v.NumField(); i++ {
			name, _, _ := strings.Cut(v.Type().Field(i).Tag.Get("json"), ",")
			if name == "-" {
				name = "(extra)"
			}
			m.mutate(v.Field(i), path+"."+name)
		}
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.String {
			try(listCandidates())
			return
		}
		try(sliceCandidates(v))
		if v.Len() > 0 {
			m.mutate(v.Index(0), path+"[0]")
		}
	}
}

type candidate struct {
	value reflect.Value
	desc  string
}

func cand(v any, desc string) candidate { return candidate{reflect.ValueOf(v), desc} }

// stringCandidates: the field's length limit, at and just past it, in
// one-byte, two-byte and invalid characters, and far past every limit;
// and the odd strings. The limit is the smallest of the limits that
// Validate enforces on the field: if the schema's differs, the values at
// and past it disagree.
func stringCandidates(v reflect.Value, valid func() bool) []candidate {
	old := v.String()
	defer v.SetString(old)
	out := []candidate{cand(strings.Repeat("a", MaxTextLength+1), "past every limit")}
	for _, limit := range []int{MaxIDLength, MaxPathLength, MaxFindingText, MaxTextLength} {
		v.SetString(strings.Repeat("a", limit+1))
		if valid() {
			continue
		}
		out = append(out,
			cand(strings.Repeat("é", limit), fmt.Sprintf("%d × é", limit)), // 2 bytes each: counted as 1
			cand(strings.Repeat("é", limit+1), fmt.Sprintf("%d × é", limit+1)),
			cand(strings.Repeat("a", limit+1), fmt.Sprintf("%d × a", limit+1)),
			cand(strings.Repeat("\xff", limit), fmt.Sprintf("%d invalid bytes", limit)))
		break
	}
	for _, s := range []string{
		"", " ", "a", "A", "review", "x.y_z-1", "-x", "a b", "src/a.go", "../x", "a/../b", "/abs", `a\b`, "c:x",
		".specdev/config.json", "a//b", "./a", "e\u0301", "\u202eevil", "\x00", "\x1b[31mred", "a\nb", "\xff", "ſtatus",
		"sha256:" + strings.Repeat("0a", 32), "sha256:" + strings.Repeat("0A", 32), "sha256:", "\u2028",
		"pending", "in_progress", "awaiting_approval", "passed", "failed", "blocked", "cancelled", "done",
		"auto", "manual", "preflight", "reviewing", "writing-report", "critical", "important", "minor",
		"pass", "fail", "low", "medium", "high", "max", "requested", "file_reviewed", "Passed",
	} {
		out = append(out, cand(s, fmt.Sprintf("%q", s)))
	}
	return out
}

func intCandidates() []candidate {
	var out []candidate
	for _, n := range []int64{
		math.MinInt64, -2, -1, 0, 1, 2, 3, 4, 5, 6, 200, 1000, 1001, MaxIssues, MaxIssues + 1, MaxFiles, MaxFiles + 1,
		MaxLine, MaxLine + 1, MaxExitCode, MaxExitCode + 1, MaxDurationMS, MaxDurationMS + 1, math.MaxInt64,
	} {
		out = append(out, cand(n, fmt.Sprint(n)))
	}
	return out
}

func timeCandidates() []candidate {
	var out []candidate
	for _, year := range []int{-1, 0, 1, 2026, 9999, 10000} {
		ts := At(time.Date(year, 12, 31, 23, 59, 59, 999e6, time.UTC))
		out = append(out, cand(ts, fmt.Sprintf("year %d", year)))
	}
	return append(out, cand(Timestamp{}, "zero"))
}

func durationCandidates() []candidate {
	var out []candidate
	for _, d := range []time.Duration{
		-time.Second, 0, 1, time.Millisecond - 1, time.Millisecond, time.Second - 1, time.Second, time.Minute,
		5 * time.Minute, 10 * time.Minute, 10*time.Minute + 1, 15 * time.Minute, 24 * time.Hour, 24*time.Hour + 1,
		7 * 24 * time.Hour, 7*24*time.Hour + 1, math.MaxInt64,
	} {
		out = append(out, cand(Duration(d), d.String()))
	}
	return out
}

func listCandidates() []candidate {
	many := func(n int) []string {
		list := make([]string, n)
		for i := range list {
			list[i] = fmt.Sprintf("f%d.go", i)
		}
		return list
	}
	out := []candidate{
		cand([]string(nil), "nil"), cand([]string{}, "[]"), cand([]string{"a.go"}, `["a.go"]`),
		cand([]string{"b.go"}, `["b.go"]`), cand([]string{"a.go", "b.go"}, `["a.go","b.go"]`),
		cand([]string{"a.go", "a.go"}, "a duplicate"), cand([]string{""}, `[""]`), cand([]string{"../x"}, `["../x"]`),
		cand([]string{strings.Repeat("é", MaxPathLength)}, "a path at the limit"),
		cand([]string{strings.Repeat("é", MaxPathLength+1)}, "a path past the limit"),
	}
	for _, n := range []int{MaxArgs, MaxArgs + 1, MaxFiles, MaxFiles + 1} {
		out = append(out, cand(many(n), fmt.Sprintf("%d items", n)))
	}
	return out
}

// sliceCandidates for a list of structs: none, empty, and at and past the
// limits of such lists, made of copies of a small valid item.
func sliceCandidates(v reflect.Value) []candidate {
	out := []candidate{{reflect.Zero(v.Type()), "nil"}, {reflect.MakeSlice(v.Type(), 0, 0), "empty"}}
	if v.Len() == 0 || testing.Short() || raceEnabled {
		return out
	}
	item := v.Index(0)
	if small, ok := smallItems[v.Type().Elem()]; ok {
		item = reflect.ValueOf(small)
	}
	counts := []int{MaxIssues, MaxIssues + 1} // = MaxRound, MaxTakeovers (+1)
	if v.Type().Elem() == reflect.TypeFor[Finding]() {
		counts = append(counts, MaxFindings+1)
	}
	for _, n := range counts {
		s := reflect.MakeSlice(v.Type(), n, n)
		for i := 0; i < n; i++ {
			s.Index(i).Set(item)
		}
		out = append(out, candidate{s, fmt.Sprintf("%d items", n)})
	}
	return out
}

// smallItems are valid items that keep a list of thousands small.
var smallItems = map[reflect.Type]any{
	reflect.TypeFor[Finding]():     Finding{Severity: SeverityMinor, Description: "d"},
	reflect.TypeFor[RoundRecord](): RoundRecord{Round: 1, Status: StatusFailed},
	reflect.TypeFor[Takeover]():    Takeover{From: "a", To: "b", Reason: "stale"},
}

func extraCandidates() []candidate {
	big := func(n int) Extra { return Extra{"x_big": json.RawMessage(`"` + strings.Repeat("a", n) + `"`)} }
	overhead := len("x_big") + 4 + 2 // "x_big":"…",
	return []candidate{
		cand(Extra(nil), "nil"),
		cand(Extra{"x_tool": json.RawMessage(`{"k": [1, 2]}`)}, "indented"),
		cand(Extra{"status": json.RawMessage(`"passed"`)}, "a known field"),
		cand(Extra{"STATUS": json.RawMessage(`"passed"`)}, "a known field in capitals"),
		cand(Extra{"ſtatus": json.RawMessage(`"passed"`)}, "a known field with a long s"),
		cand(Extra{"x": json.RawMessage(`not json`)}, "not JSON"),
		cand(Extra{"a": json.RawMessage(`1`), "A": json.RawMessage(`2`)}, "two keys differing in case"),
		cand(big(MaxExtraBytes-overhead), "at the size limit"),
		cand(big(MaxExtraBytes-overhead+1), "past the size limit"),
		cand(Extra{"x_deep": json.RawMessage(strings.Repeat("[", MaxDepth-1) + strings.Repeat("]", MaxDepth-1))}, "at the depth limit"),
		cand(Extra{"x_deep": json.RawMessage(strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth))}, "past the depth limit"),
	}
}

func detailCandidates() []candidate {
	keys := func(n int) map[string]any {
		m := map[string]any{}
		for i := 0; i < n; i++ {
			m[fmt.Sprintf("k%d", i)] = "v"
		}
		return m
	}
	deep := func(n int) map[string]any {
		var v any = "leaf"
		for i := 0; i < n; i++ {
			v = []any{v}
		}
		return map[string]any{"deep": v}
	}
	return []candidate{
		cand(map[string]any(nil), "nil"), cand(map[string]any{}, "empty"),
		cand(keys(MaxDetailKeys), "at the key limit"), cand(keys(MaxDetailKeys+1), "past the key limit"),
		cand(map[string]any{"x": math.NaN()}, "NaN"), cand(map[string]any{"x": "\x1b]0;pwned\a"}, "an escape"),
		cand(deep(MaxDepth-2), "at the depth limit"), cand(deep(MaxDepth-1), "past the depth limit"),
	}
}

// digestCandidates: path -> content digest maps (the counts stay small:
// 100,000 entries cost seconds of schema validation per candidate).
func digestCandidates() []candidate {
	sum := strings.Repeat("a", 64)
	return []candidate{
		cand(map[string]string(nil), "nil"), cand(map[string]string{}, "empty"),
		cand(map[string]string{"a.go": DigestDeleted}, "deleted"),
		cand(map[string]string{"../a.go": sum}, "a path with .."), cand(map[string]string{"/a.go": sum}, "an absolute path"),
		cand(map[string]string{"": sum}, "an empty path"), cand(map[string]string{".specdev/x": sum}, "a state path"),
		cand(map[string]string{"a.go": "A" + sum[1:]}, "upper-case hex"), cand(map[string]string{"a.go": sum[1:]}, "63 hex digits"),
		cand(map[string]string{"a.go": ""}, "no digest"), cand(map[string]string{strings.Repeat("p", MaxPathLength+1): sum}, "a path too long"),
	}
}

func loopCandidates() []candidate {
	return []candidate{
		cand(map[string]Loop(nil), "nil"),
		cand(map[string]Loop{"security": {RoundsFailed: 0, MaxRounds: 1}}, "a fresh loop"),
		cand(map[string]Loop{"bad gate": {RoundsFailed: 1, MaxRounds: 2}}, "a bad gate name"),
		cand(map[string]Loop{"review": {RoundsFailed: -1, MaxRounds: 2}}, "negative rounds"),
		cand(map[string]Loop{"review": {RoundsFailed: 1, MaxRounds: 0}}, "no limit"),
		cand(map[string]Loop{"review": {RoundsFailed: MaxRound + 1, MaxRounds: MaxRound}}, "rounds past the limit"),
	}
}

func passCandidates() []candidate {
	with := func(edit func(*PassRecord)) map[string]PassRecord {
		rec := basePassRecord()
		edit(&rec)
		return map[string]PassRecord{"review": rec}
	}
	return []candidate{
		cand(map[string]PassRecord(nil), "nil"),
		cand(map[string]PassRecord{"bad gate": basePassRecord()}, "a bad gate name"),
		cand(with(func(r *PassRecord) { r.Round = 0 }), "round 0"),
		cand(with(func(r *PassRecord) { r.Files = []string{"../x"} }), "a file outside"),
		cand(with(func(r *PassRecord) { r.FileDigests = map[string]string{"a.go": "x"} }), "a bad digest"),
		cand(with(func(r *PassRecord) { r.BaseCommit = "abc" }), "a short commit"),
		cand(with(func(r *PassRecord) { r.Fingerprint = "md5:x" }), "a bad fingerprint"),
	}
}
