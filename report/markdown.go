package report

import (
	"strings"

	"github.com/specdev/specdev/protocol"
)

// markdownSpecial are the characters escape puts a backslash before: those
// that open a heading, a block quote, code, emphasis, a link, HTML or a
// table cell. The underscore is left alone: names like 00002_feature_login
// and throttle_test.go must stay readable (and copyable) in the raw file,
// and an underscore cannot open a heading or a verdict line.
const markdownSpecial = "\\`*[]<>#|"

// escape makes agent or human text safe to place inside a line of the
// report: protocol.SafeText (one line, no control, escape or bidi
// characters, valid UTF-8), then a backslash before every Markdown special
// character. The result never starts a line, so it can open no heading and
// forge no verdict line.
func escape(s string) string {
	if plain(s) {
		return s
	}
	s = protocol.SafeText(s)
	var b strings.Builder
	b.Grow(len(s))
	for _, c := range s {
		if strings.ContainsRune(markdownSpecial, c) {
			b.WriteByte('\\')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// plain reports whether escape would return s unchanged: printable ASCII
// without Markdown specials, with single inner spaces and none at the ends.
// Most paths and ids are plain, which keeps a 1,000-file report cheap.
func plain(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' && !(c == ' ' && i > 0 && i < len(s)-1 && s[i-1] != ' ') || c >= 0x7f || strings.IndexByte(markdownSpecial, c) >= 0 {
			return false
		}
	}
	return true
}

// codeSpan puts text on one line in a code span whose backtick delimiters
// are longer than any run of backticks inside, so the text cannot end it.
func codeSpan(s string) string {
	s = protocol.SafeText(s)
	delim := strings.Repeat("`", longestRun(s, '`')+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " " // CommonMark strips one space on each side
	}
	return delim + s + delim
}

// longestRun is the length of the longest run of c in s.
func longestRun(s string, c byte) int {
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] != c {
			run = 0
			continue
		}
		run++
		longest = max(longest, run)
	}
	return longest
}

// prefix is the first n characters of s.
func prefix(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}

// writer accumulates the report line by line, in one buffer that Render
// returns as it is.
type writer struct{ b []byte }

// add writes the parts, continuing the line.
func (w *writer) add(parts ...string) {
	for _, s := range parts {
		w.b = append(w.b, s...)
	}
}

// line writes the parts and ends the line.
func (w *writer) line(parts ...string) {
	w.add(parts...)
	w.b = append(w.b, '\n')
}

// section writes a blank line, then a heading made of the parts.
func (w *writer) section(parts ...string) {
	w.b = append(w.b, '\n')
	w.line(parts...)
}

// fenced writes text verbatim in a fenced code block whose fence is longer
// than any run of backticks in the text, so the text cannot close it early.
func (w *writer) fenced(text string) {
	fence := strings.Repeat("`", max(3, longestRun(text, '`')+1))
	w.line(fence)
	w.add(text)
	if !strings.HasSuffix(text, "\n") {
		w.line()
	}
	w.line(fence)
}
