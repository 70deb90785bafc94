package checkpoint

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

func TestDescribeHolder(t *testing.T) {
	self := os.Getpid()
	line := func(pid string) string {
		return "pid " + pid + " (specdev check record, session rv-x) since 2026-02-11T10:30:00Z"
	}
	name := processName(self) // "" where the platform cannot tell
	byPID := "pid " + strconv.Itoa(self)
	if name != "" {
		byPID += " (" + name + ")"
	}
	tests := []struct {
		name  string
		line  string
		pids  []int
		known bool
		want  string
	}{
		{"line names the holder", line(strconv.Itoa(self)), []int{self}, true, line(strconv.Itoa(self))},
		{"line names one of two holders", line(strconv.Itoa(self)), []int{1, self}, true, line(strconv.Itoa(self))},
		{"line left by a process that let go", line("999999999"), []int{self}, true, byPID},
		{"no line", "", []int{self}, true, byPID},
		{"nobody holds it any more", line(strconv.Itoa(self)), nil, true, ""},
		{"unknown holders, line's process alive", line(strconv.Itoa(self)), nil, false, line(strconv.Itoa(self))},
		{"unknown holders, line's process gone", line("999999999"), nil, false, ""},
		{"unknown holders, no line", "", nil, false, ""},
		{"a line that is not a holder line", "garbage", nil, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := describeHolder(tt.line, tt.pids, tt.known); got != tt.want {
				t.Errorf("describeHolder = %q, want %q", got, tt.want)
			}
		})
	}
}

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
