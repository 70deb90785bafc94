package protocol

// The scalars of a document (strings, numbers, true, false and null), and
// values of any kind.

import (
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

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
		obj := map[string]any{}
		err := r.members(func(key string) error {
			if _, dup := obj[key]; dup {
				return r.duplicate(key)
			}
			v, err := r.anyValue(keep)
			obj[key] = v
			return err
		})
		return obj, err
	case c == '[':
		list := []any{}
		err := r.items(func(int) error {
			v, err := r.anyValue(keep)
			if keep {
				list = append(list, v)
			}
			return err
		})
		return list, err
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
