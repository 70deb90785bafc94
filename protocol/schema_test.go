package protocol

// The JSON Schemas are the published contract of every file (`specdev
// schema NAME` prints them); at run time specdev checks files with its own
// decoder and Validate methods, and TestValidateAgreesWithSchemas holds the
// two to the same verdicts. This file is the only one that imports the
// JSON Schema library, so that a move from jsonschema/v5 to v6 touches it
// alone.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/specdev/specdev/schemas"
)

type compiledSchema struct {
	once   sync.Once
	schema *jsonschema.Schema
	doc    map[string]any // the schema itself, to list valid field names
	err    error
}

var compiled sync.Map // schema name -> *compiledSchema

// schemaFor compiles the embedded schema called name, once per process.
func schemaFor(name string) (*compiledSchema, error) {
	v, _ := compiled.LoadOrStore(name, &compiledSchema{})
	cs := v.(*compiledSchema)
	cs.once.Do(func() {
		data, err := schemas.Get(name)
		if err != nil {
			cs.err = err
			return
		}
		cs.schema, cs.doc, cs.err = compileSchema(name, data)
	})
	if cs.err != nil {
		return nil, fmt.Errorf("compile schema %s: %w", name, cs.err)
	}
	return cs, nil
}

// compileSchema compiles the schema text data, published as name.
func compileSchema(name string, data []byte) (*jsonschema.Schema, map[string]any, error) {
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, nil, err
	}
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	c.AssertFormat = true
	url := "https://specdev.dev/schemas/" + name + ".schema.json" // the schema's $id
	if err := c.AddResource(url, bytes.NewReader(data)); err != nil {
		return nil, nil, err
	}
	schema, err := c.Compile(url)
	return schema, doc, err
}

// schemaVerdict checks a JSON document against a compiled schema: nil, an
// *InvalidError naming the field as the decoder would, or another error
// if data is not one JSON value.
func (cs *compiledSchema) verdict(name, file string, data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return err
	}
	err := cs.schema.Validate(doc)
	var verr *jsonschema.ValidationError
	if !errors.As(err, &verr) {
		return err
	}
	return cs.describe(name, file, doc, deepestCause(verr))
}

// deepestCause picks the violation deepest in the document: the most
// specific thing to tell the user.
func deepestCause(e *jsonschema.ValidationError) *jsonschema.ValidationError {
	best := e
	for _, c := range e.Causes {
		leaf := deepestCause(c)
		if depth(leaf.InstanceLocation) > depth(best.InstanceLocation) || best == e {
			best = leaf
		}
	}
	return best
}

func depth(pointer string) int { return strings.Count(pointer, "/") }

// describe names the field a violation is about as the decoder would:
// the unknown keys of an object, else the first required key missing
// (when both, the unknown ones: a misspelling of the missing key).
func (cs *compiledSchema) describe(name, file string, doc any, e *jsonschema.ValidationError) *InvalidError {
	field := fieldPath(e.InstanceLocation)
	loc := e.AbsoluteKeywordLocation
	switch e.KeywordLocation[strings.LastIndex(e.KeywordLocation, "/")+1:] {
	case "additionalProperties":
		unknown := unknownKeys(valueAt(doc, e.InstanceLocation), cs.propertiesAt(loc))
		return &InvalidError{File: file, Field: joinField(field, strings.Join(unknown, ", ")), Problem: "unknown field"}
	case "required":
		obj := valueAt(doc, e.InstanceLocation)
		if unknown := unknownKeys(obj, cs.propertiesAt(loc)); len(unknown) > 0 && cs.strictAt(loc) {
			return &InvalidError{File: file, Field: joinField(field, strings.Join(unknown, ", ")), Problem: "unknown field"}
		}
		missing := missingKeys(obj, cs.requiredAt(loc))
		return &InvalidError{File: file, Field: joinField(field, missing[0]), Problem: "required field is missing"}
	}
	return &InvalidError{File: file, Field: field, Problem: e.Message}
}

// fieldPath turns a JSON pointer (/changed_files/2) into changed_files[2].
func fieldPath(pointer string) string {
	var b strings.Builder
	for _, part := range strings.Split(strings.TrimPrefix(pointer, "/"), "/") {
		if part == "" {
			continue
		}
		part = strings.NewReplacer("~1", "/", "~0", "~").Replace(part)
		if _, err := strconv.Atoi(part); err == nil {
			b.WriteString("[" + part + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(part)
	}
	return b.String()
}

func joinField(parent, child string) string {
	if parent == "" {
		return child
	}
	if strings.HasPrefix(child, "[") {
		return parent + child
	}
	return parent + "." + child
}

// schemaAt returns the schema object that holds the failing keyword.
func (cs *compiledSchema) schemaAt(absKeywordLocation string) map[string]any {
	_, frag, _ := strings.Cut(absKeywordLocation, "#")
	obj, _ := valueAt(cs.doc, frag[:max(strings.LastIndex(frag, "/"), 0)]).(map[string]any)
	return obj
}

func (cs *compiledSchema) propertiesAt(loc string) []string {
	props, _ := cs.schemaAt(loc)["properties"].(map[string]any)
	names := make([]string, 0, len(props))
	for name := range props {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// strictAt reports whether the object schema refuses unknown fields.
func (cs *compiledSchema) strictAt(loc string) bool {
	additional, ok := cs.schemaAt(loc)["additionalProperties"].(bool)
	return ok && !additional
}

func (cs *compiledSchema) requiredAt(loc string) []string {
	list, _ := cs.schemaAt(loc)["required"].([]any)
	var names []string
	for _, v := range list {
		if s, ok := v.(string); ok {
			names = append(names, s)
		}
	}
	return names
}

// valueAt follows a JSON pointer into a decoded document.
func valueAt(doc any, pointer string) any {
	cur := doc
	for _, part := range strings.Split(strings.TrimPrefix(pointer, "/"), "/") {
		if part == "" {
			continue
		}
		part = strings.NewReplacer("~1", "/", "~0", "~").Replace(part)
		switch v := cur.(type) {
		case map[string]any:
			cur = v[part]
		case []any:
			i, err := strconv.Atoi(part)
			if err != nil || i < 0 || i >= len(v) {
				return nil
			}
			cur = v[i]
		default:
			return nil
		}
	}
	return cur
}

func unknownKeys(obj any, valid []string) []string {
	m, _ := obj.(map[string]any)
	var unknown []string
	for key := range m {
		if !containsString(valid, key) {
			unknown = append(unknown, key)
		}
	}
	sort.Strings(unknown)
	return unknown
}

func missingKeys(obj any, required []string) []string {
	m, _ := obj.(map[string]any)
	var missing []string
	for _, key := range required {
		if _, ok := m[key]; !ok {
			missing = append(missing, key)
		}
	}
	return missing
}

func containsString(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
