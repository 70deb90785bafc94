package protocol

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/specdev/specdev/schemas"
)

// The Go limits and the schemas state the same numbers: change one and
// this test asks you to change the other.
func TestLimitsMatchSchemas(t *testing.T) {
	tests := []struct {
		schema, pointer string
		want            float64
	}{
		{"request", "/properties/request_id/maxLength", MaxIDLength},
		{"request", "/properties/assignment_path/maxLength", MaxPathLength},
		{"request", "/properties/gate/maxLength", MaxIDLength},
		{"request", "/properties/group/maxLength", MaxIDLength},
		{"config", "/properties/checkpoint_every/maximum", MaxCheckpointEvery},
		{"request", "/properties/notes/maxLength", MaxTextLength},
		{"request", "/properties/reviewer_notes/maxLength", MaxTextLength},
		{"request", "/properties/guidance/maxLength", MaxTextLength},
		{"request", "/properties/changed_files/maxItems", MaxFiles},
		{"request", "/properties/changed_files/items/maxLength", MaxPathLength},
		{"request", "/properties/round/maximum", MaxRound},
		{"request", "/properties/max_rounds/maximum", MaxRound},
		{"request", "/properties/version/maximum", RequestVersion},
		{"progress", "/properties/files_total/maximum", MaxFiles},
		{"progress", "/properties/files_reviewed/maxItems", MaxFiles},
		{"progress", "/properties/findings/maxItems", MaxFindings},
		{"progress", "/properties/findings_so_far/maximum", MaxFindings},
		{"progress", "/properties/session_id/maxLength", MaxSessionLength},
		{"request", "/properties/reviewer_session_id/maxLength", MaxSessionLength},
		{"progress", "/properties/takeovers/maxItems", MaxTakeovers},
		{"progress", "/properties/previous_rounds/maxItems", MaxRound},
		{"progress", "/properties/version/maximum", ProgressVersion},
		{"progress", "/$defs/preflight/properties/command/maxItems", MaxArgs},
		{"progress", "/$defs/preflight/properties/exit_code/minimum", MinExitCode},
		{"progress", "/$defs/preflight/properties/exit_code/maximum", MaxExitCode},
		{"progress", "/$defs/preflight/properties/duration_ms/maximum", MaxDurationMS},
		{"progress", "/$defs/preflight/properties/output/maxLength", MaxTextLength},
		{"progress", "/$defs/verdict/properties/summary/maxLength", MaxTextLength},
		{"progress", "/$defs/verdict/properties/issues/maxItems", MaxIssues},
		{"progress", "/$defs/decision/properties/notes/maxLength", MaxTextLength},
		{"verdict", "/properties/issues/maxItems", MaxIssues},
		{"verdict", "/properties/summary/maxLength", MaxTextLength},
		{"findings", "/maxItems", MaxIssues},
		{"history", "/properties/detail/maxProperties", MaxDetailKeys},
		{"history", "/properties/round/maximum", MaxRound},
		{"config", "/properties/max_rounds/maximum", MaxConfigRounds},
		{"config", "/properties/preflight/maxItems", MaxArgs},
		{"config", "/properties/stale_after/anyOf/1/minimum", StaleAfterBounds.Min.Seconds()},
		{"config", "/properties/stale_after/anyOf/1/maximum", StaleAfterBounds.Max.Seconds()},
		{"config", "/properties/lock_timeout/anyOf/1/minimum", LockTimeoutBounds.Min.Seconds()},
		{"config", "/properties/lock_timeout/anyOf/1/maximum", LockTimeoutBounds.Max.Seconds()},
		{"config", "/properties/preflight_timeout/anyOf/1/minimum", PreflightTimeoutBounds.Min.Seconds()},
		{"config", "/properties/preflight_timeout/anyOf/1/maximum", PreflightTimeoutBounds.Max.Seconds()},
	}
	for _, sch := range []string{"findings", "verdict", "progress"} {
		for field, want := range map[string]float64{
			"file/maxLength": MaxPathLength, "line/maximum": MaxLine, "category/maxLength": MaxCategoryLength,
			"description/maxLength": MaxFindingText, "suggestion/maxLength": MaxFindingText,
		} {
			tests = append(tests, struct {
				schema, pointer string
				want            float64
			}{sch, "/$defs/finding/properties/" + field, want})
		}
	}
	for _, tt := range tests {
		t.Run(tt.schema+tt.pointer, func(t *testing.T) {
			got, ok := schemaNumber(t, tt.schema, tt.pointer)
			if !ok || got != tt.want {
				t.Fatalf("schema %s %s = %v (found %v), Go says %v", tt.schema, tt.pointer, got, ok, tt.want)
			}
		})
	}
	t.Run("patterns", func(t *testing.T) {
		for _, tt := range []struct{ pointer, want string }{
			{"/properties/gate/pattern", NamePattern},
			{"/properties/fingerprint/pattern", FingerprintPattern},
			{"/properties/reviewer_session_id/pattern", SessionPattern},
		} {
			if got := schemaValue(t, "request", tt.pointer); got != tt.want {
				t.Errorf("request %s = %v, Go says %q", tt.pointer, got, tt.want)
			}
		}
	})
}

