package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strings"
	"sync"
	"unicode"
)

// The untrusted decode path reads a document token by token, directed by
// the Go type it will be decoded into, and refuses what Go's decoder would
// silently take differently from other JSON readers:
//   - a key that is not exactly a known field but equal to one ignoring
//     case ("STATUS", "ſtatus" with U+017F): encoding/json folds it onto
//     the field, other readers keep it apart;
//   - a key that appears twice in one object, exactly or in another case
//     (readers disagree on which one wins);
//   - nesting deeper than MaxDepth (a small file that grows enormous when
//     rewritten indented).
// It builds the generic document for schema validation in the same pass.

// shape is what the walker knows of a JSON value's Go type: for a struct,
// its fields by exact JSON name and by folded name; for a list or map, the
// shape of its items. A nil *shape is any value.
type shape struct {
	fields map[string]*shape
	folded map[string]string // foldKey(name) -> name
	items  *shape
}

var (
	unmarshalerType = reflect.TypeFor[json.Unmarshaler]()
	shapes          sync.Map // reflect.Type -> *shape
)

// shapeFor returns the shape of t, built once.
func shapeFor(t reflect.Type) *shape {
	if s, ok := shapes.Load(t); ok {
		return s.(*shape)
	}
	s, _ := shapes.LoadOrStore(t, buildShape(t, 0))
	return s.(*shape)
}

func buildShape(t reflect.Type, depth int) *shape {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if depth > MaxDepth || reflect.PointerTo(t).Implements(unmarshalerType) && depth > 0 {
		return nil // decodes itself from a string or number (Timestamp, Duration)
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array, reflect.Map:
		if t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8 {
			return nil // json.RawMessage: any value
		}
		return &shape{items: buildShape(t.Elem(), depth+1)}
	case reflect.Struct:
		s := &shape{fields: map[string]*shape{}, folded: map[string]string{}}
		for i := 0; i < t.NumField(); i++ {
			name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
			if name == "" || name == "-" || !t.Field(i).IsExported() {
				continue
			}
			s.fields[name] = buildShape(t.Field(i).Type, depth+1)
			s.folded[foldKey(name)] = name
		}
		return s
	}
	return nil
}

// foldKey maps s to one representative of all strings equal to it under
// Unicode simple case folding (what strings.EqualFold and encoding/json's
// key matching use): each rune becomes the smallest rune of its orbit.
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

func foldAll(known map[string]bool) map[string]string {
	folded := make(map[string]string, len(known))
	for name := range known {
		folded[foldKey(name)] = name
	}
	return folded
}

// walker reads one JSON document token by token.
type walker struct {
	dec  *json.Decoder
	file string
}

// pathStep is one step of the path to a value, for error messages.
type pathStep struct {
	parent *pathStep
	key    string
	index  int // -1 for a key
}

func (p *pathStep) String() string {
	if p == nil {
		return ""
	}
	if p.index >= 0 {
		return subField(p.parent.String(), indexField(p.index))
	}
	return subField(p.parent.String(), p.key)
}

var errEmpty = errors.New("empty document")

// value reads the next value, which has shape s and sits at depth
// (the root object or list is depth 1).
func (w *walker) value(s *shape, depth int, at *pathStep) (any, error) {
	tok, err := w.dec.Token()
	if err != nil {
		return nil, err
	}
	delim, ok := tok.(json.Delim)
	if !ok {
		return tok, nil
	}
	if depth > MaxDepth {
		field := at.String()
		if field == "" {
			field = "(the document)"
		}
		return nil, invalid(w.file, field, "flatten the value, or remove it", "nests deeper than %d levels of objects and lists", MaxDepth)
	}
	if delim == '[' {
		return w.list(s, depth, at)
	}
	return w.object(s, depth, at)
}

func (w *walker) list(s *shape, depth int, at *pathStep) (any, error) {
	var items *shape
	if s != nil {
		items = s.items
	}
	list := []any{}
	for i := 0; w.dec.More(); i++ {
		v, err := w.value(items, depth+1, &pathStep{parent: at, index: i})
		if err != nil {
			return nil, err
		}
		list = append(list, v)
	}
	_, err := w.dec.Token() // ]
	return list, err
}

func (w *walker) object(s *shape, depth int, at *pathStep) (any, error) {
	obj := map[string]any{}
	seen := map[string]string{} // foldKey -> key as written
	for w.dec.More() {
		tok, err := w.dec.Token()
		if err != nil {
			return nil, err
		}
		key := tok.(string) // json.Decoder guarantees a string key here
		here := &pathStep{parent: at, key: key, index: -1}
		folded := foldKey(key)
		child, err := w.field(s, key, folded, here)
		if err != nil {
			return nil, err
		}
		if first, dup := seen[folded]; dup {
			return nil, w.duplicate(here, key, first)
		}
		seen[folded] = key
		if obj[key], err = w.value(child, depth+1, here); err != nil {
			return nil, err
		}
	}
	_, err := w.dec.Token() // }
	return obj, err
}

// field returns the shape of key in an object of shape s, refusing a key
// that matches a known field only when case is ignored.
func (w *walker) field(s *shape, key, folded string, at *pathStep) (*shape, error) {
	if s == nil || s.fields == nil {
		if s != nil {
			return s.items, nil // a map's values
		}
		return nil, nil
	}
	if child, ok := s.fields[key]; ok {
		return child, nil
	}
	if exact, ok := s.folded[folded]; ok {
		return nil, invalid(w.file, at.String(), "rename it to "+`"`+exact+`"`+" (keys are case-sensitive), or remove it",
			"key %s is not the field %q: keys must match exactly, without case folding", QuotePrefix(key), exact)
	}
	return nil, nil // unknown: kept or refused by the schema
}

func (w *walker) duplicate(at *pathStep, key, first string) error {
	if key == first {
		return invalid(w.file, at.String(), "keep one of them", "key %s appears twice in the same object", QuotePrefix(key))
	}
	return invalid(w.file, at.String(), "keep one of them, spelt exactly",
		"key %s repeats the key %s in another case; JSON readers disagree on which one counts", QuotePrefix(key), QuotePrefix(first))
}

// walk reads the whole of data as one document of shape s.
func walk(file string, data []byte, s *shape) (any, *json.Decoder, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	w := &walker{dec: dec, file: file}
	doc, err := w.value(s, 1, nil)
	switch {
	case err == nil:
	case len(bytes.TrimSpace(data)) == 0:
		return nil, dec, errEmpty
	case errors.Is(err, io.EOF): // Token's word for a document cut off
		err = io.ErrUnexpectedEOF
	}
	return doc, dec, err
}

// depthOf is how deeply a valid JSON value nests objects and lists (0 for
// a scalar); compactLen is its length without insignificant white space.
// Both scan bytes and allocate nothing.
func depthOf(raw []byte) int {
	depth, deepest := 0, 0
	scanJSON(raw, func(c byte) {
		switch c {
		case '{', '[':
			depth++
			deepest = max(deepest, depth)
		case '}', ']':
			depth--
		}
	}, nil)
	return deepest
}

func compactLen(raw []byte) int {
	n := 0
	scanJSON(raw, func(c byte) {
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			n++
		}
	}, func(int) { n++ })
	return n
}

// scanJSON calls outside for every byte outside strings and inside(n) for
// every byte of a string literal (quotes included).
func scanJSON(raw []byte, outside func(byte), inside func(int)) {
	inString, escaped := false, false
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if inString {
			if inside != nil {
				inside(i)
			}
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		if c == '"' {
			inString = true
			if inside != nil {
				inside(i)
			}
			continue
		}
		outside(c)
	}
}
