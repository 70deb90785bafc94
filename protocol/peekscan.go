package protocol

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"sync"
)

// A peek reads a few top-level fields of a state file without decoding
// the rest: a poll over many assignments must cost little more than
// reading them, and a request carries ever larger parts a poll never
// needs (journal, digests, pass records). The scan checks the document's
// structure, matches keys exactly (no case folding: "STATUS" is not
// "status"), refuses a wanted key given twice, and skims every other value.

// peekFields maps the JSON names of a peek struct's fields to their index.
var peekFields sync.Map // reflect.Type -> map[string]int

func fieldsOf(t reflect.Type) map[string]int {
	if m, ok := peekFields.Load(t); ok {
		return m.(map[string]int)
	}
	m := make(map[string]int, t.NumField())
	for i := 0; i < t.NumField(); i++ {
		if name := jsonName(t.Field(i)); name != "" {
			m[name] = i
		}
	}
	peekFields.Store(t, m)
	return m
}

func jsonName(f reflect.StructField) string {
	tag := f.Tag.Get("json")
	for i := 0; i < len(tag); i++ {
		if tag[i] == ',' {
			return tag[:i]
		}
	}
	return tag
}

// peekInto sets the fields of the struct v points to from the top-level
// keys of data that name them exactly.
func peekInto(data []byte, v any) error {
	rv := reflect.ValueOf(v).Elem()
	fields := fieldsOf(rv.Type())
	seen := make(map[int]bool, len(fields))
	return topLevel(data, func(key string, raw []byte) error {
		i, ok := fields[key]
		if !ok {
			return nil
		}
		if seen[i] {
			return fmt.Errorf("key %q is given twice", key)
		}
		seen[i] = true
		if err := setPeeked(rv.Field(i), raw); err != nil {
			return fmt.Errorf("field %q: %w", key, err)
		}
		return nil
	})
}

// setPeeked decodes one value into a field, with fast paths for the plain
// strings, numbers and booleans a peek mostly reads.
func setPeeked(f reflect.Value, raw []byte) error {
	if string(raw) == "null" {
		return nil
	}
	if u, ok := f.Addr().Interface().(json.Unmarshaler); ok {
		return u.UnmarshalJSON(raw)
	}
	if list, ok := f.Addr().Interface().(*[]string); ok { // a progress's lists of files
		if peekStrings(raw, list) {
			return nil
		}
		*list = nil // encoding/json says what is wrong
	}
	switch f.Kind() {
	case reflect.String:
		s, err := unquote(raw)
		if err != nil {
			return errors.New("is not a string")
		}
		f.SetString(s)
		return nil
	case reflect.Int, reflect.Int64:
		n, err := strconv.ParseInt(string(raw), 10, 64)
		if err != nil {
			return errors.New("is not an integer")
		}
		f.SetInt(n)
		return nil
	case reflect.Bool:
		switch string(raw) {
		case "true":
			f.SetBool(true)
		case "false":
			f.SetBool(false)
		default:
			return errors.New("is not true or false")
		}
		return nil
	}
	return json.Unmarshal(raw, f.Addr().Interface())
}

// peekStrings reads a JSON array of strings with the fast decoder, as
// encoding/json would; false for anything else.
func peekStrings(raw []byte, list *[]string) bool {
	d := fastDecoder{data: raw, text: string(raw)}
	return d.strings(list) && d.skipSpace() == len(raw)
}

// topLevel calls fn with each key of the top-level object of data and the
// raw bytes of its value, in order.
func topLevel(data []byte, fn func(key string, raw []byte) error) error {
	i := skipJSONSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return errors.New("is not a JSON object")
	}
	i = skipJSONSpace(data, i+1)
	if i < len(data) && data[i] == '}' {
		return trailing(data, i+1)
	}
	for {
		if i >= len(data) || data[i] != '"' {
			return fmt.Errorf("expected a key at byte %d", i)
		}
		end, err := skipJSONString(data, i)
		if err != nil {
			return err
		}
		key, err := unquote(data[i:end])
		if err != nil {
			return fmt.Errorf("bad key at byte %d", i)
		}
		i = skipJSONSpace(data, end)
		if i >= len(data) || data[i] != ':' {
			return fmt.Errorf("expected ':' at byte %d", i)
		}
		start := skipJSONSpace(data, i+1)
		if end, err = skipJSONValue(data, start); err != nil {
			return err
		}
		if err := fn(key, data[start:end]); err != nil {
			return err
		}
		i = skipJSONSpace(data, end)
		switch {
		case i < len(data) && data[i] == ',':
			i = skipJSONSpace(data, i+1)
		case i < len(data) && data[i] == '}':
			return trailing(data, i+1)
		default:
			return fmt.Errorf("expected ',' or '}' at byte %d", i)
		}
	}
}

func trailing(data []byte, i int) error {
	if skipJSONSpace(data, i) != len(data) {
		return fmt.Errorf("more than one JSON value (byte %d)", i)
	}
	return nil
}

func skipJSONSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\n' || data[i] == '\t' || data[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index after the string that starts at data[i]
// (hopping from quote to quote: most of a request is long strings).
func skipJSONString(data []byte, i int) (int, error) {
	if end := closingQuote(data, i+1); end >= 0 {
		return end + 1, nil
	}
	return 0, errors.New("a string is not closed")
}

// skipValue returns the index after the value that starts at data[i]:
// objects and arrays by depth (strings inside them skipped whole), a
// scalar up to the next delimiter.
func skipJSONValue(data []byte, i int) (int, error) {
	if i >= len(data) {
		return 0, errors.New("a value is missing")
	}
	switch data[i] {
	case '"':
		return skipJSONString(data, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(data); j++ {
			switch data[j] {
			case '"':
				end, err := skipJSONString(data, j)
				if err != nil {
					return 0, err
				}
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return j + 1, nil
				}
			}
		}
		return 0, errors.New("an object or array is not closed")
	}
	j := i
	for j < len(data) && data[j] != ',' && data[j] != '}' && data[j] != ']' &&
		data[j] != ' ' && data[j] != '\n' && data[j] != '\t' && data[j] != '\r' {
		j++
	}
	if j == i {
		return 0, fmt.Errorf("a value is missing at byte %d", i)
	}
	return j, nil
}
