package main

import (
	"slices"
	"testing"

	"github.com/alecthomas/kong"
)

func TestRewriteKeyValues(t *testing.T) {
	var cli CLI
	parser, err := kong.New(&cli, kong.Name("specdev"))
	if err != nil {
		t.Fatal(err)
	}
	sf := seedFormOf(parser.Model.Node)
	tests := []struct {
		name     string
		in, want []string
	}{
		{"seed form", []string{"check", "mode=auto", "timeout=120"}, []string{"check", "--mode=auto", "--timeout=120"}},
		{"seed form of work", []string{"work", "mode=manual"}, []string{"work", "--mode=manual"}},
		{"after global flags", []string{"--dir", "x", "--json", "check", "mode=manual"}, []string{"--dir", "x", "--json", "check", "--mode=manual"}},
		{"a global flag's value is not the command", []string{"--assignment", "check", "work", "mode=auto"}, []string{"--assignment", "check", "work", "--mode=auto"}},
		{"unknown key stays an argument", []string{"check", "record", "x=y.go"}, []string{"check", "record", "x=y.go"}},
		{"a subcommand's argument is never rewritten", []string{"check", "record", "mode=auto"}, []string{"check", "record", "mode=auto"}},
		{"a flag's value is never rewritten", []string{"work", "request", "--notes", "timeout=5 is what we use"}, []string{"work", "request", "--notes", "timeout=5 is what we use"}},
		{"a flag's value before the words", []string{"check", "--timeout", "mode=x"}, []string{"check", "--timeout", "mode=x"}},
		{"flags are left alone", []string{"work", "--mode=manual"}, []string{"work", "--mode=manual"}},
		{"other commands take no seed form", []string{"status", "mode=auto"}, []string{"status", "mode=auto"}},
		{"nothing after --", []string{"check", "record", "--", "mode=auto"}, []string{"check", "record", "--", "mode=auto"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := rewriteKeyValues(tt.in, sf); !slices.Equal(got, tt.want) {
				t.Fatalf("got %q, want %q", got, tt.want)
			}
		})
	}
}
