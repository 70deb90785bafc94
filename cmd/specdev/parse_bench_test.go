package main

import (
	"io"
	"testing"
)

// BenchmarkParse is the command-line parse of a short command, the part of
// start-up that is specdev's own (the start-up targets of docs/performance.md).
func BenchmarkParse(b *testing.B) {
	for _, args := range [][]string{
		{"version"},
		{"check", "--session", "rv-1"},
		{"check", "record", "src/a.go", "--session", "rv-1", "--lease", "ls-1", "--finding", "minor: x"},
	} {
		b.Run(args[0]+"/"+args[len(args)-1], func(b *testing.B) {
			for b.Loop() {
				app := &App{stdout: io.Discard, stderr: io.Discard}
				if _, err := parse(app, args); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
