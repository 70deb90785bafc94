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
	switch {
	case t == timestampType:
		return &plan{kind: kindTime}
	case t == durationType:
		return &plan{kind: kindDuration, bounds: DurationBounds{0, math.MaxInt64}}
	case t.Kind() == reflect.String:
		return &plan{kind: kindString}
	case t.Kind() == reflect.Int || t.Kind() == reflect.Int64:
		return &plan{kind: kindInt}
	case t.Kind() == reflect.Float64:
		return &plan{kind: kindFloat}
	case t.Kind() == reflect.Bool:
		return &plan{kind: kindBool}
	case t.Kind() == reflect.Pointer:
		return &plan{kind: kindPointer, elem: planOf(t.Elem())}
	case t == reflect.TypeFor[[]string]():
		return &plan{kind: kindStrings}
	case t.Kind() == reflect.Slice:
		return &plan{kind: kindSlice, elem: planOf(t.Elem())}
	case t == reflect.TypeFor[map[string]string]():
		return &plan{kind: kindStringMap}
	case t.Kind() == reflect.Map:
		return &plan{kind: kindMap, elem: planOf(t.Elem())}
	case t.Kind() == reflect.Struct:
		return structPlan(t)
	}
	return &plan{kind: kindAny}
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
			f.plan = &plan{kind: kindDuration, bounds: configBounds(name)}
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

// describe names what a plan takes, for "expected X, but got Y".
func describe(p *plan) string {
	switch p.kind {
	case kindString, kindTime:
		return "string"
	case kindInt:
		return "integer"
	case kindFloat:
		return "number"
	case kindBool:
		return "boolean"
	case kindDuration:
		return `a duration such as "15m" or a number of seconds`
	case kindStrings, kindSlice:
		return "array"
	case kindStringMap, kindMap, kindStruct:
		return "object"
	case kindPointer:
		return describe(p.elem)
	}
	return "object"
}
