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
	lineNumber  float64 // a loop review issue's line (a number, as that tool has it)
	path        string  // a file of the project
	paths       []string
	mode        string   // auto or manual
	events      []string // history event names
	seconds     float64  // a time-out
	numbers     []int    // findings of the previous round, by their numbers in the briefing
	count       int      // a round or a number of events
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
	names := make([]any, len(protocol.EventNames))
	for i, e := range protocol.EventNames {
		names[i] = string(e)
	}
	find := findingSchema()
	m := map[reflect.Type]*jsonschema.Schema{
		reflect.TypeFor[text]():               str(protocol.MaxTextLength),
		reflect.TypeFor[findingText]():        str(protocol.MaxFindingText),
		reflect.TypeFor[category]():           str(protocol.MaxCategoryLength),
		reflect.TypeFor[name]():               str(protocol.MaxIDLength),
		reflect.TypeFor[path]():               str(protocol.MaxPathLength),
		reflect.TypeFor[paths]():              list(str(protocol.MaxPathLength), protocol.MaxFiles),
		reflect.TypeFor[mode]():               {Type: "string", Enum: []any{string(protocol.ModeAuto), string(protocol.ModeManual)}},
		reflect.TypeFor[events]():             list(&jsonschema.Schema{Type: "string", Enum: names}, len(names)),
		reflect.TypeFor[seconds]():            between("number", 0, protocol.TimeoutBounds.Max.Seconds()),
		reflect.TypeFor[numbers]():            list(between("integer", 1, protocol.MaxFindings), protocol.MaxFindings),
		reflect.TypeFor[count]():              between("integer", 0, review.MaxHistoryLast),
		reflect.TypeFor[protocol.Finding]():   find,
		reflect.TypeFor[[]protocol.Finding](): list(find, protocol.MaxIssues),
		reflect.TypeFor[lineNumber]():         between("number", 0, protocol.MaxLine),
	}
	is, err := jsonschema.For[issue](&jsonschema.ForOptions{TypeSchemas: m})
	if err != nil {
		panic(err)
	}
	m[reflect.TypeFor[[]issue]()] = list(is, protocol.MaxIssues)
	return m
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
