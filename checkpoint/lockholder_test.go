package checkpoint

import (
	"strings"
	"testing"
)

func TestPrintable(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain", "pid 1 (specdev check)", "pid 1 (specdev check)"},
		{"escapes", "pid 1 \x1b]0;pwned\a(x)\r", "pid 1 (x)"},
		{"long", strings.Repeat("é", 300), strings.Repeat("é", maxHolderRunes-1) + "…"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := printable(tt.in); got != tt.want {
				t.Errorf("printable(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}
