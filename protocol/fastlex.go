package protocol

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
	"unicode/utf8"
)

// The fast decoder's reading of white space, strings, integers and
// literals, each as strict as encoding/json's scanner.

// skipSpace moves past white space and returns where it stopped.
func (d *fastDecoder) skipSpace() int {
	for d.i < len(d.data) {
		switch d.data[d.i] {
		case ' ', '\n', '\t', '\r':
			d.i++
		default:
			return d.i
		}
	}
	return d.i
}

// next skips white space and reports whether the next byte is c,
// consuming it if so.
func (d *fastDecoder) next(c byte) bool {
	if d.skipSpace() < len(d.data) && d.data[d.i] == c {
		d.i++
		return true
	}
	return false
}

func (d *fastDecoder) boolean(v reflect.Value) bool {
	switch {
	case hasPrefixAt(d.text, d.i, "true"):
		d.i += 4
		v.SetBool(true)
	case hasPrefixAt(d.text, d.i, "false"):
		d.i += 5
		v.SetBool(false)
	default:
		return false
	}
	return !d.inWord()
}

func hasPrefixAt(s string, i int, prefix string) bool {
	return len(s)-i >= len(prefix) && s[i:i+len(prefix)] == prefix
}

// inWord reports whether a literal or number runs on into more letters or
// digits (true1, 12e3): not a value that ends where this decoder stopped.
func (d *fastDecoder) inWord() bool {
	if d.i >= len(d.data) {
		return false
	}
	c := d.data[d.i]
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '+'
}

// integer reads a JSON number that is an integer: -?(0|[1-9][0-9]*), as
// strconv.ParseInt reads it for encoding/json. A fraction or an exponent
// is not for this decoder (encoding/json refuses it for an int).
func (d *fastDecoder) integer() (int64, bool) {
	start := d.i
	if d.i < len(d.data) && d.data[d.i] == '-' {
		d.i++
	}
	digits := d.i
	for d.i < len(d.data) && d.data[d.i] >= '0' && d.data[d.i] <= '9' {
		d.i++
	}
	if d.i == digits || d.data[digits] == '0' && d.i-digits > 1 || d.inWord() {
		return 0, false
	}
	n, err := strconv.ParseInt(d.text[start:d.i], 10, 64)
	return n, err == nil
}

// str reads a JSON string. One without escapes in valid UTF-8 is a slice
// of the document; any other is unquoted by encoding/json (which turns
// invalid UTF-8 into U+FFFD).
func (d *fastDecoder) str() (string, bool) {
	if d.i >= len(d.data) || d.data[d.i] != '"' {
		return "", false
	}
	start := d.i
	if end := bytes.IndexByte(d.data[start+1:], '"') + start + 1; end > start && readsAsIs(d.data[start+1:end]) {
		d.i = end + 1 // the common case: a path or a digest, up to the first quote
		return d.text[start+1 : end], true
	}
	plain, ascii := true, true
	for j := start + 1; j < len(d.data); j++ {
		switch c := d.data[j]; {
		case c == '"':
			d.i = j + 1
			if s := d.text[start+1 : j]; plain && (ascii || utf8.ValidString(s)) {
				return s, true
			}
			return unquoteJSON(d.data[start:d.i])
		case c == '\\':
			plain = false
			if j++; j < len(d.data) && d.data[j] == 'u' {
				if !isHex4(d.data, j+1) {
					return "", false
				}
				j += 4
			} else if j >= len(d.data) || !isEscape(d.data[j]) {
				return "", false
			}
		case c < 0x20:
			return "", false
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	return "", false
}

// readsAsIs reports whether b has neither control characters, nor
// backslashes, nor bytes beyond ASCII: a string text that reads as it is.
func readsAsIs(b []byte) bool {
	for _, c := range b {
		if c < 0x20 || c == '\\' || c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// unquoteJSON is encoding/json's reading of the string literal b.
func unquoteJSON(b []byte) (string, bool) {
	var s string
	err := json.Unmarshal(b, &s)
	return s, err == nil
}

func isEscape(c byte) bool {
	switch c {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return true
	}
	return false
}

func isHex4(data []byte, i int) bool {
	if len(data)-i < 4 {
		return false
	}
	for _, c := range data[i : i+4] {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// stringItems counts the strings of the array or object of strings at i
// (keys and values alike) without reading them, hopping from quote to
// quote: the size to allocate for them. It stops early at anything else,
// so it is only a hint.
func (d *fastDecoder) stringItems() int {
	n := 0
	for j := d.i + 1; ; n++ {
		for j < len(d.data) && (d.data[j] == ' ' || d.data[j] == '\n' || d.data[j] == '\t' || d.data[j] == '\r') {
			j++
		}
		if j >= len(d.data) || d.data[j] != '"' {
			return n
		}
		end := closingQuote(d.data, j+1)
		if end < 0 {
			return n
		}
		for j = end + 1; j < len(d.data) && (d.data[j] == ' ' || d.data[j] == '\n' || d.data[j] == '\t' || d.data[j] == '\r'); j++ {
		}
		if j >= len(d.data) || d.data[j] != ',' && d.data[j] != ':' {
			return n + 1
		}
		j++
	}
}

// closingQuote returns the index of the quote that ends the string whose
// text starts at data[i], or -1.
func closingQuote(data []byte, i int) int {
	for {
		k := bytes.IndexByte(data[i:], '"')
		if k < 0 {
			return -1
		}
		q := i + k
		escapes := 0
		for b := q - 1; b >= i && data[b] == '\\'; b-- {
			escapes++
		}
		if escapes%2 == 0 {
			return q
		}
		i = q + 1
	}
}
