package protocol

import (
	"encoding"
	"reflect"
	"sync"
)

// What the fast decoder (fastdecode.go) does with each Go type, worked
// out once per type.

// fastKind is how the fast decoder fills a value of one Go type.
type fastKind uint8

const (
	fastDelegate    fastKind = iota // json.Unmarshal decodes the value
	fastUnmarshaler                 // a string handed to the type's UnmarshalJSON
	fastString
	fastInt
	fastBool
	fastStrings   // exactly []string
	fastSlice     // any other slice but []byte
	fastStringMap // exactly map[string]string
	fastMap       // map with string keys
	fastStruct
	fastPointer
)

// fastType is the decoding plan of one Go type, built once.
type fastType struct {
	kind   fastKind
	typ    reflect.Type
	elem   *fastType            // slice, map and pointer items
	fields map[string]fastField // struct fields by exact JSON name
}

type fastField struct {
	index int
	plan  *fastType
}

var (
	fastPlans           sync.Map // reflect.Type -> *fastType
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
	stringSliceType     = reflect.TypeFor[[]string]()
	stringMapType       = reflect.TypeFor[map[string]string]()
)

// maxFastStructFields bounds the structs decoded here: a key given twice
// is found with one bit per field.
const maxFastStructFields = 64

// fastPlanFor returns the plan of t, built once per process.
func fastPlanFor(t reflect.Type) *fastType {
	if p, ok := fastPlans.Load(t); ok {
		return p.(*fastType)
	}
	b := planBuilder{done: map[reflect.Type]*fastType{}, building: map[reflect.Type]bool{}}
	p, _ := fastPlans.LoadOrStore(t, b.plan(t))
	return p.(*fastType)
}

// planBuilder builds each type's plan once; a type that contains itself
// is delegated where it recurs.
type planBuilder struct {
	done     map[reflect.Type]*fastType
	building map[reflect.Type]bool
}

func (b planBuilder) plan(t reflect.Type) *fastType {
	if p, ok := b.done[t]; ok {
		return p
	}
	if b.building[t] {
		return &fastType{kind: fastDelegate, typ: t}
	}
	b.building[t] = true
	p := b.build(t)
	delete(b.building, t)
	b.done[t] = p
	return p
}

func (b planBuilder) build(t reflect.Type) *fastType {
	p := &fastType{kind: fastDelegate, typ: t}
	ptr := reflect.PointerTo(t)
	switch {
	case ptr.Implements(unmarshalerType):
		if t.Kind() != reflect.Pointer && t.Kind() != reflect.Interface {
			p.kind = fastUnmarshaler
		}
		return p
	case ptr.Implements(textUnmarshalerType):
		return p
	}
	switch t.Kind() {
	case reflect.String:
		p.kind = fastString
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		p.kind = fastInt
	case reflect.Bool:
		p.kind = fastBool
	case reflect.Slice:
		switch {
		case t == stringSliceType:
			p.kind = fastStrings
		case t.Elem().Kind() != reflect.Uint8: // []byte is base64
			p.kind, p.elem = fastSlice, b.plan(t.Elem())
		}
	case reflect.Map:
		switch {
		case t == stringMapType:
			p.kind = fastStringMap
		case t.Key().Kind() == reflect.String && !reflect.PointerTo(t.Key()).Implements(textUnmarshalerType):
			p.kind, p.elem = fastMap, b.plan(t.Elem())
		}
	case reflect.Pointer:
		p.kind, p.elem = fastPointer, b.plan(t.Elem())
	case reflect.Struct:
		if fields, ok := b.fields(t); ok {
			p.kind, p.fields = fastStruct, fields
		}
	}
	return p
}

// fields maps the JSON names of a struct's fields to their plans; not
// ok for what encoding/json names by rules this decoder does not follow
// (embedded structs, ",string", names other than plain words, clashes).
func (b planBuilder) fields(t reflect.Type) (map[string]fastField, bool) {
	if t.NumField() > maxFastStructFields {
		return nil, false
	}
	fields := make(map[string]fastField, t.NumField())
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if f.Anonymous {
			return nil, false
		}
		name, opts, ok := jsonField(f)
		if !ok {
			continue
		}
		if _, clash := fields[name]; clash || !plainName(name) || hasOption(opts, "string") {
			return nil, false
		}
		fields[name] = fastField{index: i, plan: b.plan(f.Type)}
	}
	return fields, true
}

func plainName(name string) bool {
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return name != ""
}

func hasOption(opts, want string) bool {
	for opts != "" {
		opt := opts
		for j := 0; j < len(opts); j++ {
			if opts[j] == ',' {
				opt, opts = opts[:j], opts[j+1:]
				break
			}
		}
		if opt == opts {
			opts = ""
		}
		if opt == want {
			return true
		}
	}
	return false
}

// jsonField is the JSON name and options of a struct field as
// encoding/json reads its tag; ok is false for a field encoding/json
// leaves out (unexported, or tagged "-").
func jsonField(f reflect.StructField) (name, opts string, ok bool) {
	tag := f.Tag.Get("json")
	if !f.IsExported() || tag == "-" {
		return "", "", false
	}
	name = tag
	for j := 0; j < len(tag); j++ {
		if tag[j] == ',' {
			name, opts = tag[:j], tag[j+1:]
			break
		}
	}
	if name == "" {
		name = f.Name
	}
	return name, opts, true
}
