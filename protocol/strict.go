package protocol

import (
	"math"
	"reflect"
	"strconv"
	"strings"
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

// document decodes the whole of r's text into v, a pointer.
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
	got := kindAt(r.peek())
	if p.kind != kindAny && got != p.json && (got != "number" || p.want != wantDuration) {
		return r.mismatch(p.want)
	}
	switch p.kind {
	case kindAny:
		x, err := r.anyValue(true)
		if x != nil {
			v.Set(reflect.ValueOf(x))
		}
		return err
	case kindPointer:
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		return r.value(v.Elem(), p.elem)
	case kindString, kindTime:
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
	case kindInt, kindFloat:
		return r.numberValue(v, p)
	case kindBool:
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

// numberValue reads a number into v: for an integer, any number without a
// fraction, so 3, 3.0 and 3e0 alike (bounds are Validate's to check).
func (r *reader) numberValue(v reflect.Value, p *plan) error {
	lit, err := r.number()
	if err != nil {
		return err
	}
	if p.kind == kindFloat { // a cost in dollars, say
		f, err := strconv.ParseFloat(lit, 64)
		if err != nil {
			return r.fail("is %s, out of the range of any number here", QuotePrefix(lit))
		}
		v.SetFloat(f)
		return nil
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
	read := r.number
	if r.peek() == '"' {
		read = r.str
	}
	text, err := read()
	if err != nil {
		return err
	}
	d, err := ParseDurationIn(text, b)
	if err != nil {
		return invalid(r.file, r.where(), hintDuration, "%v", err)
	}
	v.SetInt(int64(d))
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
