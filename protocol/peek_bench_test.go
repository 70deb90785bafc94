package protocol

import (
	"os"
	"testing"
)

func BenchmarkPeekRequest(b *testing.B) {
	data := readFixtureB(b, "seed_request.json")
	for b.Loop() {
		if _, err := PeekRequest("r", data); err != nil {
			b.Fatal(err)
		}
	}
}

func readFixtureB(b *testing.B, name string) []byte {
	b.Helper()
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		b.Fatal(err)
	}
	return data
}
