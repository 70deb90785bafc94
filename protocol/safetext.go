package protocol

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// SafeText makes agent or human text safe to print on a terminal, on one
// line. It removes every control character (C0, DEL, C1) together with the
// escape sequence it starts — CSI (ESC [ … or U+009B …), OSC, DCS, SOS,
// PM and APC strings up to their terminator, and two-character escapes —
// so that no remnant can colour the terminal, move the cursor or set its
// title. It removes the Unicode bidirectional controls (U+200E, U+200F,
// U+061C, U+202A–U+202E, U+2066–U+2069), which can make text read
// differently from what it is. Invalid UTF-8 becomes U+FFFD. Every run of
// white space (tabs, newlines, U+0085, U+2028, U+2029 …) becomes one
// space, trimmed at both ends.
//
// Plain printable ASCII with single inner spaces is returned as it is,
// without allocating.
func SafeText(s string) string {
	if plainASCII(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	space := false // a space is owed before the next printed character
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == 0x1b || r == 0x9b || r == 0x90 || r == 0x98 || r == 0x9d || r == 0x9e || r == 0x9f:
			i = skipEscape(s, i)
			continue
		case r == utf8.RuneError && size == 1:
			r = utf8.RuneError
		case unicode.IsSpace(r):
			space = b.Len() > 0
			i += size
			continue
		case unicode.IsControl(r) || isBidiControl(r):
			i += size
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
		i += size
	}
	return b.String()
}

// plainASCII reports whether SafeText would return s unchanged without
// looking closer: printable ASCII, no space at either end or twice in a row.
func plainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < ' ' || c > '~' || c == ' ' && (i == 0 || i == len(s)-1 || s[i-1] == ' ') {
			return false
		}
	}
	return true
}

func isBidiControl(r rune) bool {
	return r == 0x200e || r == 0x200f || r == 0x061c || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
}

// skipEscape returns the index just past the escape sequence that starts
// at s[i] (ESC, or a C1 introducer). An unterminated string sequence runs
// to the end of s, as a terminal would swallow it.
func skipEscape(s string, i int) int {
	r, size := utf8.DecodeRuneInString(s[i:])
	i += size
	kind := r
	if r == 0x1b {
		if i >= len(s) {
			return i
		}
		switch s[i] {
		case '[':
			kind = 0x9b
		case ']':
			kind = 0x9d
		case 'P', 'X', '^', '_':
			kind = 0x90
		default:
			return skipSequence(s, i, 0x2f, 0x30)
		}
		i++
	}
	if kind == 0x9b {
		return skipSequence(s, i, 0x3f, 0x40)
	}
	return skipString(s, i)
}

// skipSequence skips the bytes from 0x20 to last, then one final byte
// from final to 0x7E: a control sequence's parameter and intermediate
// bytes (to 0x3F) and its final byte (from 0x40), or a two-character
// escape's intermediate bytes (to 0x2F) and final byte (from 0x30), such
// as ESC c or ESC ( B.
func skipSequence(s string, i int, last, final byte) int {
	for i < len(s) && s[i] >= 0x20 && s[i] <= last {
		i++
	}
	if i < len(s) && s[i] >= final && s[i] <= 0x7e {
		i++
	}
	return i
}

// skipString skips an OSC, DCS, SOS, PM or APC string up to and including
// its terminator: BEL, ESC \ or U+009C.
func skipString(s string, i int) int {
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == 0x07 || r == 0x9c:
			return i + size
		case r == 0x1b:
			if i+1 < len(s) && s[i+1] == '\\' {
				return i + 2
			}
			return i // a new escape ends the string; the caller skips it next
		}
		i += size
	}
	return i
}

// quoteMax is how many characters of user input an error message quotes.
const quoteMax = 40

// QuotePrefix quotes user input for an error message: at most its first
// 40 characters, with every control and invisible character escaped, and
// "… (N bytes)" when it was cut. An error never echoes a huge input back.
func QuotePrefix(s string) string { return quotePrefix(s, quoteMax) }

// quotePrefix quotes at most the first max characters of s.
func quotePrefix(s string, max int) string {
	n := 0
	for i := range s {
		if n == max {
			return strconv.Quote(s[:i]) + "… (" + strconv.Itoa(len(s)) + " bytes)"
		}
		n++
	}
	return strconv.Quote(s)
}
