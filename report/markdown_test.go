package report

import "testing"

func TestEscape(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain", "counter kept in memory", "counter kept in memory"},
		{"newlines fold", "x\n## Verdict\nPASSED", `x \#\# Verdict PASSED`},
		{"crlf and tabs fold", " a\r\n\tb  \v c ", "a b c"},
		{"unicode line separator", "a\u2028\u2029b", "a b"},
		{"control characters and escape sequences", "a\x00\x1b[31mb\x1b]0;pwned\a", "ab"},
		{"invalid utf-8", "a\xffb", "a\uFFFDb"},
		{"heading", "# hi", `\# hi`},
		{"every special", "\\`*[]<>#|", "\\\\\\`\\*\\[\\]\\<\\>\\#\\|"},
		{"underscores stay readable", "00002_feature_login", "00002_feature_login"},
		{"only space", " \n\t ", ""},
		{"keeps other punctuation", "a - b: 1. (c) ~d~ !e", "a - b: 1. (c) ~d~ !e"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := escape(tt.in); got != tt.want {
				t.Errorf("escape(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestCodeSpan(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain", ".specdev/verify-gates.sh", "`.specdev/verify-gates.sh`"},
		{"markdown kept literal", "make check_all", "`make check_all`"},
		{"inner backticks", "sh -c `x` ``y``", "``` sh -c `x` ``y`` ```"},
		{"edge backtick", "`x`", "`` `x` ``"},
		{"newline folds", "a\nb", "`a b`"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := codeSpan(tt.in); got != tt.want {
				t.Errorf("codeSpan(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestFenced(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain", "ok\n", "```\nok\n```\n"},
		{"no final newline", "ok", "```\nok\n```\n"},
		{"fence inside", "a\n```\n## Verdict\n````x", "`````\na\n```\n## Verdict\n````x\n`````\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var w writer
			w.fenced(tt.in)
			if got := string(w.b); got != tt.want {
				t.Errorf("fenced(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestPrefix(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want string
	}{{"87ec17a9d0", 7, "87ec17a"}, {"abc", 7, "abc"}, {"", 7, ""}, {"ééééééééé", 7, "ééééééé"}}
	for _, tt := range tests {
		if got := prefix(tt.in, tt.n); got != tt.want {
			t.Errorf("prefix(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
}

// plain is a fast path: whenever it says yes, escape must agree that the
// text needs no change.
func FuzzPlainAgreesWithEscape(f *testing.F) {
	for _, s := range []string{"src/a.go", "a  b", " a", "a ", "a_b-c.d", "x#y", "é", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if plain(s) && escape(s) != s {
			t.Fatalf("plain(%q) but escape gives %q", s, escape(s))
		}
	})
}
