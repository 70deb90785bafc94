package checkpoint

import (
	"context"
	"fmt"
	"testing"

	"github.com/specdev/specdev/protocol"
)

func benchFiles(n int) []string {
	files := make([]string, n)
	for i := range files {
		files[i] = fmt.Sprintf("src/pkg%03d/file%04d.go", i%97, i)
	}
	return files
}

// BenchmarkClaim measures one claim (request -> in_progress with a fresh
// checkpoint) of a review of n files.
func BenchmarkClaim(b *testing.B) {
	for _, n := range []int{10, 100, 1000} {
		b.Run(fmt.Sprintf("files=%d", n), func(b *testing.B) {
			a := testAssignment(b)
			ctx := context.Background()
			files := benchFiles(n)
			for b.Loop() {
				b.StopTimer()
				if _, err := a.RequestReview(ctx, NewRequest{ChangedFiles: files}); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				if _, err := a.Claim(ctx, ClaimOptions{Session: "rv-bench"}); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				if _, err := a.Cancel(ctx); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
			}
		})
	}
}

// BenchmarkRecord measures recording one file with one finding in a review
// of n files, half of them already reviewed, with a finding on every
// tenth reviewed file ("sparse") or on every one ("dense"), to show how
// the cost grows with the review: the whole-process target, a record in a
// 5,000-file review within 25 ms, is timed by scripts/bench.sh.
func BenchmarkRecord(b *testing.B) {
	for _, density := range []struct {
		name  string
		every int
	}{{"sparse", 10}, {"dense", 1}} {
		for _, n := range []int{10, 100, 1000} {
			b.Run(fmt.Sprintf("%s/files=%d", density.name, n), func(b *testing.B) {
				benchRecord(b, n, density.every)
			})
		}
	}
}

func benchRecord(b *testing.B, n, every int) {
	a := testAssignment(b)
	ctx := context.Background()
	files := benchFiles(n)
	if _, err := a.RequestReview(ctx, NewRequest{ChangedFiles: files}); err != nil {
		b.Fatal(err)
	}
	c, err := a.Claim(ctx, ClaimOptions{Session: "rv-bench"})
	if err != nil {
		b.Fatal(err)
	}
	h := Holder{"rv-bench", c.Lease}
	finding := []protocol.Finding{{Severity: protocol.SeverityMinor, Description: "a finding", Line: 7}}
	for i, f := range files[:n/2] {
		var found []protocol.Finding
		if i%every == 0 {
			found = finding
		}
		if _, err := a.Record(ctx, h, FileRecord{File: f, Findings: found}); err != nil {
			b.Fatal(err)
		}
	}
	i := 0
	for b.Loop() {
		// re-record a file without findings so the review's size stays put
		f := files[(i%(n/2)/every)*every+min(every-1, n/2-1)]
		if _, err := a.Record(ctx, h, FileRecord{File: f}); err != nil {
			b.Fatal(err)
		}
		i++
	}
}
