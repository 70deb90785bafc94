package mcpserver

import (
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/specdev/specdev/protocol"
	"github.com/specdev/specdev/review"
	"github.com/specdev/specdev/schemas"
)

// The kinds of tool input, each with the bounds of the file it ends up
// in (protocol's limits), so that the input schema every tool publishes
// refuses an oversized or mistyped value before anything runs.
type (
	text        string  // notes, summaries, guidance, intent
	findingText string  // a finding's description or suggestion
	category    string  // a finding's category (the loop review's issue type)
	name        string  // an assignment, gate, group, revision or task id
	path        string  // a file of the project
	mode        string  // auto or manual
	event       string  // a history event name
	seconds     float64 // a time-out
	number      int     // a finding of the previous round, by its number in the briefing
	count       int     // a round or a number of events
)

// inputSchema is the input schema of a tool taking In: inferred from its
// fields, with the bounds of each kind, and a finding as the published
// findings schema defines it.
func inputSchema[In any]() *jsonschema.Schema {
	s, err := jsonschema.For[In](&jsonschema.ForOptions{TypeSchemas: kinds()})
	if err != nil {
		panic(fmt.Sprintf("input schema of %T: %v", *new(In), err)) // the types above are fixed: a test calls every one
	}
	return s
}

func kinds() map[reflect.Type]*jsonschema.Schema {
	str := func(max int) *jsonschema.Schema {
		return &jsonschema.Schema{Type: "string", MaxLength: jsonschema.Ptr(max)}
	}
	list := func(items *jsonschema.Schema, max int) *jsonschema.Schema {
		return &jsonschema.Schema{Type: "array", Items: items, MaxItems: jsonschema.Ptr(max)}
	}
	between := func(typ string, min, max float64) *jsonschema.Schema {
		return &jsonschema.Schema{Type: typ, Minimum: jsonschema.Ptr(min), Maximum: jsonschema.Ptr(max)}
	}
	events := make([]any, len(review.HistoryEvents))
	for i, e := range review.HistoryEvents {
		events[i] = string(e)
	}
	find := findingSchema()
	return map[reflect.Type]*jsonschema.Schema{
		reflect.TypeFor[text]():               str(protocol.MaxTextLength),
		reflect.TypeFor[findingText]():        str(protocol.MaxFindingText),
		reflect.TypeFor[category]():           str(protocol.MaxCategoryLength),
		reflect.TypeFor[name]():               str(protocol.MaxIDLength),
		reflect.TypeFor[path]():               str(protocol.MaxPathLength),
		reflect.TypeFor[[]path]():             list(str(protocol.MaxPathLength), protocol.MaxFiles),
		reflect.TypeFor[mode]():               {Type: "string", Enum: []any{string(protocol.ModeAuto), string(protocol.ModeManual)}},
		reflect.TypeFor[[]event]():            list(&jsonschema.Schema{Type: "string", Enum: events}, len(events)),
		reflect.TypeFor[seconds]():            between("number", 0, protocol.TimeoutBounds.Max.Seconds()),
		reflect.TypeFor[[]number]():           list(between("integer", 1, protocol.MaxFindings), protocol.MaxFindings),
		reflect.TypeFor[count]():              between("integer", 0, review.MaxHistoryLast),
		reflect.TypeFor[protocol.Finding]():   find,
		reflect.TypeFor[[]protocol.Finding](): list(find, protocol.MaxIssues),
		reflect.TypeFor[[]issue]():            list(issueSchema(), protocol.MaxIssues),
	}
}

// findingSchema is the finding of schemas/findings.schema.json, the
// definition every published schema with a finding shares.
func findingSchema() *jsonschema.Schema {
	data, err := schemas.Get("findings")
	if err != nil {
		panic(err)
	}
	var doc struct {
		Defs struct {
			Finding *jsonschema.Schema `json:"finding"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(data, &doc); err != nil || doc.Defs.Finding == nil {
		panic(fmt.Sprintf("the findings schema has no finding: %v", err))
	}
	return doc.Defs.Finding
}

// issueSchema is an issue of the parallel-loop reviews' result tool:
// its fields and types as that tool defines them, with the bounds of the
// finding it becomes and no unknown field.
func issueSchema() *jsonschema.Schema {
	str := func(max int, desc string) *jsonschema.Schema {
		return &jsonschema.Schema{Type: "string", MaxLength: jsonschema.Ptr(max), Description: desc}
	}
	return &jsonschema.Schema{Type: "object", AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}},
		Properties: map[string]*jsonschema.Schema{
			"file":        str(protocol.MaxPathLength, "the file, from the project root"),
			"line":        {Type: "number", Minimum: jsonschema.Ptr(0.0), Maximum: jsonschema.Ptr(float64(protocol.MaxLine)), Description: "1-based line; 0 or absent for the whole file"},
			"type":        str(protocol.MaxCategoryLength, "over-engineering, missing-error-handling, pattern-violation, dead-code, spec-intent-mismatch, …"),
			"description": str(protocol.MaxFindingText, "what is wrong"),
			"suggestion":  str(protocol.MaxFindingText, "how to fix it"),
		},
		PropertyOrder: []string{"file", "line", "type", "description", "suggestion"}}
}
