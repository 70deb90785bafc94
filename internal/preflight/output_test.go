package preflight

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestTail(t *testing.T) {
	tests := []struct {
		name   string
		limit  int
		chunks []string
		want   string
	}{
		{"empty", 8, nil, ""},
		{"fits", 8, []string{"ab", "cd"}, "abcd"},
		{"exactly the limit", 4, []string{"ab", "cd"}, "abcd"},
		{"cut", 4, []string{"abc", "def"}, "[… 2 bytes cut …]\ncdef"},
		{"one big chunk", 4, []string{"abcdefghij"}, "[… 6 bytes cut …]\nghij"},
		{"many chunks", 4, []string{"ab", "cd", "ef", "gh", "ij", "kl", "m"}, "[… 9 bytes cut …]\njklm"},
		{"cut in a character", 4, []string{"a€bc"}, "[… 4 bytes cut …]\nbc"}, // € is 3 bytes
		{"character kept whole", 5, []string{"a€bc"}, "[… 1 bytes cut …]\n€bc"},
		{"invalid bytes", 16, []string{"ok \xff\xfe end"}, "ok \uFFFD\uFFFD end"},
		{"replacement kept", 8, []string{"\uFFFD"}, "\uFFFD"},
		{"truncated character", 8, []string{"a\xe2\x82"}, "a\uFFFD\uFFFD"},
		// Four invalid bytes would become 12: the text is cut further so
		// that it stays within the limit.
		{"invalid bytes over the limit", 4, []string{"\xff\xff\xff\xff"}, "[… 3 bytes cut …]\n\uFFFD"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := newTail(tt.limit)
			for _, c := range tt.chunks {
				if n, err := out.Write([]byte(c)); n != len(c) || err != nil {
					t.Fatalf("Write: got %d, %v, want %d, nil", n, err, len(c))
				}
			}
			if got := out.String(); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// FuzzTail checks the invariants of the kept output for any bytes written
// in any chunks: valid UTF-8, at most the limit after the marker, the marker
// counting exactly what is missing, and, for valid UTF-8 input, an exact
// suffix of it.
func FuzzTail(f *testing.F) {
	f.Add([]byte("hello\nworld\n"), uint8(3), uint8(5))
	f.Add([]byte("a€bc\xff\xfe"), uint8(1), uint8(4))
	f.Add([]byte("\xe2\x82\xac\xe2\x82"), uint8(2), uint8(2))
	f.Fuzz(func(t *testing.T, data []byte, chunk, limit uint8) {
		lim := int(limit%64) + 1
		step := int(chunk%16) + 1
		out := newTail(lim)
		for i := 0; i < len(data); i += step {
			_, _ = out.Write(data[i:min(i+step, len(data))])
		}
		got := out.String()

		body, cut := got, 0
		if rest, ok := strings.CutPrefix(got, "[… "); ok {
			n, after, found := strings.Cut(rest, " bytes cut …]\n")
			if !found {
				t.Fatalf("malformed marker in %q", got)
			}
			var err error
			if cut, err = strconv.Atoi(n); err != nil || cut <= 0 {
				t.Fatalf("bad count in marker %q", got)
			}
			body = after
		}
		if !utf8.ValidString(body) {
			t.Fatalf("not valid UTF-8: %q", body)
		}
		if len(body) > lim {
			t.Fatalf("kept %d bytes, limit %d", len(body), lim)
		}
		if cut > len(data) {
			t.Fatalf("cut %d of %d bytes", cut, len(data))
		}
		if utf8.Valid(data) {
			if want := string(data[cut:]); body != want {
				t.Fatalf("got %q, want the rest after %d bytes: %q", body, cut, want)
			}
		}
	})
}
