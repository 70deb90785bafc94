package protocol

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// Validate names the field by its path in the file.
// Validate applies every rule of config.json, as DecodeConfig does once
// the JSON is read: the schema's, the bounds of each duration (0 is
// unset: the default applies), and that the preflight gate cannot
// outlive a reviewer's lease. Only tests validate a config they built.
func (c *Config) Validate() error {
	return semantic(ConfigFile, "config", c)
}

func TestValidateNamesTheField(t *testing.T) {
	tests := []struct {
		name    string
		value   interface{ Validate() error }
		field   string
		problem string
	}{
		{"negative line", withFindings(func(f []Finding) { f[3].Line = -5 }), "findings[3].line", "less than the minimum of 0"},
		{"huge notes", withRequest(func(r *Request) { r.Notes = strings.Repeat("n", 110_000) }), "notes", "110000 characters long"},
		{"bad gate", withRequest(func(r *Request) { r.Gate = "a gate" }), "gate", "must start with a letter or digit"},
		{"absolute path", withRequest(func(r *Request) { r.ChangedFiles = []string{"a.go", "/etc/passwd"} }), "changed_files[1]", "absolute"},
		{"unknown status", withRequest(func(r *Request) { r.Status = "done" }), "status", "is not one of pending"},
		{"nested issue", withProgress(func(p *Progress) { p.Verdict = &Verdict{Issues: []Finding{{Severity: "blocker", Description: "d"}}} }), "verdict.issues[0].severity", "not one of critical"},
		{"previous round", withProgress(func(p *Progress) { p.PreviousRounds = []RoundRecord{{Round: 0, Status: StatusFailed}} }), "previous_rounds[0].round", "less than the minimum of 1"},
		{"preflight exit code", withProgress(func(p *Progress) { p.Preflight = &PreflightResult{ExitCode: -9} }), "preflight.exit_code", "less than the minimum of -1"},
		{"takeover", withProgress(func(p *Progress) { p.Takeovers = []Takeover{{From: strings.Repeat("s", 201)}} }), "takeovers[0].from", "more than the limit of 128"},
		{"year 10000", withProgress(func(p *Progress) { p.LastActivity = At(time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)) }), "last_activity", "year 10000"},
		{"kept field shadows a known one", withRequest(func(r *Request) { r.Extra = Extra{"Status": []byte(`"passed"`)} }), "Status", `differs from the field "status" only in case`},
		{"event without time", &Event{Event: EventPassed}, "ts", "is not set"},
		{"event detail", &Event{TS: baseTime, Event: EventPassed, Detail: map[string]any{"x": fmt.Errorf("e")}}, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.value.Validate()
			var inv *InvalidError
			if tt.field == "" {
				if err != nil {
					t.Fatalf("got %v, want valid", err)
				}
				return
			}
			if !errors.As(err, &inv) || inv.Field != tt.field || !strings.Contains(inv.Problem, tt.problem) || inv.Hint == "" {
				t.Fatalf("got %v (field %q), want field %q saying %q", err, fieldOf(err), tt.field, tt.problem)
			}
		})
	}
}

func withFindings(change func([]Finding)) *Progress {
	p := withProgress(nil)
	for i := 0; i < 4; i++ {
		p.Findings = append(p.Findings, Finding{File: "a.go", Severity: SeverityMinor, Description: "d"})
	}
	p.FindingsSoFar = len(p.Findings)
	change(p.Findings)
	return p
}

func withProgress(change func(*Progress)) *Progress {
	p := baseProgress()
	if change != nil {
		change(p)
	}
	return p
}

func withRequest(change func(*Request)) *Request {
	r := baseRequest()
	change(r)
	return r
}

