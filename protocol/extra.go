package protocol

import (
	"bytes"
	"encoding/json"
	"reflect"
	"sort"
	"strings"
	"sync"
)

// Extra holds the fields of a state file that this version of specdev does
// not know. They are written back unchanged, so that a file another tool
// (or a newer specdev) wrote keeps its data when we rewrite it.
type Extra map[string]json.RawMessage

// topFields are a struct's top-level JSON names, exactly and folded.
type topFields struct {
	known  map[string]bool
	folded map[string]string // foldKey(name) -> name
}

// topFieldsOf returns t's top-level fields, found by reflection on first
// use: reflection in a package variable is paid at start-up by every
// command, also by those that never read t.
func topFieldsOf(t reflect.Type) func() topFields {
	return sync.OnceValue(func() topFields {
		known := knownFields(t)
		return topFields{known: known, folded: foldAll(known)}
	})
}

// knownFields returns the JSON names of a struct type's fields.
func knownFields(t reflect.Type) map[string]bool {
	known := make(map[string]bool, t.NumField())
	for i := 0; i < t.NumField(); i++ {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			known[name] = true
		}
	}
	return known
}

// decodeKeepingExtra decodes data into fields (a pointer to a struct) and
// returns the top-level fields it does not know; folded maps the folded
// names of the known ones to them. The fast decoder reads the common case
// in one pass; what it leaves to encoding/json decodes once when it has no
// unknown fields, and only a file with unknown fields pays for a second
// pass.
func decodeKeepingExtra(data []byte, fields any, known map[string]bool, folded map[string]string) (Extra, error) {
	if extra, ok := decodeFast(data, fields, folded); ok {
		return extra, nil
	}
	reflect.ValueOf(fields).Elem().SetZero() // start again from what the fast decoder filled
	return decodeSlow(data, fields, known)
}

// decodeSlow is decodeKeepingExtra with encoding/json alone.
func decodeSlow(data []byte, fields any, known map[string]bool) (Extra, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(fields); err == nil {
		return nil, nil
	}
	if err := json.Unmarshal(data, fields); err != nil {
		return nil, err
	}
	return splitExtra(data, known)
}

// splitExtra returns the top-level fields of an object that are not known.
func splitExtra(data []byte, known map[string]bool) (Extra, error) {
	var all map[string]json.RawMessage
	if err := json.Unmarshal(data, &all); err != nil {
		return nil, err
	}
	var extra Extra
	for name, raw := range all {
		if known[name] {
			continue
		}
		if extra == nil {
			extra = Extra{}
		}
		extra[name] = raw
	}
	return extra, nil
}

// appendExtra adds the extra fields, sorted by name, to an encoded object.
func appendExtra(encoded []byte, extra Extra) ([]byte, error) {
	if len(extra) == 0 {
		return encoded, nil
	}
	names := make([]string, 0, len(extra))
	for name := range extra {
		names = append(names, name)
	}
	sort.Strings(names)
	var buf bytes.Buffer
	buf.Write(bytes.TrimSuffix(bytes.TrimSpace(encoded), []byte("}")))
	needComma := !bytes.HasSuffix(bytes.TrimSpace(buf.Bytes()), []byte("{"))
	for _, name := range names {
		if needComma {
			buf.WriteByte(',')
		}
		needComma = true
		key, _ := json.Marshal(name)
		buf.Write(key)
		buf.WriteByte(':')
		if err := json.Compact(&buf, extra[name]); err != nil { // as read, it may be indented
			return nil, err
		}
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}
