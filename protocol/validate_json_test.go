package protocol

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/specdev/specdev/schemas"
)

// TestShapeAgreesWithSchemasOnJSON is TestValidateAgreesWithSchemas for
// documents no Go value encodes to: at every place of each file's base
// document, the value is replaced by values of every JSON kind (null,
// booleans, integers written 3.0 and 1e3, fractions, strings, lists and
// objects), the key is removed, and every object gains an unknown key.
// The decoder's shape checks and the schema must agree on each.
func TestShapeAgreesWithSchemasOnJSON(t *testing.T) {
	for _, root := range propertyRoots() {
		t.Run(root.name, func(t *testing.T) {
			t.Parallel()
			cs, err := schemaFor(root.schema)
			if err != nil {
				t.Fatal(err)
			}
			problems, n := root.jsonSweep(t, cs)
			for _, p := range problems {
				t.Error(p)
			}
			t.Logf("%d documents checked", n)
		})
	}
}

// jsonCandidates replace a value, one JSON kind or edge each.
var jsonCandidates = []string{
	`null`, `true`, `false`, `0`, `1`, `-1`, `2`, `3.0`, `1e3`, `2.5`, `-0.0`, `1e400`,
	`""`, `"x"`, `"pending"`, `"2026-02-11T10:30:00Z"`, `[]`, `["x"]`, `[1]`, `[{}]`, `{}`, `{"x_unknown": 1}`,
}

// jsonSweep checks every mutation of the root's base document.
func (r propertyRoot) jsonSweep(t *testing.T, cs *compiledSchema) (problems []string, n int) {
	base, err := r.encode()
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(base))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	try := func(what string, changed any) {
		data, err := json.Marshal(changed)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		n++
		if problem := r.disagreement(cs, data); problem != "" {
			problems = append(problems, what+": "+problem)
		}
	}
	for _, path := range jsonPaths(doc, nil) {
		where := "/" + strings.Join(path, "/")
		for _, c := range jsonCandidates {
			try(where+" = "+c, replaced(doc, path, json.RawMessage(c)))
		}
		if len(path) > 0 {
			if _, ok := parentOf(doc, path).(map[string]any); ok {
				try(where+" removed", replaced(doc, path, nil))
			}
		}
		if obj, ok := valueAtPath(doc, path).(map[string]any); ok {
			grown := maps.Clone(obj)
			grown["x_unknown"] = json.RawMessage(`1`)
			try(where+" with an unknown key", replaced(doc, path, grown))
		}
	}
	return problems, n
}

// jsonPaths lists the path of every value in doc (keys and indices).
func jsonPaths(doc any, at []string) [][]string {
	paths := [][]string{slices.Clone(at)}
	switch v := doc.(type) {
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(v)) {
			paths = append(paths, jsonPaths(v[k], append(at, k))...)
		}
	case []any:
		for i, item := range v {
			paths = append(paths, jsonPaths(item, append(at, fmt.Sprint(i)))...)
		}
	}
	return paths
}

func valueAtPath(doc any, path []string) any {
	for _, step := range path {
		switch v := doc.(type) {
		case map[string]any:
			doc = v[step]
		case []any:
			var i int
			fmt.Sscan(step, &i)
			doc = v[i]
		}
	}
	return doc
}

func parentOf(doc any, path []string) any { return valueAtPath(doc, path[:len(path)-1]) }

// replaced returns doc with the value at path set to v (removed if nil),
// copying only the objects and lists on the way.
func replaced(doc any, path []string, v any) any {
	if len(path) == 0 {
		return v
	}
	switch c := doc.(type) {
	case map[string]any:
		out := maps.Clone(c)
		if len(path) == 1 && v == nil {
			delete(out, path[0])
		} else {
			out[path[0]] = replaced(c[path[0]], path[1:], v)
		}
		return out
	case []any:
		out := slices.Clone(c)
		var i int
		fmt.Sscan(path[0], &i)
		out[i] = replaced(c[i], path[1:], v)
		return out
	}
	return doc
}

// TestAgreementCatchesADoctoredSchema: the two sweeps above can fail. A
// schema changed in each way the decoder and the schemas could drift
// apart — a bound, a required key, a closed object, a length — makes
// them report a disagreement naming that field.
func TestAgreementCatchesADoctoredSchema(t *testing.T) {
	roots := map[string]propertyRoot{}
	for _, r := range propertyRoots() {
		roots[r.name] = r
	}
	tests := []struct {
		root, old, new, field string
		values                bool // the Go-value sweep finds it (else the JSON sweep)
	}{
		{"config", `"minimum": 1,
      "maximum": 1000,
      "description": "explicit review round limit`, `"minimum": 1,
      "maximum": 999,
      "description": "explicit review round limit`, "config.max_rounds = 1000", true},
		{"verdict", `"required": [
    "passed"
  ],`, `"required": [],`, "/passed removed", false},
		{"progress", `"finding": {
      "type": "object",
      "additionalProperties": true,`, `"finding": {
      "type": "object",
      "additionalProperties": false,`, "/findings/0 with an unknown key", false},
		{"request", `"minLength": 1,
        "maxLength": 4096,
        "description": "repo-relative path: no leading /, no .. element"`, `"minLength": 1,
        "maxLength": 4095,
        "description": "repo-relative path: no leading /, no .. element"`, "request.changed_files = a path at the limit", true},
	}
	for _, tt := range tests {
		t.Run(tt.root+" "+tt.field, func(t *testing.T) {
			r := roots[tt.root]
			text, err := schemas.Get(r.schema)
			if err != nil {
				t.Fatal(err)
			}
			if bytes.Count(text, []byte(tt.old)) != 1 {
				t.Fatalf("the schema %s does not hold %q once", r.schema, tt.old)
			}
			doctored := bytes.Replace(text, []byte(tt.old), []byte(tt.new), 1)
			cs := &compiledSchema{}
			if cs.schema, cs.doc, err = compileSchema(r.schema, doctored); err != nil {
				t.Fatal(err)
			}
			var problems []string
			if tt.values {
				problems, _ = r.sweep(cs, strings.Fields(tt.field)[0])
			} else {
				problems, _ = r.jsonSweep(t, cs)
			}
			if !slices.ContainsFunc(problems, func(p string) bool { return strings.Contains(p, tt.field) }) {
				t.Errorf("no disagreement mentions %q; found %d: %.3q", tt.field, len(problems), problems)
			}
		})
	}
}
