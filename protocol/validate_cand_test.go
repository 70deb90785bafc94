package protocol

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"
)

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
	case reflect.TypeFor[map[string]AgentConfig]():
		try(agentsCandidates())
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
		"arg", "stdin", "usage.input_tokens", "a..b", ".a", "a.", "a.0.b.c.d.e.f.g", "a.0.b.c.d.e.f.g.h", "a b.c", strings.Repeat("p", 64),
		strings.Repeat("p", 65), "x." + strings.Repeat("p", 65),
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

func agentsCandidates() []candidate {
	many := map[string]AgentConfig{}
	for i := 0; i <= MaxAgents; i++ {
		many[fmt.Sprintf("a%d", i)] = AgentConfig{Argv: []string{"x"}}
	}
	return []candidate{
		cand(map[string]AgentConfig(nil), "nil"),
		cand(map[string]AgentConfig{"codex": {}}, "a built-in agent as it is"),
		cand(map[string]AgentConfig{"mine": {}}, "a custom agent without argv"),
		cand(map[string]AgentConfig{"bad name": {Argv: []string{"x"}}}, "a bad name"),
		cand(map[string]AgentConfig{"mine": {Argv: []string{}}}, "an empty argv"),
		cand(map[string]AgentConfig{"mine": {Argv: []string{"x"}, ResumeArgv: []string{"x", "--resume"}}}, "resume_argv without {session}"),
		cand(map[string]AgentConfig{"mine": {Argv: []string{"x"}, ResumeArgv: []string{"{session}", "{session}"}}}, "{session} twice"),
		cand(map[string]AgentConfig{"mine": {Argv: []string{"x"}, Timeout: Duration(time.Millisecond)}}, "a timeout too short"),
		cand(map[string]AgentConfig{"mine": {Argv: []string{"x"}, Timeout: Duration(25 * time.Hour)}}, "a timeout too long"),
		cand(many, fmt.Sprintf("%d agents", MaxAgents+1)),
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
