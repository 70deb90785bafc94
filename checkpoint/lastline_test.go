package checkpoint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// lastLine is the first line eachLineBack gives, as repairTornTail reads it.
func lastLine(f *os.File, size int64) (line []byte, start int64, err error) {
	err = eachLineBack(f, size, func(l []byte, at int64) bool {
		line, start = l, at
		return false
	})
	return line, start, err
}

// eachLineBack's first line starts where the last line before size starts,
// however long that line and whatever lies before it: within its first
// small read, or across the larger ones that follow.
func TestLastLineStart(t *testing.T) {
	long := func(n int) string { return strings.Repeat("x", n) }
	tests := []struct {
		name    string
		content string
		size    int // 0: the whole file
		want    int
	}{
		{"empty", "", 0, 0},
		{"no newline", "abc", 0, 0},
		{"one line", "abc\n", 3, 0},
		{"short last line", "a\nbc\ndef", 0, 5},
		{"before size", "a\nbc\ndef", 4, 2},
		{"newline at size", "a\nbc\n", 0, 5},
		{"last line past the first read", "a\n" + long(5000), 0, 2},
		{"last line past several reads", "a\n" + long(300<<10), 0, 2},
		{"no newline in a long file", long(90 << 10), 0, 0},
		{"a long history before", strings.Repeat(long(99)+"\n", 2000) + "last", 0, 200000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "history")
			if err := os.WriteFile(path, []byte(tt.content), 0o644); err != nil {
				t.Fatal(err)
			}
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			size := int64(tt.size)
			if size == 0 {
				size = int64(len(tt.content))
			}
			if _, got, err := lastLine(f, size); err != nil || got != int64(tt.want) {
				t.Errorf("the last line starts at %d, %v; want %d", got, err, tt.want)
			}
		})
	}
}
