package mcpserver

import (
	"context"
	"encoding/json"
	"maps"
	"reflect"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/specdev/specdev/protocol"
	"github.com/specdev/specdev/schemas"
)

// Bad tool input gets a tool error with code USAGE or INVALID, and
// writes nothing: wrong types, unknown fields, oversized strings, values
// out of bounds, a finding the findings schema refuses.
func TestBadInputIsAToolErrorAndWritesNothing(t *testing.T) {
	p := newProject(t, "")
	p.write("a.go", "package a\n")
	impl := p.connect("", nil)
	rev := p.connect("rv-bad", nil)
	must(t, call(t, impl, "request_review", map[string]any{"files": []string{"a.go"}}), "OK")
	must(t, call(t, rev, "claim_review", map[string]any{}), "OK")
	huge := strings.Repeat("é", protocol.MaxTextLength+1)
	tests := []struct {
		name, tool string
		args       any
		code, says string
	}{
		{"wrong type", "request_review", map[string]any{"notes": 42}, "USAGE", "notes"},
		{"unknown field", "give_verdict", map[string]any{"passed": true, "pased": true}, "USAGE", "pased"},
		{"case-folded field", "give_verdict", map[string]any{"Passed": true}, "USAGE", "Passed"},
		{"missing field", "give_verdict", map[string]any{"summary": "no outcome"}, "USAGE", "passed"},
		{"huge string", "request_review", map[string]any{"notes": huge}, "USAGE", "notes"},
		{"huge finding", "record_file", map[string]any{"file": "a.go", "findings": []map[string]any{
			{"severity": "minor", "description": strings.Repeat("x", protocol.MaxFindingText+1)}}}, "USAGE", "description"},
		{"unknown severity", "record_file", map[string]any{"file": "a.go", "findings": []map[string]any{
			{"severity": "blocker", "description": "x"}}}, "USAGE", "severity"},
		{"finding of another file", "record_file", map[string]any{"file": "a.go", "findings": []map[string]any{
			{"file": "b.go", "severity": "minor", "description": "x"}}}, "INVALID", "b.go"},
		{"file outside the review", "record_file", map[string]any{"file": "../../etc/passwd"}, "USAGE", "passwd"},
		{"negative line", "record_file", map[string]any{"file": "a.go", "findings": []map[string]any{
			{"severity": "minor", "line": -1, "description": "x"}}}, "USAGE", "line"},
		{"time-out too long", "wait_for_verdict", map[string]any{"timeout": 1e9}, "USAGE", "timeout"},
		{"unknown mode", "claim_review", map[string]any{"mode": "fast"}, "USAGE", "mode"},
		{"loop issue with a fraction of a line", "set_loop_review_result", map[string]any{"loopId": assignment, "passed": false,
			"issues": []map[string]any{{"file": "a.go", "line": 1.5, "description": "x"}}}, "USAGE", "1.5"},
		{"loop issue with an unknown field", "set_loop_review_result", map[string]any{"loopId": assignment, "passed": false,
			"issues": []map[string]any{{"file": "a.go", "severity": "minor", "description": "x"}}}, "USAGE", "severity"},
		{"loop issue without a description", "set_loop_review_result", map[string]any{"loopId": assignment, "passed": false,
			"issues": []map[string]any{{"file": "a.go"}, {"file": "a.go", "description": "fine"}}}, "INVALID", "description"},
		{"loop fail without issues", "set_loop_review_result", map[string]any{"loopId": assignment, "passed": false}, "USAGE", "issues"},
		{"loop review of another assignment", "set_loop_review_result", map[string]any{"loopId": "00009", "passed": true}, "USAGE", "00009"},
		{"unknown event", "history", map[string]any{"events": []string{"merged"}}, "USAGE", "events"},
	}
	before := p.snapshot()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs := rev
			if tt.tool == "request_review" || tt.tool == "wait_for_verdict" || tt.tool == "history" {
				cs = impl
			}
			a := call(t, cs, tt.tool, tt.args)
			if !a.IsError || a.Error == nil || a.Code != tt.code || a.Error.Code != tt.code {
				t.Fatalf("got error %v code %s, want a tool error with code %s; text:\n%s", a.IsError, a.Code, tt.code, a.Text)
			}
			if !strings.Contains(a.Error.Message, tt.says) || !strings.Contains(a.Text, a.Error.Message[:min(40, len(a.Error.Message))]) {
				t.Errorf("message %q does not name %q (or the text does not carry it: %q)", a.Error.Message, tt.says, a.Text)
			}
			t.Log(a.Text)
			if len(a.Text) > 2000 {
				t.Errorf("the error quotes the whole input (%d bytes)", len(a.Text))
			}
		})
	}
	if after := p.snapshot(); !maps.Equal(before, after) {
		for k, v := range after {
			if before[k] != v {
				t.Errorf("%s changed", k)
			}
		}
	}
}

