package protocol

import (
	"math"
	"reflect"
	"slices"
	"strings"
	"sync"
)

type kind uint8

const (
	kindAny kind = iota
	kindString
	kindInt
	kindFloat
	kindBool
	kindTime
	kindDuration
	kindPointer
	kindStrings
	kindSlice
	kindStringMap
	kindMap
	kindStruct
)

// plan is what the decoder knows of a Go type.
type plan struct {
	kind   kind
	elem   *plan          // pointer target, slice item, map value
	bounds DurationBounds // of a duration field
	want   string         // what it takes, for "expected X, but got Y"
	json   string         // the kind of JSON value that is one (kindAt's name)

	fields   map[string]*field // a struct's, by JSON name
	folded   map[string]string // foldKey(name) -> name
	names    []string          // sorted, for "valid fields are"
	required []*field          // in field order
	closed   bool              // refuses unknown keys in every document
	extra    int               // index of the Extra field, or -1
}

type field struct {
	index   int    // in the struct
	bit     uint64 // of the field among the struct's JSON fields
	name    string
	plan    *plan
	nonzero bool
}

var (
	timestampType = reflect.TypeFor[Timestamp]()
	durationType  = reflect.TypeFor[Duration]()
	extraType     = reflect.TypeFor[Extra]()
	plans         sync.Map // reflect.Type -> *plan
)

// closedTypes are the objects of the state files whose schemas refuse
// unknown keys (request and progress themselves keep them in Extra).
var closedTypes = map[reflect.Type]bool{
	reflect.TypeFor[Delta]():        true,
	reflect.TypeFor[Loop]():         true,
	reflect.TypeFor[PassRecord]():   true,
	reflect.TypeFor[RoundPlan]():    true,
	reflect.TypeFor[Journal]():      true,
	reflect.TypeFor[AgentCost]():    true,
	reflect.TypeFor[AgentUsage]():   true,
	reflect.TypeFor[AgentSession](): true,
}

// planOf returns the plan of t, built once.
func planOf(t reflect.Type) *plan {
	if p, ok := plans.Load(t); ok {
		return p.(*plan)
	}
	p, _ := plans.LoadOrStore(t, buildPlan(t))
	return p.(*plan)
}

func buildPlan(t reflect.Type) *plan {
	p := &plan{kind: kindAny}
	switch {
	case t == timestampType:
		p.kind = kindTime
	case t == durationType:
		p.kind, p.bounds = kindDuration, DurationBounds{0, math.MaxInt64}
	case t.Kind() == reflect.String:
		p.kind = kindString
	case t.Kind() == reflect.Int || t.Kind() == reflect.Int64:
		p.kind = kindInt
	case t.Kind() == reflect.Float64:
		p.kind = kindFloat
	case t.Kind() == reflect.Bool:
		p.kind = kindBool
	case t.Kind() == reflect.Pointer:
		p.kind, p.elem = kindPointer, planOf(t.Elem())
	case t == reflect.TypeFor[[]string]():
		p.kind = kindStrings
	case t.Kind() == reflect.Slice:
		p.kind, p.elem = kindSlice, planOf(t.Elem())
	case t == reflect.TypeFor[map[string]string]():
		p.kind = kindStringMap
	case t.Kind() == reflect.Map:
		p.kind, p.elem = kindMap, planOf(t.Elem())
	case t.Kind() == reflect.Struct:
		p = structPlan(t)
	}
	p.want, p.json = expects(p)
	return p
}

func structPlan(t reflect.Type) *plan {
	p := &plan{kind: kindStruct, fields: map[string]*field{}, folded: map[string]string{}, closed: closedTypes[t], extra: -1}
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if sf.Type == extraType {
			p.extra = i
		}
		if name == "" || name == "-" || !sf.IsExported() {
			continue
		}
		if len(p.fields) == 64 {
			panic("protocol: a struct of more than 64 JSON fields: " + t.String())
		}
		f := &field{index: i, bit: 1 << len(p.fields), name: name, plan: planOf(sf.Type), nonzero: sf.Tag.Get("specdev") == "nonzero"}
		if sf.Type == durationType {
			bounded := *f.plan
			bounded.bounds = configBounds(name)
			f.plan = &bounded
		}
		if sf.Tag.Get("specdev") == "required" {
			p.required = append(p.required, f)
		}
		p.fields[name] = f
		p.folded[foldKey(name)] = name
		p.names = append(p.names, name)
	}
	slices.Sort(p.names)
	return p
}

const wantDuration = `a duration such as "15m" or a number of seconds`

// expects names what a plan takes, for "expected X, but got Y", and the
// kind of JSON value that is one (a duration is also a number).
func expects(p *plan) (want, json string) {
	switch p.kind {
	case kindString, kindTime:
		return "string", "string"
	case kindInt:
		return "integer", "number"
	case kindFloat:
		return "number", "number"
	case kindBool:
		return "boolean", "boolean"
	case kindDuration:
		return wantDuration, "string"
	case kindStrings, kindSlice:
		return "array", "array"
	case kindPointer:
		return p.elem.want, p.elem.json
	}
	return "object", "object"
}
