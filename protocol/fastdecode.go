package protocol

import (
	"encoding/json"
	"reflect"
)

// The fast decoder reads a state file in one pass, directed by the Go type
// it fills, for the common case: the JSON specdev writes, or any JSON of
// the same shape. encoding/json scans a document twice (once to check it,
// once to decode it), copies it into a buffer first when read through a
// json.Decoder, and allocates every string on its own; on a review of
// 1,000 files that is most of what a `check record` costs (SPEC.md §8).
// Here the document is copied once into a string, and every string without
// escapes is a slice of it.
//
// The fast decoder never decides anything encoding/json would decide
// otherwise: it gives up (ok == false) on whatever it does not handle
// exactly as encoding/json does — a syntax error, a value of the wrong
// type, an integer that does not fit, a key given twice in one object, a
// nested key that is not exactly a field's name, a top-level unknown key
// that equals a known one ignoring case — and the caller then decodes the
// whole document with encoding/json, whose result or error stands. Values
// it has no fast path for (null, numbers other than integers, interfaces,
// types with their own decoding other than from a string) are handed to
// json.Unmarshal one by one, which decodes them as it would inside the
// whole document. TestFastCodecAgrees and FuzzFastCodec hold it to that.
// Its plans are in fastplan.go, its lexing in fastlex.go.

// decodeFast decodes the JSON object in data into the struct fields points
// to, and returns the top-level keys the struct does not have as Extra.
// folded maps the folded names of the known keys to them. Not ok: decode
// with encoding/json instead (see above).
func decodeFast(data []byte, fields any, folded map[string]string) (Extra, bool) {
	v := reflect.ValueOf(fields).Elem()
	plan := fastPlanFor(v.Type())
	if plan.kind != fastStruct {
		return nil, false
	}
	d := fastDecoder{data: data, text: string(data)}
	extra, ok := d.top(v, plan, folded)
	if !ok || d.skipSpace() != len(data) {
		return nil, false
	}
	return extra, true
}

// fastDecoder reads data from i on; text is data as a string.
type fastDecoder struct {
	data []byte
	text string
	i    int
}

// object reads an object's members, calling member with each key, the
// decoder then at the key's value.
func (d *fastDecoder) object(member func(key string) bool) bool {
	if !d.next('{') {
		return false
	}
	if d.next('}') {
		return true
	}
	for {
		d.skipSpace()
		key, ok := d.str()
		if !ok || !d.next(':') || !member(key) {
			return false
		}
		if d.next(',') {
			continue
		}
		return d.next('}')
	}
}

// array reads an array's items, calling item with the decoder at each.
func (d *fastDecoder) array(item func() bool) bool {
	if !d.next('[') {
		return false
	}
	if d.next(']') {
		return true
	}
	for {
		if !item() {
			return false
		}
		if d.next(',') {
			continue
		}
		return d.next(']')
	}
}

// top reads the top-level object: known keys into v, the others into
// Extra, each as encoding/json's json.RawMessage would keep it.
func (d *fastDecoder) top(v reflect.Value, plan *fastType, folded map[string]string) (Extra, bool) {
	var extra Extra
	var seen uint64
	ok := d.object(func(key string) bool {
		if f, known := plan.fields[key]; known {
			if seen&(1<<f.index) != 0 {
				return false
			}
			seen |= 1 << f.index
			return d.value(v.Field(f.index), f.plan)
		}
		if _, clash := folded[foldKey(key)]; clash {
			return false
		}
		if _, twice := extra[key]; twice {
			return false
		}
		raw, ok := d.raw()
		if !ok || !json.Valid(raw) {
			return false
		}
		if extra == nil {
			extra = Extra{}
		}
		extra[key] = append(json.RawMessage(nil), raw...)
		return true
	})
	return extra, ok
}

