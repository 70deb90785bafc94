package main

import (
	"slices"
	"testing"
)

func TestRewriteKeyValues(t *testing.T) {
	known := map[string]bool{"mode": true, "timeout": true}
	tests := []struct {
		name     string
		in, want []string
	}{
		{"seed form", []string{"check", "mode=auto", "timeout=120"}, []string{"check", "--mode=auto", "--timeout=120"}},
		{"unknown key stays an argument", []string{"check", "record", "x=y.go"}, []string{"check", "record", "x=y.go"}},
		{"flags are left alone", []string{"work", "--mode=manual"}, []string{"work", "--mode=manual"}},
		{"nothing after --", []string{"check", "record", "--", "mode=auto"}, []string{"check", "record", "--", "mode=auto"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := rewriteKeyValues(tt.in, known); !slices.Equal(got, tt.want) {
				t.Fatalf("got %q, want %q", got, tt.want)
			}
		})
	}
}
