package checkpoint

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/specdev/specdev/protocol"
)

// BenchmarkScan is an idle poll's scan over 100 assignments at rest, all
// served from the poll cache (docs/performance.md).
func BenchmarkScan(b *testing.B) {
	a := testAssignment(b)
	st := a.store
	if err := os.WriteFile(filepath.Join(st.Dir, GitignoreFile), gitignore(), 0o644); err != nil {
		b.Fatal(err)
	}
	for i := range 100 {
		dir := filepath.Join(st.Dir, AssignmentsDir, fmt.Sprintf("%05d_bench", i+2))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, protocol.RequestFile), []byte(requestPeekJSON("cancelled", "rq-1")), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	moveScanClock(b, 1<<40)
	if _, err := st.Scan(); err != nil {
		b.Fatal(err)
	}
	b.Run("cached", func(b *testing.B) {
		for b.Loop() {
			if _, err := st.Scan(); err != nil {
				b.Fatal(err)
			}
		}
	})
	data, err := os.ReadFile(filepath.Join(st.Dir, ScanCacheFile))
	if err != nil {
		b.Fatal(err)
	}
	b.Run("decode", func(b *testing.B) {
		for b.Loop() {
			if _, ok := decodeScanCache(data); !ok {
				b.Fatal("not decoded")
			}
		}
	})
}