// raw returns the bytes of the value at i (its extent only: the caller
// checks them) and moves past it.
func (d *fastDecoder) raw() ([]byte, bool) {
	start := d.skipSpace()
	end, err := skipJSONValue(d.data, start)
	if err != nil {
		return nil, false
	}
	d.i = end
	return d.data[start:end], true
}

// delegate has json.Unmarshal decode the value at i into v.
func (d *fastDecoder) delegate(v reflect.Value) bool {
	raw, ok := d.raw()
	return ok && json.Unmarshal(raw, v.Addr().Interface()) == nil
}

// value decodes the value at i into v (addressable) by plan.
func (d *fastDecoder) value(v reflect.Value, plan *fastType) bool {
	if d.skipSpace() >= len(d.data) {
		return false
	}
	if d.data[d.i] == 'n' { // null: to each type what encoding/json does with it
		return d.delegate(v)
	}
	switch plan.kind {
	case fastUnmarshaler:
		if d.data[d.i] != '"' {
			return d.delegate(v)
		}
		start := d.i
		if _, ok := d.str(); !ok {
			return false
		}
		return v.Addr().Interface().(json.Unmarshaler).UnmarshalJSON(d.data[start:d.i]) == nil
	case fastString:
		s, ok := d.str()
		if ok {
			v.SetString(s)
		}
		return ok
	case fastInt:
		n, ok := d.integer()
		if !ok || v.OverflowInt(n) {
			return false
		}
		v.SetInt(n)
		return true
	case fastBool:
		return d.boolean(v)
	case fastStrings:
		return d.strings(v.Addr().Interface().(*[]string))
	case fastSlice:
		return d.slice(v, plan.elem)
	case fastStringMap:
		return d.stringMap(v.Addr().Interface().(*map[string]string))
	case fastMap:
		return d.mapOf(v, plan)
	case fastStruct:
		return d.structOf(v, plan)
	case fastPointer:
		if v.IsNil() {
			v.Set(reflect.New(plan.elem.typ))
		}
		return d.value(v.Elem(), plan.elem)
	}
	return d.delegate(v)
}

// strings reads an array of strings (a list of files).
func (d *fastDecoder) strings(out *[]string) bool {
	list := make([]string, 0, d.stringItems())
	ok := d.array(func() bool {
		d.skipSpace()
		s, ok := d.str()
		list = append(list, s)
		return ok
	})
	*out = list
	return ok
}

func (d *fastDecoder) slice(v reflect.Value, elem *fastType) bool {
	v.Set(reflect.MakeSlice(v.Type(), 0, 0))
	n := 0
	return d.array(func() bool {
		v.Grow(1)
		v.SetLen(n + 1)
		n++
		return d.value(v.Index(n-1), elem)
	})
}

// stringMap reads an object of strings (file digests). A key given twice
// keeps its last value, as encoding/json does.
func (d *fastDecoder) stringMap(out *map[string]string) bool {
	if *out == nil {
		*out = make(map[string]string, d.stringItems()/2)
	}
	m := *out
	return d.object(func(key string) bool {
		d.skipSpace()
		s, ok := d.str()
		m[key] = s
		return ok
	})
}

func (d *fastDecoder) mapOf(v reflect.Value, plan *fastType) bool {
	if v.IsNil() {
		v.Set(reflect.MakeMap(plan.typ))
	}
	keyType := plan.typ.Key()
	return d.object(func(key string) bool {
		item := reflect.New(plan.elem.typ).Elem()
		if !d.value(item, plan.elem) {
			return false
		}
		v.SetMapIndex(reflect.ValueOf(key).Convert(keyType), item)
		return true
	})
}

// structOf reads an object into a struct: every key exactly a field's
// name, each once.
func (d *fastDecoder) structOf(v reflect.Value, plan *fastType) bool {
	var seen uint64
	return d.object(func(key string) bool {
		f, known := plan.fields[key]
		if !known || seen&(1<<f.index) != 0 {
			return false
		}
		seen |= 1 << f.index
		return d.value(v.Field(f.index), f.plan)
	})
}
