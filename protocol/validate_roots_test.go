package protocol

import (
	"encoding/json"
	"strings"
	"time"
)

// propertyRoots are the documents specdev writes or reads, each starting
// from a valid value with every optional field set, so that every field
// is reached. Nested types (Finding, Takeover, PreflightResult, Decision,
// RoundRecord, Verdict) are reached inside them.
func propertyRoots() []propertyRoot {
	marshal := func(v any) ([]byte, error) { return json.Marshal(v) }
	r, p, v, e, c := baseRequest(), baseProgress(), baseVerdict(), baseEvent(), baseConfig()
	agent := baseAgent()
	g := &Group{Version: 1, Name: "api", CreatedAt: baseTime, Loops: []string{"00001_a", "00002_b"}, Expect: 3,
		Extra: Extra{"x_tool": json.RawMessage(`[1]`)}}
	agentConfig := func() *Config { return &Config{Agents: map[string]AgentConfig{"mine": *agent}} }
	f := &[]Finding{baseFinding(), {Severity: SeverityCritical, Description: "general"}}
	encodeFindings := func(f []Finding) ([]byte, error) {
		if f == nil {
			return []byte("[]"), nil
		}
		return json.Marshal(f)
	}
	return []propertyRoot{
		{name: "request", schema: "request", value: r, validate: r.Validate, shape: requestShape,
			encode: func() ([]byte, error) { return EncodeRequest(r, 0) },
			canonical: func() ([]byte, error) {
				d := *r
				d.applyDefaults()
				return EncodeRequest(&d, 0)
			},
			decode:    func(b []byte) (any, error) { return DecodeRequest(RequestFile, b) },
			encodeAny: func(v any) ([]byte, error) { return EncodeRequest(v.(*Request), 0) }},
		{name: "progress", schema: "progress", shape: progressShape, value: p, validate: p.Validate,
			encode: func() ([]byte, error) { return EncodeProgress(p, 0) },
			canonical: func() ([]byte, error) {
				d := *p
				d.applyDefaults()
				return EncodeProgress(&d, 0)
			},
			decode:    func(b []byte) (any, error) { return DecodeProgress(ProgressFile, b) },
			encodeAny: func(v any) ([]byte, error) { return EncodeProgress(v.(*Progress), 0) }},
		{name: "verdict", schema: "verdict", shape: verdictShape, value: v, validate: v.Validate,
			encode:    func() ([]byte, error) { return json.Marshal(v) },
			canonical: func() ([]byte, error) { return json.Marshal(v) },
			decode:    func(b []byte) (any, error) { return DecodeVerdict("verdict", b) },
			encodeAny: marshal},
		{name: "findings", schema: "findings", shape: findingsShape, value: f,
			validate:  func() error { return semantic("findings", "findings", f) },
			encode:    func() ([]byte, error) { return encodeFindings(*f) },
			canonical: func() ([]byte, error) { return encodeFindings(*f) },
			decode:    func(b []byte) (any, error) { return DecodeFindings("findings", b) },
			encodeAny: func(v any) ([]byte, error) { return encodeFindings(v.([]Finding)) }},
		{name: "event", schema: "history", shape: eventShape, value: e, validate: e.Validate,
			encode:    func() ([]byte, error) { return json.Marshal(e) },
			canonical: func() ([]byte, error) { return json.Marshal(e) },
			decode:    func(b []byte) (any, error) { return DecodeEvent(HistoryFile, 1, b) },
			encodeAny: marshal},
		{name: "config", schema: "config", shape: configShape, value: c, validate: c.Validate,
			encode:    func() ([]byte, error) { return json.Marshal(c) },
			canonical: func() ([]byte, error) { return json.Marshal(c) },
			decode:    func(b []byte) (any, error) { return DecodeConfig(ConfigFile, b) },
			encodeAny: marshal},
		{name: "config agent", schema: "config", shape: configShape, value: agent, validate: func() error { return agentConfig().Validate() },
			encode:    func() ([]byte, error) { return json.Marshal(agentConfig()) },
			canonical: func() ([]byte, error) { return json.Marshal(agentConfig()) },
			decode:    func(b []byte) (any, error) { return DecodeConfig(ConfigFile, b) },
			encodeAny: marshal},
		{name: "group", schema: "group", shape: groupShape, value: g, validate: g.Validate,
			encode:    func() ([]byte, error) { return EncodeGroup(g) },
			canonical: func() ([]byte, error) { return EncodeGroup(g) },
			decode:    func(b []byte) (any, error) { return DecodeGroup(g.file(), b) },
			encodeAny: func(v any) ([]byte, error) { return EncodeGroup(v.(*Group)) }},
	}
}

