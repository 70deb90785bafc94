package protocol

import (
	"cmp"
	"reflect"
	"slices"
	"strings"
	"sync"

	json "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// The one decoder of every file specdev reads. encoding/json/v2 (as
// github.com/go-json-experiment/json) reads the JSON: its syntax, UTF-8,
// each value of its field's kind. It hands each object of a struct type
// to reading.object, which holds it to what its schema says and v2 does
// not: the required keys; no key given twice; no null where a value of a
// kind is due; no key equal to a field's name but for case (v2 would
// skip it); unknown keys refused in a closed object (every object of an
// agent's input and of the config, and in the state files the objects
// whose schema says so), kept in the Extra of a state file's top, or
// skipped, nesting no deeper than MaxDepth; and no "version" newer than
// this build reads. jsonscalar.go reads the values v2 reads otherwise (an
// integer written 3.0 or 1e3, as JSON Schema counts integers) or slowly.
// Bounds, lengths, enums and patterns are each type's Validate to check,
// once the value is whole.
//
// Two struct tags say what a Go value cannot: `specdev:"required"`, a key
// the document must give; `specdev:"nonzero"`, a field whose zero value
// stands for the absent key (a default applies), so that a document that
// writes the zero value explicitly is refused, as its schema refuses it.

// reading is the decoding of one document: text is the document, from
// which strings are cut, not copied (most of the cost of reading a large
// review's state), or "" to copy them, as a small document is cheaper
// to read that way. readings are reused, with the options made for each.
type reading struct {
	text string
	opts json.Options
}

var readings = sync.Pool{New: func() any {
	r := &reading{}
	r.opts = r.options()
	return r
}}

// options hand v2 each struct type a document holds, and an integer a
// pointer points to.
func (r *reading) options() json.Options {
	return json.WithUnmarshalers(json.JoinUnmarshalers(
		object[Request](r), object[Progress](r), object[Config](r), object[Verdict](r), object[Event](r), object[Group](r),
		object[Finding](r), object[Takeover](r), object[PreflightResult](r), object[Resolved](r), object[Decision](r),
		object[RoundRecord](r), object[RoundPlan](r), object[Journal](r), object[Delta](r), object[Loop](r),
		object[PassRecord](r), object[AgentConfig](r), object[AgentSession](r), object[AgentCost](r), object[AgentUsage](r),
		json.UnmarshalFromFunc(func(dec *jsontext.Decoder, n *int) error { return readInteger(dec, reflect.ValueOf(n).Elem()) })))
}

// closedTypes are the objects of the state files whose schemas refuse
// unknown keys (request and progress themselves keep them in Extra).
var closedTypes = map[reflect.Type]bool{
	reflect.TypeFor[Delta](): true, reflect.TypeFor[Loop](): true, reflect.TypeFor[PassRecord](): true,
	reflect.TypeFor[RoundPlan](): true, reflect.TypeFor[Journal](): true, reflect.TypeFor[AgentCost](): true,
	reflect.TypeFor[AgentUsage](): true, reflect.TypeFor[AgentSession](): true,
}

// newestVersion is the newest top-level "version" this build reads of
// each document that has one.
var newestVersion = map[reflect.Type]int{
	reflect.TypeFor[Request](): RequestVersion, reflect.TypeFor[Progress](): ProgressVersion,
	reflect.TypeFor[Group](): GroupVersion, reflect.TypeFor[Config](): 1,
}

// object reads a T with its plan, built when the first T is read: a
// command reads a few of these types, and building all of their plans up
// front was a twentieth of an idle check.
func object[T any](r *reading) *json.Unmarshalers {
	return json.UnmarshalFromFunc(func(dec *jsontext.Decoder, v *T) error {
		return r.object(dec, reflect.ValueOf(v).Elem(), planOf(reflect.TypeFor[T]()))
	})
}

// object decodes a JSON object into the struct v: known keys into their
// fields, unknown ones as p says.
func (r *reading) object(dec *jsontext.Decoder, v reflect.Value, p *plan) error {
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return cmp.Or(err, fail(dec.StackPointer(), "", "expected object, but got %s", kindName(tok.Kind())))
	}
	var seen uint64            // the known fields given
	var others map[string]bool // the unknown keys given
	var unknown []string
	for dec.PeekKind() != '}' {
		name, err := r.read(dec)
		if err != nil {
			return err
		}
		f := p.fields[name]
		switch {
		case f == nil && !others[name]:
			if others == nil {
				others = map[string]bool{}
			}
			others[name] = true
			if err := p.unknownKey(dec, v, name, &unknown); err != nil {
				return err
			}
			continue
		case f == nil || seen&f.bit != 0:
			return duplicate(dec.StackPointer(), name)
		}
		seen |= f.bit
		if err := r.member(dec, v.Field(f.index), p, f); err != nil {
			return err
		}
	}
	if err := p.complete(dec, seen != 0 || others != nil, seen, unknown); err != nil {
		return err
	}
	_, err := dec.ReadToken()
	return err
}

// member decodes a known key's value.
func (r *reading) member(dec *jsontext.Decoder, v reflect.Value, p *plan, f *field) error {
	if err := r.value(dec, v, f); err != nil {
		return err
	}
	if f.nonzero && (v.IsZero() || v.Kind() == reflect.Slice && v.Len() == 0) {
		hint, zero := "", cmp.Or(map[reflect.Kind]string{reflect.Int: "0", reflect.Int64: "0", reflect.Slice: "an empty list"}[v.Kind()], "empty")
		if f.how == asDuration {
			hint, zero = hintDuration, "0s, out of range"
		}
		return fail(dec.StackPointer(), hint, "is %s: leave the field out, or give a value within its range", zero)
	}
	if f.name == "version" && p.version > 0 && v.Int() > int64(p.version) {
		return fail(dec.StackPointer(), "upgrade specdev to a release that reads this version",
			"version %d is newer than this specdev supports (%d)", v.Int(), p.version)
	}
	return nil
}

