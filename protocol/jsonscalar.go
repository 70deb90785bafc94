package protocol

// The values the decoder reads itself, without v2's reflection per value:
// those a large review holds thousands of (paths, digests, the fields of
// findings and events), and those v2 reads otherwise (an integer written
// 3.0, a time written "", a duration written "15m" or 900).

import (
	"bytes"
	"cmp"
	"math"
	"reflect"
	"strconv"
	"time"

	"github.com/go-json-experiment/json/jsontext"
)

// readInteger reads into v an integer written as any number without a
// fraction, so 3, 3.0 and 3e0 alike (bounds are Validate's to check). It
// is read as a float64, exact to 2^53: every integer field's range ends
// below that, so a larger one, rounded, is still out of it.
func readInteger(dec *jsontext.Decoder, v reflect.Value) error {
	raw, err := dec.ReadValue()
	if err != nil || raw.Kind() != '0' {
		return cmp.Or(err, fail(dec.StackPointer(), "", "expected integer, but got %s", kindName(raw.Kind())))
	}
	f, _ := strconv.ParseFloat(string(raw), 64) // a valid JSON number: only its range can fail
	switch n := int64(f); {
	case f != math.Trunc(f):
		return fail(dec.StackPointer(), "", "is %s, not an integer", QuotePrefix(string(raw)))
	case f >= math.MaxInt64 || f < math.MinInt64 || v.OverflowInt(n):
		return fail(dec.StackPointer(), "", "is %s, out of the range of any integer here", QuotePrefix(string(raw)))
	default:
		v.SetInt(n)
	}
	return nil
}

// timestamp reads "" as the zero time and RFC 3339 otherwise.
func (r *reading) timestamp(dec *jsontext.Decoder, t *Timestamp) error {
	s, err := r.read(dec)
	if err != nil || s == "" {
		*t = Timestamp{}
		return err
	}
	parsed, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return fail(dec.StackPointer(), "", "%s is not an RFC 3339 time such as 2026-02-11T10:30:00Z (or \"\" for none)", QuotePrefix(s))
	}
	*t = Timestamp{parsed.UTC()}
	return nil
}

// readDuration reads Go syntax ("15m") or a number of seconds (120)
// within the bounds of its field.
func readDuration(dec *jsontext.Decoder, d *Duration, within DurationBounds) error {
	raw, err := dec.ReadValue()
	if err != nil || raw.Kind() != '"' && raw.Kind() != '0' {
		return cmp.Or(err, fail(dec.StackPointer(), "", "expected %s, but got %s", wantDuration, kindName(raw.Kind())))
	}
	text := string(raw)
	if raw.Kind() == '"' {
		unquoted, _ := jsontext.AppendUnquote(nil, raw) // valid: the decoder has read it
		text = string(unquoted)
	}
	v, err := ParseDurationIn(text, within)
	if err != nil {
		return fail(dec.StackPointer(), hintDuration, "%v", err)
	}
	*d = Duration(v)
	return nil
}

// list reads a list of strings (the lists of files) at once: v2 reads
// and checks the whole list, and its items are cut from that.
func (r *reading) list(dec *jsontext.Decoder, v *[]string) error {
	raw, base, err := whole(dec)
	list := []string{}
	for i := next(raw, 1); err == nil && raw[i] != ']'; i = next(raw, i) {
		if raw[i] != '"' {
			return fail(dec.StackPointer().AppendToken(itoa(len(list))), "", "expected string, but got %s", kindName(jsontext.Kind(raw[i])))
		}
		var s string
		s, i = r.cut(raw, base, i)
		list = append(list, s)
	}
	*v = list
	return err
}

// dict reads an object of strings (the digests of a review's files) at
// once, as list does, finding a key given twice itself.
func (r *reading) dict(dec *jsontext.Decoder, v *map[string]string) error {
	raw, base, err := whole(dec)
	// sized for a member a `":` (a hint: a review's 5,000 digests grew
	// the map a dozen times, a tenth of a check record's CPU)
	m := make(map[string]string, bytes.Count(raw, []byte(`":`)))
	for i := next(raw, 1); err == nil && raw[i] != '}'; i = next(raw, i) {
		key, end := r.cut(raw, base, i)
		i = next(raw, end) // past the colon
		if raw[i] != '"' {
			return fail(dec.StackPointer().AppendToken(key), "", "expected string, but got %s", kindName(jsontext.Kind(raw[i])))
		}
		if _, dup := m[key]; dup {
			return duplicate(dec.StackPointer().AppendToken(key), key)
		}
		m[key], i = r.cut(raw, base, i)
	}
	*v = m
	return err
}

// whole reads the value at dec, which v2 checks, and where it starts in
// the document.
func whole(dec *jsontext.Decoder) (raw jsontext.Value, base int, err error) {
	raw, err = dec.ReadValue()
	return raw, int(dec.InputOffset()) - len(raw), err
}

// next skips the white space, commas and colons of valid JSON from i on.
func next(raw []byte, i int) int {
	for ; i < len(raw); i++ {
		if c := raw[i]; c != ' ' && c != '\n' && c != '\t' && c != '\r' && c != ',' && c != ':' {
			break
		}
	}
	return i
}

// cut is the string starting at raw[i], which v2 has checked, and the
// index after it: a slice of r.text (raw starts at base there) if it
// holds no escape.
func (r *reading) cut(raw []byte, base, i int) (string, int) {
	end := i + bytes.IndexByte(raw[i+1:], '"') + 1
	for escaped(raw, end) {
		end += bytes.IndexByte(raw[end+1:], '"') + 1
	}
	switch s := raw[i : end+1]; {
	case bytes.IndexByte(s, '\\') >= 0:
		text, _ := jsontext.AppendUnquote(nil, s)
		return string(text), end + 1
	case r.text != "":
		return r.text[base+i+1 : base+end], end + 1
	default:
		return string(s[1 : len(s)-1]), end + 1
	}
}

// escaped reports whether the quote at raw[q] is escaped: preceded by an
// odd number of backslashes.
func escaped(raw []byte, q int) bool {
	n := 0
	for ; raw[q-1-n] == '\\'; n++ {
	}
	return n%2 == 1
}

// read reads the string at dec: a slice of r.text if it holds no escape.
func (r *reading) read(dec *jsontext.Decoder) (string, error) {
	raw, base, err := whole(dec)
	if err != nil || raw.Kind() != '"' {
		return "", cmp.Or(err, fail(dec.StackPointer(), "", "expected string, but got %s", kindName(raw.Kind())))
	}
	s, _ := r.cut(raw, base, 0)
	return s, nil
}
