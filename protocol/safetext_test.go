package protocol

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestSafeText(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain", "counter kept in memory", "counter kept in memory"},
		{"colour and title", "\x1b[31mred\x1b[0m and \x1b]0;pwned\a title", "red and title"},
		{"title ended by ST", "a\x1b]2;pwned\x1b\\b", "ab"},
		{"unterminated title", "ok\x1b]0;pwned forever", "ok"},
		{"C1 CSI", "a\u009b31mb", "ab"},
		{"C1 OSC", "a\u009d0;pwned\u009cb", "ab"},
		{"DCS", "a\x1bPq#0;2;0;0;0\x1b\\b", "ab"},
		{"two-character escape", "a\x1bcb\x1b(Bc", "abc"},
		{"cursor movement", "line\x1b[2A\x1b[Kover", "lineover"},
		{"lone ESC at the end", "a\x1b", "a"},
		{"BEL NUL DEL", "a\a\x00b\x7fc", "abc"},
		{"bidi overrides", "user\u202egnp.exe\u202c and \u2066x\u2069 \u200eok\u200f", "usergnp.exe and x ok"},
		{"newlines and tabs fold", "  one\n\ttwo\r\n\u2028three \u0085 four  ", "one two three four"},
		{"invalid UTF-8", "a\xffb\xc3", "a\uFFFDb\uFFFD"},
		{"combining marks kept", "e\u0301 \u05e9\u05dc\u05d5\u05dd", "e\u0301 \u05e9\u05dc\u05d5\u05dd"},
		{"empty", "", ""},
		{"only controls", "\x1b[0m\a\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := SafeText(tt.in); got != tt.want {
				t.Fatalf("SafeText(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestSafeTextPlainDoesNotAllocate(t *testing.T) {
	s := strings.Repeat("src/auth/login.go ", 10)[:179]
	if n := testing.AllocsPerRun(100, func() { _ = SafeText(s) }); n != 0 {
		t.Fatalf("SafeText of plain text allocates %v times", n)
	}
}

// Whatever the input, the output is one line of valid UTF-8 without a
// control, bidi or escape character, and without spaces at the ends or
// twice in a row.
func FuzzSafeText(f *testing.F) {
	for _, s := range []string{"\x1b]0;pwned\a", "a\u009bb", "\u202e", "a\n\nb", "\xff\xfe", "\x1b[", "\x1b\x1b]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkSafe(t, s, SafeText(s))
	})
}

func checkSafe(t *testing.T, in, out string) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Fatalf("SafeText(%q) = %q is not valid UTF-8", in, out)
	}
	if strings.HasPrefix(out, " ") || strings.HasSuffix(out, " ") || strings.Contains(out, "  ") {
		t.Fatalf("SafeText(%q) = %q has stray spaces", in, out)
	}
	for _, r := range out {
		if unicode.IsControl(r) || isBidiControl(r) || r != ' ' && unicode.IsSpace(r) {
			t.Fatalf("SafeText(%q) = %q keeps %U", in, out, r)
		}
	}
	if got := SafeText(out); got != out {
		t.Fatalf("SafeText is not idempotent: %q -> %q -> %q", in, out, got)
	}
}

func TestQuotePrefix(t *testing.T) {
	huge := strings.Repeat("x", 120_000)
	tests := []struct{ name, in, want string }{
		{"short", "blocker", `"blocker"`},
		{"controls escaped", "a\x1b[31m\u202e", `"a\x1b[31m\u202e"`},
		{"huge cut", huge, `"` + huge[:40] + `"… (120000 bytes)`},
		{"exactly forty", huge[:40], `"` + huge[:40] + `"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := QuotePrefix(tt.in); got != tt.want {
				t.Fatalf("QuotePrefix = %q, want %q", got, tt.want)
			}
		})
	}
}

// Errors that quote user input quote a prefix only.
func TestErrorsDoNotEchoHugeInput(t *testing.T) {
	huge := strings.Repeat("y", 120_000)
	for name, err := range map[string]error{
		"finding without severity": func() error { _, err := ParseFindingFlag(huge); return err }(),
		"bad severity":             func() error { _, err := ParseFindingFlag(huge + ": text"); return err }(),
		"bad duration":             func() error { _, err := ParseDurationIn(huge, TimeoutBounds); return err }(),
		"bad path":                 CheckPath("/" + huge),
		"bad gate":                 CheckName(huge[:150] + " x"),
	} {
		t.Run(name, func(t *testing.T) {
			if err == nil || len(err.Error()) > 300 {
				t.Fatalf("error is %d bytes: %.300v", len(err.Error()), err)
			}
		})
	}
}

// CheckPath's fast path never accepts what the full check refuses.
func FuzzCheckPath(f *testing.F) {
	for _, p := range []string{"a.go", "src/a.go", "./a", "a//b", "a/", ".specdev/x", ".specdevx/y", "../a", "a/..", `a\b`, "c:x", "a/.b", "...", "\u202ea"} {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, p string) {
		if plainPath(p) && checkPathSlow(p) != nil {
			t.Fatalf("plainPath(%q) accepts what the full check refuses: %v", p, checkPathSlow(p))
		}
	})
}