// value decodes a known key's value: strings, integers, times,
// durations and lists of objects directly (a review holds thousands),
// and the rest by v2 once its kind is checked.
func (r *reading) value(dec *jsontext.Decoder, v reflect.Value, f *field) error {
	switch f.how {
	case asTime:
		return r.timestamp(dec, v.Addr().Interface().(*Timestamp))
	case asDuration:
		return readDuration(dec, v.Addr().Interface().(*Duration), f.within)
	case asString:
		s, err := r.read(dec)
		v.SetString(s)
		return err
	case asInteger:
		return readInteger(dec, v)
	}
	if err := expect(dec, f.want, f.kinds); err != nil {
		return err
	}
	switch f.how {
	case asObjects:
		return r.objects(dec, v, f.elem)
	case asStrings:
		return r.list(dec, v.Addr().Interface().(*[]string))
	case asDict:
		return r.dict(dec, v.Addr().Interface().(*map[string]string))
	}
	// v2 reads the rest (pointers, booleans, maps of objects, an event's
	// detail), finding a key given twice in them itself.
	return json.UnmarshalDecode(dec, v.Addr().Interface(), jsontext.AllowDuplicateNames(false))
}

// objects reads a list of objects of plan p into the slice v.
func (r *reading) objects(dec *jsontext.Decoder, v reflect.Value, p *plan) error {
	if _, err := dec.ReadToken(); err != nil {
		return err
	}
	list := reflect.New(v.Type()).Elem() // addressable, so that it grows in place
	list.Set(reflect.MakeSlice(v.Type(), 0, 0))
	for i := 0; dec.PeekKind() != ']'; i++ {
		list.Grow(1)
		list.SetLen(i + 1)
		if err := r.object(dec, list.Index(i), p); err != nil {
			return err
		}
	}
	v.Set(list)
	_, err := dec.ReadToken()
	return err
}

// unknownKey reads the value of a key the struct has no field for: kept
// in its Extra, noted as unknown (a closed object), or skipped. A key
// equal to a field's name only when case is ignored is refused at once.
func (p *plan) unknownKey(dec *jsontext.Decoder, v reflect.Value, key string, unknown *[]string) error {
	if i := slices.IndexFunc(p.names, func(name string) bool { return strings.EqualFold(name, key) }); i >= 0 {
		return fail(dec.StackPointer(), `rename it to "`+p.names[i]+`" (keys are case-sensitive), or remove it`,
			"key %s is not the field %q: keys must match exactly, without case folding", QuotePrefix(key), p.names[i])
	}
	var raw jsontext.Value // a copy, in which v2 finds a key given twice
	if err := json.UnmarshalDecode(dec, &raw, jsontext.AllowDuplicateNames(false)); err != nil {
		return err
	}
	if dec.StackDepth()+depthOf(raw) > MaxDepth {
		return fail(dec.StackPointer(), "flatten the value, or remove it", "nests deeper than %d levels of objects and lists", MaxDepth)
	}
	strict, _ := json.GetOption(dec.Options(), json.RejectUnknownMembers)
	switch {
	case p.extra >= 0:
		extra := v.Field(p.extra).Addr().Interface().(*Extra)
		if *extra == nil {
			*extra = Extra{}
		}
		(*extra)[key] = []byte(raw)
	case p.closed || strict:
		*unknown = append(*unknown, key)
	}
	return nil
}

// complete refuses an object with unknown keys, listing the valid ones
// (a required key reported missing is most often one of them misspelt),
// or one without a required key.
func (p *plan) complete(dec *jsontext.Decoder, members bool, seen uint64, unknown []string) error {
	missing := slices.IndexFunc(p.required, func(f *field) bool { return seen&f.bit == 0 })
	if len(unknown) == 0 && missing < 0 {
		return nil
	}
	here := dec.StackPointer() // the object, or its last member
	if members {
		here = here.Parent()
	}
	if len(unknown) > 0 {
		slices.Sort(unknown)
		return fail(here.AppendToken(strings.Join(unknown, ", ")), hintSpelling, "unknown field; valid fields are: %s", strings.Join(p.names, ", "))
	}
	return fail(here.AppendToken(p.required[missing].name), "", "required field is missing")
}

// expect refuses a value at dec of another kind than kinds, which is
// want, before it is read: v2 names the value in the error (the member
// of an object, between its key and its value).
func expect(dec *jsontext.Decoder, want, kinds string) error {
	switch k := dec.PeekKind(); {
	case k == 0:
		_, err := dec.ReadValue() // the syntax error
		return err
	case !strings.ContainsRune(kinds, rune(k)):
		return &InvalidError{Problem: "expected " + want + ", but got " + kindName(k)}
	}
	return nil
}

// duplicate refuses the key at ptr, given twice in its object (the
// decoder finds a key given twice in v2's stead, faster).
func duplicate(ptr jsontext.Pointer, key string) error {
	return fail(ptr, "keep one of them", "key %s appears twice in the same object", QuotePrefix(key))
}

// fail is a broken rule of the value at ptr; readJSON names the file and
// the field, and a hint of "" is the schema's.
func fail(ptr jsontext.Pointer, hint, format string, args ...any) error {
	return &json.SemanticError{JSONPointer: ptr, Err: invalid("", "", hint, format, args...)}
}
