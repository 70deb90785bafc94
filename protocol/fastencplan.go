package protocol

import (
	"encoding"
	"encoding/json"
	"reflect"
	"sync"
)

// What the fast encoder (fastencode.go) does with each Go type, worked
// out once per type.

// encKind is how the fast encoder writes a value of one Go type.
type encKind uint8

const (
	encDelegate encKind = iota // json.Marshal writes the value
	encRefuse                  // the slow path writes the whole document
	encString
	encInt
	encUint
	encBool
	encStrings   // exactly []string
	encStringMap // exactly map[string]string
	encSlice
	encMap // string keys
	encStruct
	encPointer
)

// encType is the encoding plan of one Go type, built once.
type encType struct {
	kind   encKind
	elem   *encType // slice, map and pointer items
	fields []encField
}

type encField struct {
	index     int
	key       string // "name":
	omitEmpty bool
	omitZero  bool
	zeroer    bool // omitZero by the type's IsZero method (value receiver)
	plan      *encType
}

var (
	encPlans           sync.Map // reflect.Type -> *encType
	marshalerType      = reflect.TypeFor[json.Marshaler]()
	textMarshalerType  = reflect.TypeFor[encoding.TextMarshaler]()
	isZeroerType       = reflect.TypeFor[interface{ IsZero() bool }]()
	encRefused         = &encType{kind: encRefuse}
	encDelegated       = &encType{kind: encDelegate}
	stringSliceEncType = &encType{kind: encStrings}
	stringMapEncType   = &encType{kind: encStringMap}
)

// encPlanFor returns the plan of t, built once per process.
func encPlanFor(t reflect.Type) *encType {
	if p, ok := encPlans.Load(t); ok {
		return p.(*encType)
	}
	b := encPlanBuilder{}
	p, _ := encPlans.LoadOrStore(t, b.plan(t))
	return p.(*encType)
}

// encPlanBuilder builds each type's plan once; a type met again while its
// own plan is being built (a recursive type) is refused.
type encPlanBuilder map[reflect.Type]*encType

func (b encPlanBuilder) plan(t reflect.Type) *encType {
	if p, ok := b[t]; ok {
		if p == nil {
			return encRefused
		}
		return p
	}
	b[t] = nil
	p := b.build(t)
	b[t] = p
	return p
}

func (b encPlanBuilder) build(t reflect.Type) *encType {
	ptr := reflect.PointerTo(t)
	switch {
	case t.Kind() == reflect.Interface, t.Implements(marshalerType), t.Implements(textMarshalerType):
		return encDelegated
	case ptr.Implements(marshalerType), ptr.Implements(textMarshalerType):
		return encRefused // encoding/json calls these only on addressable values
	}
	switch t.Kind() {
	case reflect.String:
		return &encType{kind: encString}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return &encType{kind: encInt}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return &encType{kind: encUint}
	case reflect.Bool:
		return &encType{kind: encBool}
	case reflect.Slice:
		switch {
		case t == stringSliceType:
			return stringSliceEncType
		case t.Elem().Kind() == reflect.Uint8: // base64, or a list of a byte type with its own encoding
			return encDelegated
		}
		return &encType{kind: encSlice, elem: b.plan(t.Elem())}
	case reflect.Map:
		switch {
		case t == stringMapType:
			return stringMapEncType
		case t.Key().Kind() == reflect.String: // encoding/json names such keys by their string
			return &encType{kind: encMap, elem: b.plan(t.Elem())}
		}
		return encDelegated
	case reflect.Pointer:
		return &encType{kind: encPointer, elem: b.plan(t.Elem())}
	case reflect.Struct:
		return b.structOf(t)
	}
	return encDelegated // floats, arrays and the kinds json.Marshal refuses
}

// structOf plans a struct's fields in order, as encoding/json names
// and omits them; embedded structs, ",string" and names that need quoting
// are refused.
func (b encPlanBuilder) structOf(t reflect.Type) *encType {
	p := &encType{kind: encStruct}
	names := map[string]bool{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if f.Anonymous {
			return encRefused
		}
		name, opts, ok := jsonField(f)
		if !ok {
			continue
		}
		if names[name] || !plainName(name) || hasOption(opts, "string") {
			return encRefused
		}
		names[name] = true
		ef := encField{index: i, key: `"` + name + `":`, omitEmpty: hasOption(opts, "omitempty"),
			omitZero: hasOption(opts, "omitzero"), plan: b.plan(f.Type)}
		if ef.omitZero {
			switch ft := f.Type; {
			case ft.Kind() == reflect.Interface || ft.Kind() == reflect.Pointer:
				if ft.Implements(isZeroerType) {
					return encRefused
				}
			case ft.Implements(isZeroerType):
				ef.zeroer = true
			case reflect.PointerTo(ft).Implements(isZeroerType):
				return encRefused
			}
		}
		if ef.plan.kind == encRefuse {
			return encRefused
		}
		p.fields = append(p.fields, ef)
	}
	return p
}
