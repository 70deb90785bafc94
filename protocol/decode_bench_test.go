package protocol

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"testing"
)

// benchReview is a review of n files, half of them reviewed with a
// finding on every tenth, as a transaction reads and writes it: the
// request with each file's digest, the progress without a recorded one
// (each file was recorded as the request has it).
func benchReview(n int) (*Request, *Progress) { return benchReviewEvery(n, 10) }

// benchReviewEvery is benchReview with a finding on every files'th
// reviewed file.
func benchReviewEvery(n, every int) (*Request, *Progress) {
	r := &Request{Version: 1, RequestID: "r-1", AssignmentID: "00001", Gate: "review", Status: StatusInProgress,
		Mode: ModeAuto, Timestamp: baseTime, HeadCommit: "abc1234", Round: 1, MaxRounds: 3,
		ReviewerSessionID: "rv-1", FileDigests: map[string]string{}}
	p := &Progress{Phase: PhaseReviewing, Mode: ModeAuto, StartedAt: baseTime, LastActivity: baseTime,
		SessionID: "rv-1", Lease: "ls-0123456789abcdef", Version: 1, RequestID: "r-1", Round: 1}
	for i := range n {
		f := fmt.Sprintf("src/pkg%03d/file%04d.go", i%97, i)
		sum := sha256.Sum256([]byte(f))
		r.ChangedFiles = append(r.ChangedFiles, f)
		r.FileDigests[f] = hex.EncodeToString(sum[:])
		if i >= n/2 {
			p.FilesRemaining = append(p.FilesRemaining, f)
			continue
		}
		p.FilesReviewed = append(p.FilesReviewed, f)
		if i%every == 0 {
			p.Findings = append(p.Findings, Finding{File: f, Line: i, Severity: SeverityMinor, Category: "style", Description: "the counter is kept in memory only"})
		}
	}
	p.FilesTotal, p.FindingsSoFar = n, len(p.Findings)
	return r, p
}

// Every transaction of a review decodes both state files, so that
// `check record` in a 5,000-file review costs what decoding them does.
func BenchmarkDecodeRequest5000(b *testing.B) {
	r, _ := benchReview(5000)
	benchDecode(b, RequestFile, r, EncodeRequest, DecodeRequest)
}

func BenchmarkDecodeProgress5000(b *testing.B) {
	_, p := benchReview(5000)
	benchDecode(b, ProgressFile, p, EncodeProgress, DecodeProgress)
}

// BenchmarkDecodeProgress5000Dense is a review with a finding on every
// reviewed file: 2,500 findings.
func BenchmarkDecodeProgress5000Dense(b *testing.B) {
	_, p := benchReviewEvery(5000, 1)
	benchDecode(b, ProgressFile, p, EncodeProgress, DecodeProgress)
}

func BenchmarkEncodeProgress5000(b *testing.B) {
	_, p := benchReview(5000)
	benchEncode(b, p, EncodeProgress)
}

func BenchmarkEncodeRequest5000(b *testing.B) {
	r, _ := benchReview(5000)
	benchEncode(b, r, EncodeRequest)
}

// benchDecode times decoding v as encode writes it.
func benchDecode[T any](b *testing.B, file string, v *T, encode func(*T, int) ([]byte, error), decode func(string, []byte) (*T, error)) {
	data, err := encode(v, 0)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := decode(file, data); err != nil {
			b.Fatal(err)
		}
	}
}

// benchEncode times encoding v over a file of its size, as a rewrite does.
func benchEncode[T any](b *testing.B, v *T, encode func(*T, int) ([]byte, error)) {
	data, err := encode(v, 0)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := encode(v, len(data)); err != nil {
			b.Fatal(err)
		}
	}
}
