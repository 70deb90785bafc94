package protocol

import (
	"cmp"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/go-json-experiment/json/jsontext"
)

// plan is what the decoder knows of a struct type.
type plan struct {
	fields   map[string]*field // by JSON name
	names    []string          // sorted, for "valid fields are"
	required []*field          // in field order
	checked  []*field          // the fields with a check tag, in field order
	shaped   bool              // the type has shape rules of its own (a shaper)
	semantic bool              // the type has rules no schema can state (a semanticist)
	closed   bool              // refuses unknown keys in every document
	extra    int               // index of the Extra field, or -1
	version  int               // the newest "version" this build reads; 0: none
}

type field struct {
	index   int    // in the struct
	bit     uint64 // of the field among the struct's JSON fields
	name    string
	typ     reflect.Type
	how     how    // which reader reads it
	elem    *plan  // of a list of objects, its items
	want    string // what it takes, for "expected X, but got Y"
	kinds   string // the kinds of JSON value (jsontext.Kind) that are one
	nonzero bool
	rule    rule           // its shape rule (validate_tags.go)
	within  DurationBounds // of a duration
}

var (
	plans         sync.Map // reflect.Type -> *plan
	extraType     = reflect.TypeFor[Extra]()
	timestampType = reflect.TypeFor[Timestamp]()
	durationType  = reflect.TypeFor[Duration]()
)

// how is which of the decoder's readers reads a field (jsonscalar.go,
// readerOf); byV2 leaves it to v2.
type how uint8

const (
	byV2 how = iota
	asString
	asInteger
	asTime
	asDuration
	asObjects
	asStrings
	asDict
)

// planOf returns the plan of the struct type t, built once.
func planOf(t reflect.Type) *plan {
	if p, ok := plans.Load(t); ok {
		return p.(*plan)
	}
	p, _ := plans.LoadOrStore(t, structPlan(t))
	return p.(*plan)
}

func structPlan(t reflect.Type) *plan {
	p := &plan{fields: map[string]*field{}, closed: closedTypes[t], extra: -1, version: newestVersion[t],
		shaped: reflect.PointerTo(t).Implements(reflect.TypeFor[shaper]()), semantic: reflect.PointerTo(t).Implements(reflect.TypeFor[semanticist]())}
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if sf.Type == extraType {
			p.extra = i
			continue
		}
		if name == "" || name == "-" || !sf.IsExported() {
			continue
		}
		if len(p.fields) == 64 {
			panic("protocol: a struct of more than 64 JSON fields: " + t.String())
		}
		f := &field{index: i, bit: 1 << len(p.fields), name: name, typ: sf.Type, nonzero: sf.Tag.Get("specdev") == "nonzero"}
		if f.how, f.want, f.kinds = readerOf(sf.Type); f.how == asObjects {
			f.elem = planOf(sf.Type.Elem())
		}
		if tag := sf.Tag.Get("check"); tag != "" {
			f.within = ruleSpecs()[tag].within // of a duration
			f.rule = ruleOf(tag, sf, p.version)
			p.checked = append(p.checked, f)
		}
		if sf.Tag.Get("specdev") == "required" {
			p.required = append(p.required, f)
		}
		p.fields[name] = f
		p.names = append(p.names, name)
	}
	slices.Sort(p.names)
	return p
}

const wantDuration = `a duration such as "15m" or a number of seconds`

// readerOf is which of the decoder's readers reads a value of type t,
// what such a value is (for "expected X, but got Y"), and the kinds of
// JSON value that are one (jsontext.Kind: '"' string, '0' number, 't'
// and 'f' booleans, '[' array, '{' object).
func readerOf(t reflect.Type) (h how, want, kinds string) {
	switch {
	case t == timestampType:
		return asTime, "string", `"`
	case t == durationType:
		return asDuration, wantDuration, `"0`
	case t.Kind() == reflect.String:
		return asString, "string", `"`
	case t.Kind() == reflect.Int || t.Kind() == reflect.Int64:
		return asInteger, "integer", "0"
	case t == reflect.TypeFor[[]string]():
		return asStrings, "array", "["
	case t == reflect.TypeFor[map[string]string]():
		return asDict, "object", "{"
	case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Struct:
		return asObjects, "array", "["
	case t.Kind() == reflect.Slice:
		return byV2, "array", "["
	case t.Kind() == reflect.Float64:
		return byV2, "number", "0"
	case t.Kind() == reflect.Bool:
		return byV2, "boolean", "tf"
	case t.Kind() == reflect.Pointer:
		_, want, kinds = readerOf(t.Elem())
		return byV2, want, kinds
	}
	return byV2, "object", "{"
}

// kindName names a kind of JSON value, or the value that starts with the
// byte k, as JSON Schema does.
func kindName(k jsontext.Kind) string {
	names := map[jsontext.Kind]string{'"': "string", 't': "boolean", 'f': "boolean", 'n': "null", '[': "array"}
	if k == '-' || k >= '0' && k <= '9' {
		return "number"
	}
	return cmp.Or(names[k], "object")
}