// Every tool publishes an input schema; a finding in it is the published
// findings schema's, and set_loop_review_result's is the parallel-loop
// reviews' tool schema (its fields, types and required fields), bounded.
func TestInputSchemas(t *testing.T) {
	p := newProject(t, "")
	cs := p.connect("", nil)
	tools := map[string]*mcp.Tool{}
	for tool, err := range cs.Tools(context.Background(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		tools[tool.Name] = tool
	}
	want := []string{"request_review", "review_status", "wait_for_verdict", "continue_after_pause", "cancel", "claim_review",
		"record_file", "give_verdict", "release_review", "set_loop_review_result", "status", "history", "gate"}
	for _, name := range want {
		if tools[name] == nil {
			t.Errorf("no tool %s", name)
		}
	}
	if len(tools) != len(want) {
		t.Errorf("%d tools, want %d", len(tools), len(want))
	}
	schema := func(name string) *jsonschema.Schema {
		var s jsonschema.Schema
		raw, _ := json.Marshal(tools[name].InputSchema)
		if err := json.Unmarshal(raw, &s); err != nil {
			t.Fatal(err)
		}
		return &s
	}
	published := findingSchema()
	for _, tt := range []struct{ tool, prop string }{{"record_file", "findings"}, {"give_verdict", "issues"}} {
		got := schema(tt.tool).Properties[tt.prop].Items
		if !reflect.DeepEqual(jsonOf(t, got), jsonOf(t, published)) {
			t.Errorf("%s.%s items = %s, want the findings schema's finding %s", tt.tool, tt.prop, jsonOf(t, got), jsonOf(t, published))
		}
	}
	data, _ := schemas.Get("verdict")
	var verdict struct {
		Defs map[string]any `json:"$defs"`
	}
	json.Unmarshal(data, &verdict)
	if !reflect.DeepEqual(verdict.Defs["finding"], jsonOf(t, published)) {
		t.Errorf("the verdict schema's finding differs from the findings schema's")
	}

	loop := schema("set_loop_review_result")
	seed := map[string]string{"loopId": "string", "taskId": "string", "passed": "boolean", "interpretedIntent": "string",
		"intentSatisfied": "boolean", "issues": "array"}
	for prop, typ := range seed {
		s := loop.Properties[prop]
		if s == nil || (s.Type != typ && !strings.Contains(strings.Join(s.Types, ","), typ)) {
			t.Errorf("set_loop_review_result.%s: %s, want type %s", prop, jsonOf(t, s), typ)
		}
	}
	if len(loop.Properties) != len(seed) || strings.Join(loop.Required, ",") != "loopId,passed" {
		t.Errorf("set_loop_review_result properties %d, required %v; want the seed's six, loopId and passed", len(loop.Properties), loop.Required)
	}
	issue := loop.Properties["issues"].Items
	for prop, typ := range map[string]string{"file": "string", "line": "number", "type": "string", "description": "string", "suggestion": "string"} {
		if s := issue.Properties[prop]; s == nil || s.Type != typ {
			t.Errorf("issue.%s: want type %s", prop, typ)
		}
	}
	if len(issue.Properties) != 5 || issue.Properties["description"].MaxLength == nil || loop.Properties["interpretedIntent"].MaxLength == nil {
		t.Errorf("issue schema %s: want the seed's five fields, bounded", jsonOf(t, issue))
	}
}

func jsonOf(t *testing.T, v any) any {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	json.Unmarshal(raw, &out)
	return out
}

// request_review takes what work request takes for parallel loops: the
// loop's effort level, and how many loops its group waits for.
func TestRequestReviewTakesEffortAndExpect(t *testing.T) {
	p := newProject(t, "")
	p.write("a.go", "package a\n")
	impl := p.connect("", nil)
	must(t, call(t, impl, "request_review", map[string]any{"files": []string{"a.go"}, "group": "api", "expect": 2, "effort": "low"}), "OK")
	if req := p.read(".specdev/assignments/" + assignment + "/review_request.json"); !strings.Contains(req, `"effort": "low"`) {
		t.Errorf("the request does not keep the effort level:\n%s", req)
	}
	if group := p.read(".specdev/groups/api.json"); !strings.Contains(group, `"expect": 2`) {
		t.Errorf("the group does not wait for 2 loops:\n%s", group)
	}
	for _, args := range []map[string]any{{"effort": "huge"}, {"expect": 2}, {"group": "api", "expect": 0.5}} {
		if a := call(t, impl, "request_review", args); !a.IsError || a.Code != "USAGE" {
			t.Errorf("request_review %v: got code %s, want USAGE; text:\n%s", args, a.Code, a.Text)
		}
	}
}