// A progress must count each file once; the seed's example stays valid.
func TestProgressConsistency(t *testing.T) {
	tests := []struct {
		name, input, field, problem string
	}{
		{"total below reviewed", `{"phase":"reviewing","files_total":1,"files_reviewed":["a.go","b.go"],"files_remaining":[]}`, "files_total", "is 1, but 2 files are reviewed and 0 remain"},
		{"total above", `{"phase":"reviewing","files_total":9,"files_reviewed":["a.go"],"files_remaining":["b.go"]}`, "files_total", "(2 in all)"},
		{"reviewed twice", `{"phase":"reviewing","files_total":2,"files_reviewed":["a.go","a.go"],"files_remaining":[]}`, "files_reviewed[1]", "listed twice"},
		{"reviewed and remaining", `{"phase":"reviewing","files_total":2,"files_reviewed":["a.go"],"files_remaining":["a.go"]}`, "files_remaining[0]", "listed twice"},
		{"findings miscounted", `{"phase":"reviewing","files_total":1,"files_reviewed":["a.go"],"files_remaining":[],"findings_so_far":5,"findings":[{"file":"a.go","severity":"minor","description":"d"}]}`, "findings_so_far", "is 5, but 1 findings are recorded"},
		{"round reviewed more than it had", `{"phase":"reviewing","files_total":0,"files_reviewed":[],"files_remaining":[],"previous_rounds":[{"round":1,"status":"failed","files_total":1,"files_reviewed":["a.go","b.go"]}]}`, "previous_rounds[0].files_total", "is 1, but 2 files are reviewed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := DecodeProgress("review_progress.json", []byte(tt.input))
			var inv *InvalidError
			if !errors.As(err, &inv) || inv.Field != tt.field || !strings.Contains(err.Error(), tt.problem) {
				t.Fatalf("got %v, want field %q saying %q", err, tt.field, tt.problem)
			}
		})
	}
	t.Run("seed", func(t *testing.T) {
		p, err := DecodeProgress("review_progress.json", readFixture(t, "seed_progress.json"))
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Validate(); err != nil {
			t.Fatalf("the seed's progress fails Validate: %v", err)
		}
	})
}

func TestParseDurationIn(t *testing.T) {
	tests := []struct {
		in      string
		bounds  DurationBounds
		want    time.Duration
		problem string
	}{
		{"15m", StaleAfterBounds, 15 * time.Minute, ""},
		{"120", TimeoutBounds, 2 * time.Minute, ""},
		{"0.5", LockTimeoutBounds, 500 * time.Millisecond, ""},
		{"0", TimeoutBounds, 0, ""},
		{"NaN", TimeoutBounds, 0, "not a duration like 15m"},
		{"Inf", TimeoutBounds, 0, "not a duration like 15m"},
		{"-Inf", TimeoutBounds, 0, "not a duration like 15m"},
		{"soon", StaleAfterBounds, 0, "not a duration like 15m"},
		{"", StaleAfterBounds, 0, "not a duration like 15m"},
		{"-5m", StaleAfterBounds, 0, "negative"},
		{"-1", StaleAfterBounds, 0, "negative"},
		{"1e300", StaleAfterBounds, 0, "out of range: it must be between 1s and 168h"},
		{"1e400", StaleAfterBounds, 0, "out of range"},
		{"99999999999999h", StaleAfterBounds, 0, "out of range"},
		{"169h", StaleAfterBounds, 0, "out of range: it must be between 1s and 168h"},
		{"500ms", StaleAfterBounds, 0, "out of range"},
		{"11m", LockTimeoutBounds, 0, "between 1ms and 10m"},
		{"25h", TimeoutBounds, 0, "between 0s and 24h"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseDurationIn(tt.in, tt.bounds)
			if tt.problem == "" {
				if err != nil || got != tt.want {
					t.Fatalf("got %v, %v; want %v", got, err, tt.want)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.problem) || strings.Contains(err.Error(), "^(") {
				t.Fatalf("got %v, %v; want an error saying %q", got, err, tt.problem)
			}
		})
	}
}

