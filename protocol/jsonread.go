package protocol

import (
	"fmt"
	"strconv"
	"strings"
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

// members reads the object at r.i, calling member for each of its
// members with r.i at the value and the key on the path.
func (r *reader) members(member func(key string) error) error {
	if err := r.open(); err != nil {
		return err
	}
	for first := true; ; first = false {
		more, err := r.next('}', first)
		if !more || err != nil {
			return err
		}
		key, err := r.key()
		if err != nil {
			return err
		}
		r.push(key)
		if err := member(key); err != nil {
			return err
		}
		r.pop()
	}
}

// items reads the array at r.i, calling item for each of its items with
// r.i at the item and its index on the path.
func (r *reader) items(item func(i int) error) error {
	if err := r.open(); err != nil {
		return err
	}
	for i := 0; ; i++ {
		more, err := r.next(']', i == 0)
		if !more || err != nil {
			return err
		}
		r.pushIndex(i)
		if err := item(i); err != nil {
			return err
		}
		r.pop()
	}
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

// position converts a byte offset into a 1-based line and column.
func position(text string, offset int) (line, col int) {
	offset = min(max(offset, 0), len(text))
	before := text[:offset]
	return strings.Count(before, "\n") + 1, offset - strings.LastIndexByte(before, '\n')
}
