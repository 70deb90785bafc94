package protocol

import (
	"strconv"
	"strings"
	"unicode"
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
	// each sequence becomes a NUL, which the loop drops: cut out, it could
	// join the bytes around it into one character
	s = escapes().ReplaceAllLiteralString(s, "\x00")
	var b strings.Builder
	b.Grow(len(s))
	space := false // a space is owed before the next printed character
	// ranging over s gives U+FFFD for each byte of invalid UTF-8
	for _, r := range s {
		switch {
		case unicode.IsSpace(r):
			space = b.Len() > 0
			continue
		case unicode.IsControl(r) || isBidiControl(r):
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
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

// escapes matches the escape sequences a terminal acts on, each whole: a
// control sequence (ESC [ or U+009B, its parameter and intermediate bytes
// to 0x3F, its final byte), an OSC, DCS, SOS, PM or APC string up to its
// terminator (BEL, ESC \ or U+009C; a new escape, or the end of the text,
// ends it too, as a terminal would swallow the rest), and any other
// escape with its intermediate bytes and final byte (ESC c, ESC ( B).
// Compiled on first use: plain text never needs it.
var escapes = lazyPattern(`(?:\x1b\[|\x{9b})[ -?]*[@-~]?` +
	`|(?:\x1b[\]PX^_]|[\x{90}\x{98}\x{9d}-\x{9f}])[^\a\x1b\x{9c}]*(?:\a|\x{9c}|\x1b\\)?` +
	`|\x1b[ -/]*[0-~]?`)

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
