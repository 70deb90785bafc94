package protocol

import (
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
)

// The one decoder of every file specdev reads, directed by the Go type it
// fills. Beyond JSON's syntax it holds a document to what the schemas
// say of its shape: each value of the kind its field takes (an integer
// may be written 3.0 or 1e3, as JSON Schema counts integers), keys that
// match a field exactly (no case folding: "STATUS" is not "status"), the
// required keys, and no unknown keys in a closed object (every object of
// an agent's input and of the config; in the state files, the objects
// whose schema says so). Bounds, lengths, enums and patterns are each
// type's Validate to check, once the value is whole.
//
// Two struct tags say what a Go value cannot: `specdev:"required"`, a key
// the document must give; `specdev:"nonzero"`, a field whose zero value
// stands for the absent key (a default applies), so that a document that
// writes the zero value explicitly is refused, as its schema refuses it.

type kind uint8

const (
	kindAny kind = iota
	kindString
	kindInt
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
	reflect.TypeFor[Delta]():      true,
	reflect.TypeFor[Loop]():       true,
	reflect.TypeFor[PassRecord](): true,
	reflect.TypeFor[RoundPlan]():  true,
	reflect.TypeFor[Journal]():    true,
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

// decodeValue decodes the whole of r's text into v, a pointer.
func (r *reader) document(v any) error {
	rv := reflect.ValueOf(v).Elem()
	if err := r.value(rv, planOf(rv.Type())); err != nil {
		return err
	}
	if !r.atEnd() {
		line, col := position(r.text, r.i)
		return invalid(r.file, "", hintHandEdit, "has more than one JSON value (line %d, column %d)", line, col)
	}
	return nil
}

// value decodes the value at r.i into v, whose plan is p.
func (r *reader) value(v reflect.Value, p *plan) error {
	c := r.peek()
	switch p.kind {
	case kindAny:
		x, err := r.anyValue(true)
		if x != nil {
			v.Set(reflect.ValueOf(x))
		}
		return err
	case kindPointer:
		if c == 'n' || kindAt(c) == "" {
			return r.mismatch(describe(p.elem))
		}
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		return r.value(v.Elem(), p.elem)
	case kindString, kindTime:
		if c != '"' {
			return r.mismatch("string")
		}
		s, err := r.str()
		if err != nil {
			return err
		}
		if p.kind == kindString {
			v.SetString(s)
			return nil
		}
		t, err := parseTimestamp(s)
		if err != nil {
			return r.fail("%v", err)
		}
		*v.Addr().Interface().(*Timestamp) = t // no interface value to box it in
		return nil
	case kindInt:
		return r.integer(v)
	case kindBool:
		if c != 't' && c != 'f' {
			return r.mismatch("boolean")
		}
		word, err := r.literal()
		v.SetBool(word == "true")
		return err
	case kindDuration:
		return r.duration(v, p.bounds)
	case kindStrings, kindSlice:
		return r.array(v, p)
	case kindStringMap:
		return r.stringMap(v)
	case kindMap:
		return r.mapOf(v, p)
	}
	return r.object(v, p)
}

// describe names what a plan takes, for "expected X, but got Y".
func describe(p *plan) string {
	switch p.kind {
	case kindString, kindTime:
		return "string"
	case kindInt:
		return "integer"
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

// integer reads an integer: any number without a fraction, so 3, 3.0 and
// 3e0 alike (bounds are Validate's to check).
func (r *reader) integer(v reflect.Value) error {
	if c := r.peek(); c != '-' && (c < '0' || c > '9') {
		return r.mismatch("integer")
	}
	lit, err := r.number()
	if err != nil {
		return err
	}
	n, err := strconv.ParseInt(lit, 10, 64)
	if err != nil {
		f, _ := strconv.ParseFloat(lit, 64) // a valid JSON number: only its range can fail
		switch {
		case f != math.Trunc(f):
			return r.fail("is %s, not an integer", QuotePrefix(lit))
		case f >= math.MaxInt64 || f < math.MinInt64:
			return r.fail("is %s, out of the range of any integer here", QuotePrefix(lit))
		}
		n = int64(f)
	}
	if v.OverflowInt(n) {
		return r.fail("is %s, out of the range of any integer here", QuotePrefix(lit))
	}
	v.SetInt(n)
	return nil
}

// duration reads a Duration written as Go syntax ("15m") or as a number
// of seconds, within the bounds of its field.
func (r *reader) duration(v reflect.Value, b DurationBounds) error {
	text := ""
	switch c := r.peek(); {
	case c == '"':
		s, err := r.str()
		if err != nil {
			return err
		}
		text = s
	case kindAt(c) == "number":
		lit, err := r.number()
		if err != nil {
			return err
		}
		text = lit
	default:
		return r.mismatch(`a duration such as "15m" or a number of seconds`)
	}
	d, err := ParseDurationIn(text, b)
	if err != nil {
		return invalid(r.file, r.where(), hintDuration, "%v", err)
	}
	v.SetInt(int64(d))
	return nil
}

func (r *reader) array(v reflect.Value, p *plan) error {
	if r.peek() != '[' {
		return r.mismatch("array")
	}
	if err := r.open(); err != nil {
		return err
	}
	list := reflect.New(v.Type()).Elem() // addressable, so that it grows in place
	list.Set(reflect.MakeSlice(v.Type(), 0, 0))
	var strs []string
	if p.kind == kindStrings {
		strs = []string{}
	}
	for i := 0; ; i++ {
		more, err := r.next(']', i == 0)
		if err != nil {
			return err
		}
		if !more {
			break
		}
		r.pushIndex(i)
		if p.kind == kindStrings { // the lists of files: no reflection per item
			if r.peek() != '"' {
				return r.mismatch("string")
			}
			s, err := r.str()
			if err != nil {
				return err
			}
			strs = append(strs, s)
		} else {
			list.Grow(1)
			list.SetLen(i + 1)
			if err := r.value(list.Index(i), p.elem); err != nil {
				return err
			}
		}
		r.pop()
	}
	if p.kind == kindStrings {
		*v.Addr().Interface().(*[]string) = strs
		return nil
	}
	v.Set(list)
	return nil
}

func (r *reader) mapOf(v reflect.Value, p *plan) error {
	if r.peek() != '{' {
		return r.mismatch("object")
	}
	if err := r.open(); err != nil {
		return err
	}
	m := reflect.MakeMap(v.Type())
	item := reflect.New(v.Type().Elem()).Elem()
	for first := true; ; first = false {
		more, err := r.next('}', first)
		if err != nil {
			return err
		}
		if !more {
			break
		}
		key, err := r.key()
		if err != nil {
			return err
		}
		r.push(key)
		k := reflect.ValueOf(key)
		if m.MapIndex(k).IsValid() {
			return r.duplicate(key)
		}
		item.SetZero()
		if err := r.value(item, p.elem); err != nil {
			return err
		}
		m.SetMapIndex(k, item)
		r.pop()
	}
	v.Set(m)
	return nil
}

// stringMap reads an object of strings (the digests of a review's
// files): no reflection per entry.
func (r *reader) stringMap(v reflect.Value) error {
	if r.peek() != '{' {
		return r.mismatch("object")
	}
	if err := r.open(); err != nil {
		return err
	}
	m := map[string]string{}
	for first := true; ; first = false {
		more, err := r.next('}', first)
		if err != nil {
			return err
		}
		if !more {
			break
		}
		key, err := r.key()
		if err != nil {
			return err
		}
		r.push(key)
		if _, dup := m[key]; dup {
			return r.duplicate(key)
		}
		if r.peek() != '"' {
			return r.mismatch("string")
		}
		if m[key], err = r.str(); err != nil {
			return err
		}
		r.pop()
	}
	*v.Addr().Interface().(*map[string]string) = m
	return nil
}

// foldKey maps s to one representative of all strings equal to it under
// Unicode simple case folding (what encoding/json's key matching uses):
// each rune becomes the smallest rune of its orbit.
func foldKey(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		low := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			low = min(low, f)
		}
		b.WriteRune(low)
	}
	return b.String()
}

// parseTimestamp reads "" as the zero time and RFC 3339 otherwise.
func parseTimestamp(s string) (Timestamp, error) {
	if s == "" {
		return Timestamp{}, nil
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return Timestamp{}, errNotTimestamp(s)
	}
	return Timestamp{t.UTC()}, nil
}
