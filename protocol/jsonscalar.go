package protocol

// The values the decoder reads itself, without v2's reflection per value:
// those a large review holds thousands of (paths, digests, the fields of
// findings and events), and those v2 reads otherwise (an integer written
// 3.0, a time written "", a duration written "15m" or 900).

import (
	"bytes"
	"cmp"
	"errors"
	"math"
	"reflect"
	"strconv"

	"github.com/go-json-experiment/json/jsontext"
)

// readInteger reads into v an integer written as any number without a
// fraction, so 3, 3.0 and 3e0 alike (bounds are Validate's to check).
func readInteger(dec *jsontext.Decoder, v reflect.Value) error {
	raw, err := dec.ReadValue()
	if err != nil || raw.Kind() != '0' {
		return cmp.Or(err, fail(dec.StackPointer(), "", "expected integer, but got %s", kindName(raw.Kind())))
	}
	n, err := strconv.ParseInt(string(raw), 10, 64)
	if err != nil {
		f, _ := strconv.ParseFloat(string(raw), 64) // a valid JSON number: only its range can fail
		switch {
		case f != math.Trunc(f):
			return fail(dec.StackPointer(), "", "is %s, not an integer", QuotePrefix(string(raw)))
		case f >= math.MaxInt64 || f < math.MinInt64:
			return fail(dec.StackPointer(), "", "is %s, out of the range of any integer here", QuotePrefix(string(raw)))
		}
		n = int64(f)
	}
	if v.OverflowInt(n) {
		return fail(dec.StackPointer(), "", "is %s, out of the range of any integer here", QuotePrefix(string(raw)))
	}
	v.SetInt(n)
	return nil
}

// readAny reads any value as encoding/json gives it: map[string]any,
// []any, string, float64, bool or nil.
func readAny(dec *jsontext.Decoder) (any, error) {
	tok, err := dec.ReadToken()
	if err != nil {
		return nil, err
	}
	switch tok.Kind() {
	case '{':
		obj := map[string]any{}
		for dec.PeekKind() != '}' {
			name, err := dec.ReadToken()
			if err != nil {
				return nil, err
			}
			key := name.String() // before the next read voids name
			if obj[key], err = readAny(dec); err != nil {
				return nil, err
			}
		}
		_, err = dec.ReadToken()
		return obj, err
	case '[':
		list := []any{}
		for dec.PeekKind() != ']' {
			item, err := readAny(dec)
			if err != nil {
				return nil, err
			}
			list = append(list, item)
		}
		_, err = dec.ReadToken()
		return list, err
	case '"':
		return tok.String(), nil
	case '0':
		f, err := strconv.ParseFloat(tok.String(), 64)
		if err != nil {
			return nil, fail(dec.StackPointer(), "", "is %s, out of the range of any number here", QuotePrefix(tok.String()))
		}
		return f, nil
	case 'n':
		return nil, nil
	}
	return tok.Bool(), nil
}

// timestamp reads "" as the zero time and RFC 3339 otherwise.
func (r *reading) timestamp(dec *jsontext.Decoder, t *Timestamp) error {
	s, err := r.read(dec)
	if err != nil {
		return err
	}
	if *t, err = parseTimestamp(s); err != nil {
		return fail(dec.StackPointer(), "", "%v", err)
	}
	return nil
}

// readDuration reads Go syntax ("15m") or a number of seconds (120); the
// bounds of its field are Validate's to check.
func readDuration(dec *jsontext.Decoder, d *Duration) error {
	raw, err := dec.ReadValue()
	if err != nil || raw.Kind() != '"' && raw.Kind() != '0' {
		return cmp.Or(err, fail(dec.StackPointer(), "", "expected %s, but got %s", wantDuration, kindName(raw.Kind())))
	}
	text := string(raw)
	if raw.Kind() == '"' {
		unquoted, _ := jsontext.AppendUnquote(nil, raw) // valid: the decoder has read it
		text = string(unquoted)
	}
	v, err := ParseDuration(text)
	if errors.Is(err, errTooLong) {
		v, err = math.MaxInt64, nil // beyond every field's range: Validate names the range
	}
	if err != nil {
		return fail(dec.StackPointer(), hintDuration, "%v", err)
	}
	*d = Duration(v)
	return nil
}

// list reads a list of strings (the lists of files) without reflection
// per item.
func (r *reading) list(dec *jsontext.Decoder, v *[]string) error {
	if err := expect(dec, "array", "["); err != nil {
		return err
	}
	if _, err := dec.ReadToken(); err != nil {
		return err
	}
	list := []string{}
	for dec.PeekKind() != ']' {
		item, err := r.read(dec)
		if err != nil {
			return err
		}
		list = append(list, item)
	}
	*v = list
	_, err := dec.ReadToken()
	return err
}

// dict reads an object of strings (the digests of a review's files)
// without reflection per entry, finding a key given twice itself.
func (r *reading) dict(dec *jsontext.Decoder, v *map[string]string) error {
	if err := expect(dec, "object", "{"); err != nil {
		return err
	}
	if _, err := dec.ReadToken(); err != nil {
		return err
	}
	m := map[string]string{}
	for dec.PeekKind() != '}' {
		key, err := r.read(dec)
		if err != nil {
			return err
		}
		value, err := r.read(dec)
		if err != nil {
			return err
		}
		if _, dup := m[key]; dup {
			return fail(dec.StackPointer(), "keep one of them", "key %s appears twice in the same object", QuotePrefix(key))
		}
		m[key] = value
	}
	*v = m
	_, err := dec.ReadToken()
	return err
}

// read reads the string at dec: a slice of r.text if it holds no escape.
func (r *reading) read(dec *jsontext.Decoder) (string, error) {
	raw, err := dec.ReadValue()
	switch {
	case err != nil:
		return "", err
	case raw.Kind() != '"':
		return "", fail(dec.StackPointer(), "", "expected string, but got %s", kindName(raw.Kind()))
	case bytes.IndexByte(raw, '\\') >= 0:
		text, err := jsontext.AppendUnquote(nil, raw)
		return string(text), err
	case r.text != "":
		end := int(dec.InputOffset())
		return r.text[end-len(raw)+1 : end-1], nil
	}
	return string(raw[1 : len(raw)-1]), nil
}
