package protocol

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// reader reads one JSON document (RFC 8259 and nothing more: no comments,
// trailing commas, NaN or leading zeros) from text, which is valid UTF-8.
// It knows where it is (path) so that every error names the field, and
// it refuses what JSON readers disagree on: a key given twice in one
// object, and nesting deeper than MaxDepth. strict.go directs it by the Go
// type a document decodes into.
type reader struct {
	text    string
	i       int
	file    string
	schema  string // names the schema in hints
	strict  bool   // every object refuses unknown keys (agent inputs, config)
	version int    // the newest top-level "version" this build reads; 0: none
	path    []step
	buf     [MaxDepth + 1]step // path's first backing array
}

// step is one step of the path to a value: a key, or an index (key "").
type step struct {
	key   string
	index int
}

func (r *reader) push(key string) { r.path = append(r.path, step{key: key}) }
func (r *reader) pushIndex(i int) { r.path = append(r.path, step{index: i}) }
func (r *reader) pop()            { r.path = r.path[:len(r.path)-1] }

// where is the path as an error names it: findings[3].line.
func (r *reader) where() string {
	field := ""
	for _, s := range r.path {
		if s.key == "" {
			field = subField(field, indexField(s.index))
		} else {
			field = subField(field, s.key)
		}
	}
	return field
}

// peek skips white space and returns the next byte, 0 at the end (and
// for a NUL byte, which starts nothing either: see atEnd).
func (r *reader) peek() byte {
	for ; r.i < len(r.text); r.i++ {
		if c := r.text[r.i]; c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return c
		}
	}
	return 0
}

// syntax is a malformed document, with the line and column of r.i.
func (r *reader) syntax(format string, args ...any) error {
	if r.i >= len(r.text) {
		format, args = "the document ends too early", nil
		r.i = len(strings.TrimRight(r.text, " \t\r\n"))
	}
	line, col := position(r.text, r.i)
	return invalid(r.file, "", hintHandEdit, "is not valid JSON (line %d, column %d): %s", line, col, fmt.Sprintf(format, args...))
}

// fail is a well-formed value that breaks a rule, at the current field.
func (r *reader) fail(format string, args ...any) error {
	return invalid(r.file, r.where(), r.hint(), format, args...)
}

func (r *reader) hint() string {
	return fmt.Sprintf("run `specdev schema %s` to see every field and its type", r.schema)
}

// atEnd reports whether only white space is left.
func (r *reader) atEnd() bool {
	r.peek()
	return r.i >= len(r.text)
}

// found names what starts at the next byte, for a syntax error.
func (r *reader) found() string {
	if r.atEnd() {
		return "the end"
	}
	c, _ := utf8.DecodeRuneInString(r.text[r.i:])
	return strconv.QuoteRune(c)
}

// kindAt names the kind of value that starts with c, as JSON Schema does;
// "" if no value starts with c.
func kindAt(c byte) string {
	switch {
	case c == '"':
		return "string"
	case c == '{':
		return "object"
	case c == '[':
		return "array"
	case c == 't' || c == 'f':
		return "boolean"
	case c == 'n':
		return "null"
	case c == '-' || c >= '0' && c <= '9':
		return "number"
	}
	return ""
}

// mismatch refuses a value of another kind than want (after checking it
// is a value at all).
func (r *reader) mismatch(want string) error {
	got := kindAt(r.peek())
	if got == "" {
		return r.syntax("expected a value, found %s", r.found())
	}
	return r.fail("expected %s, but got %s", want, got)
}

// open reads the '{' or '[' at r.i, refusing one that nests too deep.
func (r *reader) open() error {
	if len(r.path) >= MaxDepth {
		field := r.where()
		if field == "" {
			field = "(the document)"
		}
		return invalid(r.file, field, "flatten the value, or remove it", "nests deeper than %d levels of objects and lists", MaxDepth)
	}
	r.i++
	return nil
}

// next moves to the next member or item of the object or array being
// read, after its first one if first is false; false at its end (close).
func (r *reader) next(close byte, first bool) (bool, error) {
	c := r.peek()
	switch {
	case c == close:
		r.i++
		return false, nil
	case first:
		return true, nil
	case c == ',':
		r.i++
		return true, nil
	case close == '}':
		return false, r.syntax("expected ',' or '}' after a member of an object, found %s", r.found())
	}
	return false, r.syntax("expected ',' or ']' after an item of an array, found %s", r.found())
}

// key reads a member's key and the colon after it.
func (r *reader) key() (string, error) {
	if r.peek() != '"' {
		return "", r.syntax("expected a key in double quotes, found %s", r.found())
	}
	key, err := r.str()
	if err != nil {
		return "", err
	}
	if r.peek() != ':' {
		return "", r.syntax("expected ':' after the key %s, found %s", QuotePrefix(key), r.found())
	}
	r.i++
	return key, nil
}

// duplicate refuses a key given twice in one object.
func (r *reader) duplicate(key string) error {
	return invalid(r.file, r.where(), "keep one of them", "key %s appears twice in the same object", QuotePrefix(key))
}

// plainByte marks the bytes a string holds as they are: not a quote, a
// backslash or a control character.
var plainByte = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// str reads the string at r.i; one without escapes is a slice of text.
func (r *reader) str() (string, error) {
	start := r.i + 1
	j := start
	for j < len(r.text) && plainByte[r.text[j]] {
		j++
	}
	switch {
	case j == len(r.text):
		r.i = j
		return "", r.syntax("a string is not closed")
	case r.text[j] == '"':
		r.i = j + 1
		return r.text[start:j], nil
	case r.text[j] == '\\':
		return r.unescape([]byte(r.text[start:j]), j)
	}
	r.i = j
	return "", r.syntax("control character %q in a string (write it escaped)", r.text[j])
}

