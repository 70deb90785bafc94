package preflight

import (
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"
)

// MaxOutput is how many bytes of a gate's output are kept: the last ones,
// where a failing gate prints its error.
const MaxOutput = 64 << 10

// tail is an io.Writer that keeps the last limit bytes written to it and
// counts the rest.
type tail struct {
	limit int

	mu      sync.Mutex
	buf     []byte // the last bytes written; up to 2*limit between trims
	dropped int64  // bytes written before buf[0]
}

func newTail(limit int) *tail { return &tail{limit: limit} }

// Write keeps p, trimming what falls out of the last limit bytes. It never
// fails, so a chatty gate is never stopped by a full buffer.
func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(p)
	if n > t.limit { // only its end can be kept
		t.dropped += int64(len(t.buf) + n - t.limit)
		t.buf, p = t.buf[:0], p[n-t.limit:]
	}
	t.buf = append(t.buf, p...)
	if cut := len(t.buf) - t.limit; cut > t.limit {
		t.dropped += int64(cut)
		t.buf = append(t.buf[:0], t.buf[cut:]...)
	}
	return n, nil
}

// String returns the kept output as valid UTF-8 of at most limit bytes,
// prefixed with "[… N bytes cut …]\n" when the start was cut. It never starts
// in the middle of a character.
func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return render(t.buf, t.dropped, t.limit)
}

// render is String without the lock: raw is the end of an output of which
// dropped bytes came before raw[0].
func render(raw []byte, dropped int64, limit int) string {
	start := max(len(raw)-limit, 0)
	if dropped > 0 || start > 0 {
		start = skipContinuation(raw, start)
	}
	text := sanitize(raw[start:])
	// Invalid bytes grow three times when replaced: drop characters from the
	// front until the text fits, in step with sanitize.
	for len(text) > limit {
		r, size := utf8.DecodeRune(raw[start:])
		width := size
		if r == utf8.RuneError && size == 1 {
			width = utf8.RuneLen(utf8.RuneError)
		}
		start += size
		text = text[width:]
	}
	if cut := dropped + int64(start); cut > 0 {
		return fmt.Sprintf("[… %d bytes cut …]\n", cut) + text
	}
	return text
}

// skipContinuation moves i past UTF-8 continuation bytes (at most three), so
// that a cut does not leave half a character at the start.
func skipContinuation(b []byte, i int) int {
	for n := 0; n < utf8.UTFMax-1 && i < len(b) && !utf8.RuneStart(b[i]); n++ {
		i++
	}
	return i
}

// sanitize returns b as a string with each byte that is not part of valid
// UTF-8 replaced by U+FFFD.
func sanitize(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	var s strings.Builder
	s.Grow(len(b) + 16)
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size == 1 {
			s.WriteRune(utf8.RuneError)
		} else {
			s.Write(b[:size])
		}
		b = b[size:]
	}
	return s.String()
}
