package protocol

import (
	"bytes"
	"encoding/binary"
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
		if c := d.data[d.i]; c > ' ' || c != ' ' && c != '\n' && c != '\t' && c != '\r' {
			return d.i
		}
		d.i++
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
// It looks at eight bytes at a time (paths and digests are long).
func readsAsIs(b []byte) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	for len(b) >= 8 {
		x := binary.LittleEndian.Uint64(b)
		backslash := x ^ (ones * '\\')
		// A byte of x is below 0x20 (with no high bit set anywhere), or a
		// byte of backslash is zero, or a byte of x has its high bit set.
		if (x-ones*0x20)&^x&highs != 0 || (backslash-ones)&^backslash&highs != 0 || x&highs != 0 {
			return false
		}
		b = b[8:]
	}
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

// stringItems is about how many strings the array or object of strings
// at i holds (keys and values alike): the quotes up to the first closing
// bracket or brace, halved. A string holding that bracket or a quote makes
// it wrong, and harmlessly so: it only sizes an allocation.
func (d *fastDecoder) stringItems() int {
	closer := byte(']')
	if d.data[d.i] == '{' {
		closer = '}'
	}
	end := bytes.IndexByte(d.data[d.i:], closer)
	if end < 0 {
		return 0
	}
	return bytes.Count(d.data[d.i:d.i+end], []byte{'"'}) / 2
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