func schemaValue(t *testing.T, name, pointer string) any {
	t.Helper()
	data, err := schemas.Get(name)
	if err != nil {
		t.Fatal(err)
	}
	var doc any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	return valueAt(doc, pointer)
}

func schemaNumber(t *testing.T, name, pointer string) (float64, bool) {
	v, ok := schemaValue(t, name, pointer).(float64)
	return v, ok
}

func TestShortDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		7 * 24 * time.Hour: "168h", 10 * time.Minute: "10m", 90 * time.Second: "1m30s",
		time.Millisecond: "1ms", 0: "0s", time.Hour + time.Second: "1h0m1s",
	} {
		if got := ShortDuration(d); got != want {
			t.Errorf("ShortDuration(%v) = %q, want %q", d, got, want)
		}
	}
}

// Every value a schema allows is bounded: each string has a maxLength (or
// is an enum, a timestamp or a duration), each list a maxItems, each
// number a maximum. A field added without a bound fails here.
func TestSchemasBoundEverything(t *testing.T) {
	typed := 0
	defer func() {
		if typed < 100 {
			t.Errorf("only %d typed values seen: the walk misses the schemas", typed)
		}
	}()
	for _, name := range schemas.Names() {
		data, err := schemas.Get(name)
		if err != nil {
			t.Fatal(err)
		}
		var doc any
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		walkSchema(doc, name+"#", func(at string, s map[string]any) {
			_, hasEnum := s["enum"]
			_, hasFormat := s["format"]
			_, hasAnyOf := s["anyOf"]
			if s["type"] != nil {
				typed++
			}
			switch s["type"] {
			case "string":
				if _, ok := s["maxLength"]; !ok && !hasEnum && !hasFormat && !hasAnyOf && s["pattern"] == nil {
					t.Errorf("%s: a string without maxLength", at)
				}
			case "array":
				if _, ok := s["maxItems"]; !ok {
					t.Errorf("%s: a list without maxItems", at)
				}
			case "integer", "number":
				if _, ok := s["maximum"]; !ok {
					t.Errorf("%s: a number without maximum", at)
				}
			}
		})
	}
}

// walkSchema calls visit for every schema object in doc.
func walkSchema(doc any, at string, visit func(string, map[string]any)) {
	switch v := doc.(type) {
	case map[string]any:
		visit(at, v)
		for k, child := range v {
			if k != "enum" && k != "const" && k != "required" {
				walkSchema(child, at+"/"+k, visit)
			}
		}
	case []any:
		for i, child := range v {
			walkSchema(child, fmt.Sprintf("%s/%d", at, i), visit)
		}
	}
}