// unescape reads the rest of a string from the backslash at j on.
func (r *reader) unescape(b []byte, j int) (string, error) {
	for j < len(r.text) {
		c := r.text[j]
		switch {
		case c == '"':
			r.i = j + 1
			return string(b), nil
		case c < 0x20:
			r.i = j
			return "", r.syntax("control character %q in a string (write it escaped)", c)
		case c != '\\':
			b = append(b, c)
			j++
			continue
		}
		r.i = j
		if j+1 >= len(r.text) {
			return "", r.syntax("a string is not closed")
		}
		switch e := r.text[j+1]; e {
		case '"', '\\', '/':
			b, j = append(b, e), j+2
		case 'b', 'f', 'n', 'r', 't':
			b, j = append(b, "\b\f\n\r\t"[strings.IndexByte("bfnrt", e)]), j+2
		case 'u':
			rn, ok := hex4(r.text, j+2)
			if !ok {
				return "", r.syntax(`\u must be followed by 4 hex digits`)
			}
			j += 6
			if utf16.IsSurrogate(rn) {
				low, ok := hex4(r.text, j+2)
				if pair := utf16.DecodeRune(rn, low); ok && strings.HasPrefix(r.text[j:], `\u`) && pair != utf8.RuneError {
					rn, j = pair, j+6
				} else {
					rn = utf8.RuneError // a lone surrogate, as encoding/json reads it
				}
			}
			b = utf8.AppendRune(b, rn)
		default:
			return "", r.syntax("invalid escape %s in a string", strconv.Quote(r.text[j:j+2]))
		}
	}
	r.i = len(r.text)
	return "", r.syntax("a string is not closed")
}

func hex4(s string, i int) (rune, bool) {
	if i+4 > len(s) {
		return 0, false
	}
	n, err := strconv.ParseUint(s[i:i+4], 16, 16)
	return rune(n), err == nil
}

// number reads the number at r.i and returns it as written.
func (r *reader) number() (string, error) {
	start, j := r.i, r.i
	digits := func() bool {
		from := j
		for j < len(r.text) && r.text[j] >= '0' && r.text[j] <= '9' {
			j++
		}
		return j > from
	}
	if j < len(r.text) && r.text[j] == '-' {
		j++
	}
	ok := j < len(r.text) && r.text[j] == '0'
	if ok {
		j++
	} else {
		ok = digits()
	}
	if ok && j < len(r.text) && r.text[j] == '.' {
		j++
		ok = digits()
	}
	if ok && j < len(r.text) && (r.text[j] == 'e' || r.text[j] == 'E') {
		j++
		if j < len(r.text) && (r.text[j] == '+' || r.text[j] == '-') {
			j++
		}
		ok = digits()
	}
	for ; j < len(r.text) && strings.IndexByte("0123456789.+-eE", r.text[j]) >= 0; j++ {
		ok = false // "03", "1.2.3": not one number
	}
	if !ok {
		r.i = start
		return "", r.syntax("invalid number %s", QuotePrefix(r.text[start:j]))
	}
	r.i = j
	return r.text[start:j], nil
}

// literal reads true, false or null.
func (r *reader) literal() (string, error) {
	for _, word := range []string{"true", "false", "null"} {
		if strings.HasPrefix(r.text[r.i:], word) {
			r.i += len(word)
			return word, nil
		}
	}
	return "", r.syntax("expected a value, found %s", r.found())
}

// anyValue reads any value: as the generic Go value encoding/json gives
// (map[string]any, []any, string, float64, bool, nil) when keep is set,
// or only checked and skipped.
func (r *reader) anyValue(keep bool) (any, error) {
	switch c := r.peek(); {
	case c == '{':
		return r.anyObject(keep)
	case c == '[':
		return r.anyArray(keep)
	case c == '"':
		return r.str()
	case c == '-' || c >= '0' && c <= '9':
		lit, err := r.number()
		if err != nil || !keep {
			return nil, err
		}
		f, err := strconv.ParseFloat(lit, 64)
		if err != nil {
			return nil, r.fail("number %s is out of range", QuotePrefix(lit))
		}
		return f, nil
	}
	word, err := r.literal()
	if word == "null" {
		return nil, err
	}
	return word == "true", err
}

func (r *reader) anyObject(keep bool) (any, error) {
	if err := r.open(); err != nil {
		return nil, err
	}
	obj := map[string]any{}
	for first := true; ; first = false {
		more, err := r.next('}', first)
		if !more || err != nil {
			return obj, err
		}
		key, err := r.key()
		if err != nil {
			return nil, err
		}
		r.push(key)
		if _, dup := obj[key]; dup {
			return nil, r.duplicate(key)
		}
		v, err := r.anyValue(keep)
		if err != nil {
			return nil, err
		}
		obj[key] = v
		r.pop()
	}
}

func (r *reader) anyArray(keep bool) (any, error) {
	if err := r.open(); err != nil {
		return nil, err
	}
	list := []any{}
	for i := 0; ; i++ {
		more, err := r.next(']', i == 0)
		if !more || err != nil {
			return list, err
		}
		r.pushIndex(i)
		v, err := r.anyValue(keep)
		if err != nil {
			return nil, err
		}
		if keep {
			list = append(list, v)
		}
		r.pop()
	}
}

// position converts a byte offset into a 1-based line and column.
func position(text string, offset int) (line, col int) {
	offset = min(max(offset, 0), len(text))
	before := text[:offset]
	return strings.Count(before, "\n") + 1, offset - strings.LastIndexByte(before, '\n')
}
