package protocol

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
)

// The fast encoder writes a state file as encodeState's slow path does
// (json.Marshal, the kept unknown fields appended, then indent) byte for
// byte, in one pass into one buffer of about the right size: the slow
// path builds the compact document in a buffer that grows, copies it,
// and indents it into another, which on a review of 1,000 files costs a
// `check record` more than its own change does (SPEC.md §8).
//
// It writes plain strings, integers, booleans, lists, maps with string
// keys, structs and pointers itself, and hands everything else to
// json.Marshal value by value (types with their own MarshalJSON or
// MarshalText, floats, interfaces, byte slices, arrays, strings that need
// escaping), indenting what it returns. A type whose encoding depends on
// rules it does not follow (a pointer-receiver marshaler, which
// encoding/json calls only on addressable values; embedded structs;
// ",string") makes it give up, and the slow path encodes the whole
// document. TestFastCodecAgrees and FuzzFastCodec hold it to that.
// Its plans are in fastencplan.go.

// encodeFast is encodeState's document — fields (a struct) as json.Marshal
// writes it, then extra, indented — with no newline at the end; size is
// about its length. Not ok: encode the slow way.
func encodeFast(fields any, extra Extra, size int) ([]byte, bool) {
	v := reflect.ValueOf(fields)
	plan := encPlanFor(v.Type())
	if plan.kind != encStruct {
		return nil, false
	}
	e := encoder{out: make([]byte, 0, size)}
	if !e.structOf(v, plan, extra) {
		return nil, false
	}
	return e.out, true
}

// encoder appends indented JSON to out; depth is the current nesting.
type encoder struct {
	out   []byte
	depth int
}

func (e *encoder) newline() {
	e.out = append(e.out, '\n')
	for i := 0; i < e.depth; i++ {
		e.out = append(e.out, ' ', ' ')
	}
}

// open starts the next member or item: '[' or '{' before the first one
// (then one level deeper), ',' before the others, then a new line.
func (e *encoder) open(first *bool) {
	if *first {
		*first = false
		e.depth++
	} else {
		e.out = append(e.out, ',')
	}
	e.newline()
}

// close ends an object or array: on its own line after members or items,
// at once ("{}", "[]") without.
func (e *encoder) close(empty bool, c byte) {
	if !empty {
		e.depth--
		e.newline()
	}
	e.out = append(e.out, c)
}

func (e *encoder) value(v reflect.Value, plan *encType) bool {
	switch plan.kind {
	case encString:
		e.str(v.String())
	case encInt:
		e.out = strconv.AppendInt(e.out, v.Int(), 10)
	case encUint:
		e.out = strconv.AppendUint(e.out, v.Uint(), 10)
	case encBool:
		e.out = strconv.AppendBool(e.out, v.Bool())
	case encStrings:
		return e.strings(v.Interface().([]string))
	case encStringMap:
		return e.stringMap(v.Interface().(map[string]string))
	case encSlice:
		if v.IsNil() {
			e.out = append(e.out, "null"...)
			return true
		}
		e.out = append(e.out, '[')
		first := true
		for i := 0; i < v.Len(); i++ {
			e.open(&first)
			if !e.value(v.Index(i), plan.elem) {
				return false
			}
		}
		e.close(first, ']')
	case encMap:
		return e.mapOf(v, plan)
	case encStruct:
		return e.structOf(v, plan, nil)
	case encPointer:
		if v.IsNil() {
			e.out = append(e.out, "null"...)
			return true
		}
		return e.value(v.Elem(), plan.elem)
	case encDelegate:
		return e.delegate(v.Interface())
	default:
		return false
	}
	return true
}

// delegate appends json.Marshal's encoding of v, indented where it stands.
func (e *encoder) delegate(v any) bool {
	compact, err := json.Marshal(v)
	if err != nil {
		return false
	}
	e.out = appendIndent(e.out, compact, e.depth)
	return true
}

// str appends s quoted. A string json.Marshal would escape anything in
// (quotes, backslashes, control characters, <, >, &, non-ASCII) is left
// to it.
func (e *encoder) str(s string) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			e.delegate(s) // a string always encodes
			return
		}
	}
	e.out = append(e.out, '"')
	e.out = append(e.out, s...)
	e.out = append(e.out, '"')
}

func (e *encoder) strings(list []string) bool {
	if list == nil {
		e.out = append(e.out, "null"...)
		return true
	}
	e.out = append(e.out, '[')
	first := true
	for _, s := range list {
		e.open(&first)
		e.str(s)
	}
	e.close(first, ']')
	return true
}

// member appends a map member's key; the caller appends its value.
func (e *encoder) member(first *bool, key string) {
	e.open(first)
	e.str(key)
	e.out = append(e.out, ':', ' ')
}

// stringMap appends m with its keys in order, as encoding/json sorts them.
func (e *encoder) stringMap(m map[string]string) bool {
	if m == nil {
		e.out = append(e.out, "null"...)
		return true
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	e.out = append(e.out, '{')
	first := true
	for _, k := range keys {
		e.member(&first, k)
		e.str(m[k])
	}
	e.close(first, '}')
	return true
}

func (e *encoder) mapOf(v reflect.Value, plan *encType) bool {
	if v.IsNil() {
		e.out = append(e.out, "null"...)
		return true
	}
	keys := v.MapKeys()
	slices.SortFunc(keys, func(a, b reflect.Value) int {
		switch x, y := a.String(), b.String(); {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	})
	e.out = append(e.out, '{')
	first := true
	for _, k := range keys {
		e.member(&first, k.String())
		if !e.value(v.MapIndex(k), plan.elem) {
			return false
		}
	}
	e.close(first, '}')
	return true
}

// structOf appends the struct's fields in order, then the kept unknown
// fields sorted by name, each compacted and indented (appendExtra's
// order).
func (e *encoder) structOf(v reflect.Value, plan *encType, extra Extra) bool {
	e.out = append(e.out, '{')
	first := true
	for i := range plan.fields {
		f := &plan.fields[i]
		fv := v.Field(f.index)
		if f.omitEmpty && isEmptyValue(fv) || f.omitZero && isZeroValue(fv, f.zeroer) {
			continue
		}
		e.open(&first)
		e.out = append(e.out, f.key...)
		e.out = append(e.out, ' ')
		if !e.value(fv, f.plan) {
			return false
		}
	}
	for _, name := range sortedNames(extra) {
		e.member(&first, name)
		compact, err := compactJSON(extra[name])
		if err != nil {
			return false
		}
		e.out = appendIndent(e.out, compact, e.depth)
	}
	e.close(first, '}')
	return true
}

// compactJSON is json.Compact of raw (a kept value may be indented).
func compactJSON(raw []byte) ([]byte, error) {
	var out bytes.Buffer
	err := json.Compact(&out, raw)
	return out.Bytes(), err
}

// isEmptyValue is encoding/json's "omitempty" test.
func isEmptyValue(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}

// isZeroValue is encoding/json's "omitzero" test: the type's IsZero
// method if it has one (zeroer), else the zero value.
func isZeroValue(v reflect.Value, zeroer bool) bool {
	if zeroer {
		return v.Interface().(interface{ IsZero() bool }).IsZero()
	}
	return v.IsZero()
}