// The decoder of each file with only the shape half of Validate: what the
// schemas can say.

// shapeOnly is semantic without the rules no schema states.
func shapeOnly(file, schema string, v any) error {
	c := check{shapeOnly: true}
	if findings, ok := v.(*[]Finding); ok {
		c.each("", len(*findings), MaxIssues, func(i int, c *check) { c.shape(&(*findings)[i]) })
	} else {
		c.shape(v)
	}
	return c.result(file, schema)
}
func requestShape(b []byte) error {
	var r Request
	if err := read(RequestFile, "request", b, &r, false); err != nil {
		return err
	}
	r.applyDefaults()
	return shapeOnly(RequestFile, "request", &r)
}

func progressShape(b []byte) error {
	var p Progress
	if err := read(ProgressFile, "progress", b, &p, false); err != nil {
		return err
	}
	p.applyDefaults()
	return shapeOnly(ProgressFile, "progress", &p)
}

func verdictShape(b []byte) error {
	var v Verdict
	if err := read("verdict", "verdict", b, &v, true); err != nil {
		return err
	}
	return shapeOnly("verdict", "verdict", &v)
}

func findingsShape(b []byte) error {
	var f []Finding
	if err := read("findings", "findings", b, &f, true); err != nil {
		return err
	}
	return shapeOnly("findings", "findings", &f)
}

func eventShape(b []byte) error {
	var e Event
	if err := read(HistoryFile, "history", b, &e, false); err != nil {
		return err
	}
	return shapeOnly(HistoryFile, "history", &e)
}

func groupShape(b []byte) error {
	var g Group
	if err := read("group", "group", b, &g, false); err != nil {
		return err
	}
	return shapeOnly("group", "group", &g)
}

func configShape(b []byte) error {
	var c Config
	if err := read(ConfigFile, "config", b, &c, true); err != nil {
		return err
	}
	return shapeOnly(ConfigFile, "config", &c)
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
		ReviewerSessionID: "rv-1", AgentSession: &AgentSession{Agent: "claude", ID: "5f1e-22"},
		AgentCost: &AgentCost{Round: AgentUsage{Runs: 2, InputTokens: 10, OutputTokens: 5, CacheReadTokens: 7, CostUSD: 0.5, DurationMS: 9},
			Loop: AgentUsage{Runs: 3, InputTokens: 20, OutputTokens: 6, CacheReadTokens: 8, CostUSD: 0.75, DurationMS: 19}},
		LastReviewedCommit: "abc1234", Guidance: "g", ContinuedAt: baseTime,
		BaseCommit: strings.Repeat("1", 40), Staged: true, FileDigests: map[string]string{"a.go": strings.Repeat("a", 64), "b.go": DigestDeleted},
		CarriedDigests:  map[string]string{"c.go": strings.Repeat("c", 64)},
		Passed:          map[string]PassRecord{"review": basePassRecord()},
		Loops:           map[string]Loop{"review": {RoundsFailed: 1, MaxRounds: 3, Stuck: true}},
		Group:           "api",
		Checkpoint:      true,
		PreflightFailed: true,
		BlockedReason:   BlockedStuck,
		FileSet:         []string{"a.go", "b.go"},
		Effort:          "high",
		Worktree:        "../wt9",
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
		Takeovers: []Takeover{{From: "rv-0", To: "rv-1", At: baseTime, Reason: "stale", Idle: "17m", FromLease: "ls-0123456789abcdef"}},
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

func baseAgent() *AgentConfig {
	return &AgentConfig{Argv: []string{"my-agent", "--json"}, ResumeArgv: []string{"my-agent", "--resume", AgentSessionMark},
		Prompt: PromptStdin, Session: "session_id", InputTokens: "usage.input_tokens", OutputTokens: "usage.output_tokens",
		CacheReadTokens: "usage.cache.0", Cost: "cost", Timeout: Duration(10 * time.Minute)}
}

func baseConfig() *Config {
	every, stop := 3, false
	return &Config{StopOnRepeat: &stop, Agents: map[string]AgentConfig{"claude": {Timeout: Duration(time.Minute)}, "mine": *baseAgent()},
		CheckpointEvery: &every, Version: 1, StaleAfter: Duration(15 * time.Minute), LockTimeout: Duration(10 * time.Second),
		Effort: "high", MaxRounds: 4, Preflight: []string{"./gate.sh"}, PreflightTimeout: Duration(5 * time.Minute)}
}