// Config durations are bounded, named, and the gate cannot outlive the lease.
func TestConfigBounds(t *testing.T) {
	tests := []struct{ name, input, field, problem string }{
		{"stale_after overflow", `{"stale_after": 1e300}`, "stale_after", "out of range: it must be between 1s and 168h"},
		{"lock_timeout overflow", `{"lock_timeout": "1e300"}`, "lock_timeout", `field "lock_timeout": "1e300" is out of range: it must be between 1ms and 10m`},
		{"lock_timeout NaN", `{"lock_timeout": "NaN"}`, "lock_timeout", `"NaN" is not a duration like 15m`},
		{"lock_timeout huge", `{"lock_timeout": "9999999999h"}`, "lock_timeout", "out of range"},
		{"negative number", `{"stale_after": -5}`, "stale_after", "negative"},
		{"explicit zero", `{"stale_after": 0}`, "stale_after", "out of range"},
		{"gate outlives lease", `{"preflight": ["./g"], "stale_after": "2m", "preflight_timeout": "5m"}`, "preflight_timeout", `5m is not shorter than "stale_after" (2m)`},
		{"gate outlives default lease", `{"preflight": ["./g"], "preflight_timeout": "20m"}`, "preflight_timeout", `(15m, the default)`},
		{"equal", `{"preflight": ["./g"], "stale_after": "1m", "preflight_timeout": "60"}`, "preflight_timeout", "not shorter"},
		{"a lease too short for any gate", `{"preflight": ["./g"], "stale_after": "1s", "preflight_timeout": "1s"}`, "preflight_timeout", "not shorter"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := DecodeConfig("config.json", []byte(tt.input))
			var inv *InvalidError
			if !errors.As(err, &inv) || inv.Field != tt.field || !strings.Contains(err.Error(), tt.problem) || inv.Hint == "" {
				t.Fatalf("got %v, want field %q saying %q", err, tt.field, tt.problem)
			}
		})
	}
	for _, ok := range []string{`{"stale_after": "2s"}`, `{"stale_after": "1s"}`, `{"stale_after": "2m", "preflight_timeout": "1m"}`, `{"lock_timeout": 0.001}`} {
		c, err := DecodeConfig("config.json", []byte(ok))
		if err != nil {
			t.Errorf("%s: %v", ok, err)
		}
		if eff := c.WithDefaults(); eff.PreflightTimeout >= eff.StaleAfter {
			t.Errorf("%s: effective preflight_timeout %v is not below stale_after %v", ok, eff.PreflightTimeout, eff.StaleAfter)
		}
	}
}

// Validate runs on every commit: it must stay cheap (see docs/performance.md).
func BenchmarkValidateProgress1000(b *testing.B) {
	p := &Progress{Phase: PhaseReviewing, Mode: ModeAuto, StartedAt: baseTime, LastActivity: baseTime, SessionID: "rv-1", Version: 1, RequestID: "r-1", Round: 1}
	for i := 0; i < 1000; i++ {
		f := fmt.Sprintf("src/pkg%d/file%d.go", i/10, i)
		if i < 500 {
			p.FilesReviewed = append(p.FilesReviewed, f)
			p.Findings = append(p.Findings, Finding{File: f, Line: i, Severity: SeverityMinor, Description: "the counter is kept in memory only"})
		} else {
			p.FilesRemaining = append(p.FilesRemaining, f)
		}
	}
	p.FilesTotal, p.FindingsSoFar = 1000, len(p.Findings)
	b.ReportAllocs()
	for b.Loop() {
		if err := p.Validate(); err != nil {
			b.Fatal(err)
		}
	}
}

// The hint of a gate that outlives the lease names a value that the
// bounds accept: half the lease, or a longer lease when half of it is
// below the gate's minimum.
func TestPairHintIsAccepted(t *testing.T) {
	for _, stale := range []string{"1s", "2s", "3s", "2m"} {
		input := `{"preflight": ["./g"], "stale_after": "` + stale + `", "preflight_timeout": "24h"}`
		_, err := DecodeConfig("config.json", []byte(input))
		var inv *InvalidError
		if !errors.As(err, &inv) {
			t.Fatalf("%s: got %v, want the pair refused", stale, err)
		}
		_, value, ok := strings.Cut(inv.Hint, `": "`)
		value, _, _ = strings.Cut(value, `"`)
		if !ok {
			t.Fatalf("%s: hint %q suggests no value", stale, inv.Hint)
		}
		field := "preflight_timeout"
		if strings.HasPrefix(inv.Hint, `raise "stale_after"`) {
			field = "stale_after"
		}
		fixed := `{"preflight": ["./g"], "` + field + `": "` + value + `"` + map[bool]string{true: `, "stale_after": "` + stale + `"}`, false: `, "preflight_timeout": "1s"}`}[field == "preflight_timeout"]
		if _, err := DecodeConfig("config.json", []byte(fixed)); err != nil {
			t.Errorf("stale_after %s: the hint %q leads to %s, which is refused: %v", stale, inv.Hint, fixed, err)
		}
	}
}
