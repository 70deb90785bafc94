package main

import (
	"bytes"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/alecthomas/kong"
)

// parsed is what a parse decided: the command, its values, the global
// flags, or the error.
type parsed struct {
	command string
	page    string // the command path whose help page describes it
	values  any
	globals Globals
	err     string
	exit    int // kong.Exit was called (help, --version); -1 if not
}

// parseOnce parses args against g without running anything.
func parseOnce(t *testing.T, g grammar, args []string) (p parsed) {
	t.Helper()
	var out bytes.Buffer
	app := &App{stdout: &out, stderr: &out}
	p.exit = -1
	defer func() {
		if r := recover(); r != nil {
			h, ok := r.(helpExit)
			if !ok {
				panic(r)
			}
			p.exit = int(h)
		}
	}()
	kctx, err := parseWith(g, app, args)
	if err != nil {
		p.err = err.Error()
		return p
	}
	p.command = kctx.Command()
	sel := kctx.Selected()
	p.values = sel.Target.Interface()
	if sel.Parent != nil && sel.Parent.DefaultCmd == sel {
		sel = sel.Parent
	}
	p.page = nodePath(sel)
	p.globals = *app.Globals
	return p
}

// TestPrunedGrammarParsesAsTheFullOne is the invariant of grammar.go: a
// command line the pruned grammar accepts means the same under the full
// CLI (and one it refuses is parsed again against the full CLI).
func TestPrunedGrammarParsesAsTheFullOne(t *testing.T) {
	for _, env := range []string{"SPECDEV_SESSION", "SPECDEV_ASSIGNMENT", "SPECDEV_DIR"} {
		t.Setenv(env, "")
	}
	tests := []struct {
		name string
		args []string
	}{
		{"version", []string{"version"}},
		{"version with json", []string{"--json", "version"}},
		{"bare check", []string{"check"}},
		{"check seed form", []string{"check", "mode=manual", "timeout=5"}},
		{"check flags", []string{"check", "--timeout", "10m", "--force", "--session", "rv-1"}},
		{"check flag value that names a command", []string{"check", "--mode", "record"}},
		{"global value that names a command", []string{"--session", "record", "check"}},
		{"global value that names a top command", []string{"--dir", "check", "status"}},
		{"record", []string{"check", "record", "a.go", "--finding", "minor: x", "--line", "3"}},
		{"record a file called verdict", []string{"check", "record", "verdict"}},
		{"record after --", []string{"check", "record", "--", "mode=auto"}},
		{"verdict", []string{"check", "verdict", "pass", "--summary", "ok"}},
		{"work request", []string{"work", "request", "--files", "a.go", "--files", "b.go"}},
		{"work with a subcommand name after a flag", []string{"work", "--timeout", "5", "cancel"}},
		{"assignment before the command", []string{"--assignment", "00001", "work", "request", "--notes", "x"}},
		{"status", []string{"status"}},
		{"schema", []string{"schema", "verdict"}},
		{"typo in a subcommand", []string{"check", "recrod"}},
		{"unknown flag", []string{"check", "--bogus"}},
		{"missing argument", []string{"check", "record"}},
		{"bad value", []string{"work", "unblock", "--rounds", "many"}},
		{"version flag", []string{"--version"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			full := parseOnce(t, fullGrammar(), tt.args)
			g := grammarFor(tt.args)
			got := parseOnce(t, g, tt.args)
			if got.err != "" && !g.full() {
				got = parseOnce(t, fullGrammar(), tt.args) // what parse does next
			}
			if !reflect.DeepEqual(got, full) {
				t.Fatalf("args %q:\npruned: %+v\nfull:   %+v", tt.args, got, full)
			}
		})
	}
}

func TestGrammarForPrunesOnlyWhenACommandIsNamed(t *testing.T) {
	tests := []struct {
		args []string
		full bool
	}{
		{[]string{"version"}, false},
		{[]string{"check"}, false},
		{[]string{"check", "record", "a.go"}, false},
		{[]string{"--json", "work", "--timeout", "5"}, false},
		{[]string{}, true},
		{[]string{"--json"}, true},
		{[]string{"check", "--help"}, true},
		{[]string{"-h"}, true},
		{[]string{"help", "check"}, true},
		{[]string{"completion", "bash"}, true},
		{[]string{"chek"}, true},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			g := grammarFor(tt.args)
			if g.full() != tt.full {
				t.Fatalf("grammarFor(%q).full = %v, want %v", tt.args, g.full(), tt.full)
			}
		})
	}
}

// The names grammar.go derives from the struct tags must be kong's.
func TestGlobalValueFlagsAreKongs(t *testing.T) {
	k, err := kong.New(&CLI{})
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, f := range k.Model.Flags {
		if !f.IsBool() && f.Name != "help" {
			want = append(want, f.Name)
		}
	}
	var got []string
	for name := range globalValueFlags(reflect.TypeFor[CLI]()) {
		got = append(got, name)
	}
	sort.Strings(want)
	sort.Strings(got)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("global value flags %q, kong has %q", got, want)
	}
}

// A pruned grammar's model holds the path to the command and nothing
// beside it (the whole of what is below it).
func TestPrunedModelHoldsOnlyThePath(t *testing.T) {
	tests := []struct {
		args []string
		want string // the model's command tree, children in brackets
	}{
		{[]string{"version"}, "[version]"},
		{[]string{"check", "record", "a.go"}, "[check[record]]"},
		{[]string{"check", "--session", "rv-1"}, "[check[poll]]"},
		{[]string{"hook", "install", "pre-commit"}, "[hook[install]]"},
	}
	for _, tt := range tests {
		k, err := newParser(grammarFor(tt.args), &App{})
		if err != nil {
			t.Fatal(err)
		}
		if got := commandTree(k.Model.Node); got != tt.want {
			t.Errorf("%q: model %s, want %s", tt.args, got, tt.want)
		}
	}
}

func commandTree(n *kong.Node) string {
	if len(n.Children) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteByte('[')
	for i, c := range n.Children {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(c.Name + commandTree(c))
	}
	b.WriteByte(']')
	return b.String()
}
