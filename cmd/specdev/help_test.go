package main

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/alecthomas/kong"

	"github.com/specdev/specdev/schemas"
)

func fullModel(t *testing.T) *kong.Node {
	t.Helper()
	k, err := newParser(fullGrammar(), &App{})
	if err != nil {
		t.Fatal(err)
	}
	return k.Model.Node
}

// commands lists every command path a user can name (hidden default
// commands are described on their group's page).
func commands(node *kong.Node) []*kong.Node {
	out := []*kong.Node{node}
	for _, c := range visibleChildren(node) {
		out = append(out, commands(c)...)
	}
	return out
}

// Every example on a help page parses and selects the command of that page.
func TestExamplesParseAsTheirCommand(t *testing.T) {
	t.Setenv("SPECDEV_SESSION", "")
	for path, list := range examples() {
		for _, e := range list {
			t.Run(e.cmd, func(t *testing.T) {
				_, words, err := splitShell(e.cmd)
				if err != nil || words[0] != "specdev" {
					t.Fatalf("not a specdev command line: %q (%v)", e.cmd, err)
				}
				p := parseOnce(t, fullGrammar(), words[1:])
				if p.err != "" {
					t.Fatalf("example %q does not parse: %s", e.cmd, p.err)
				}
				if p.exit >= 0 { // --version
					return
				}
				if path != "" && p.page != path { // the overview shows any command
					t.Fatalf("example %q runs %q, but is on the page of %q", e.cmd, p.page, path)
				}
			})
		}
	}
}

func TestEveryCommandHasExamples(t *testing.T) {
	known := map[string]bool{}
	for _, n := range commands(fullModel(t)) {
		known[nodePath(n)] = true
		if len(examples()[nodePath(n)]) == 0 {
			t.Errorf("command %q has no examples: add some to examples.go", nodePath(n))
		}
	}
	for path := range examples() {
		if !known[path] {
			t.Errorf("examples.go has examples for %q, which is not a command", path)
		}
	}
}

func TestHelpPages(t *testing.T) {
	for _, n := range commands(fullModel(t)) {
		t.Run("specdev "+nodePath(n), func(t *testing.T) {
			var out bytes.Buffer
			if err := writeHelp(&out, n); err != nil {
				t.Fatal(err)
			}
			page := out.String()
			for _, want := range []string{"USAGE\n  specdev ", "\nEXAMPLES\n", "\nGLOBAL FLAGS (every command takes them)\n  -h, --help", "--json", "Exit codes: 0 OK"} {
				if !strings.Contains(page, want) {
					t.Errorf("page lacks %q:\n%s", want, page)
				}
			}
			if strings.Contains(page, "subcommand is required") || strings.Contains(page, "${") {
				t.Errorf("page has kong's raw text:\n%s", page)
			}
			for _, line := range strings.Split(page, "\n") {
				if utf8.RuneCountInString(line) > helpWidth && !strings.Contains(strings.TrimSpace(line), " ") {
					continue // one word longer than the page
				}
				if utf8.RuneCountInString(line) > helpWidth {
					t.Errorf("line longer than %d: %q", helpWidth, line)
				}
			}
		})
	}
}

func TestCheckPageShowsTheBareForm(t *testing.T) {
	var out bytes.Buffer
	node, err := findCommand(fullModel(t), []string{"check"})
	if err != nil {
		t.Fatal(err)
	}
	if err := writeHelp(&out, node); err != nil {
		t.Fatal(err)
	}
	page := out.String()
	for _, want := range []string{
		"  specdev check [mode=auto|manual] [--timeout D] [--force] [--new-session]\n",
		"  specdev check <command> [flags]\n",
		"\nCOMMANDS\n  record <file> ",
		"\nFLAGS\n  --mode auto|manual ",
		"  --timeout D ",
		"  --force ",
		"specdev help check <command>",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("check's page lacks %q:\n%s", want, page)
		}
	}
}

func TestSchemaPlaceholderListsTheSchemas(t *testing.T) {
	node, err := findCommand(fullModel(t), []string{"schema"})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := candidates(node.Positional[0]), schemas.Names(); !slices.Equal(got, want) {
		t.Fatalf("schema's placeholder offers %q, the embedded schemas are %q", got, want)
	}
}

func TestSuggestions(t *testing.T) {
	tests := []struct {
		word, want string
	}{
		{"recrod", "record"},
		{"verdcit", "verdict"},
		{"rel", "release"},
		{"aprove", "approve"},
		{"x", ""},
		{"frobnicate", ""},
	}
	names := []string{"record", "verdict", "approve", "reject", "release"}
	for _, tt := range tests {
		t.Run(tt.word, func(t *testing.T) {
			if got := closest(tt.word, names); got != tt.want {
				t.Fatalf("closest(%q) = %q, want %q", tt.word, got, tt.want)
			}
		})
	}
}

func TestWrapCommandKeepsFlagsWithTheirValues(t *testing.T) {
	line := `specdev check record src/auth/throttle.go --session rv-4f2a --finding "important: the counter is kept in memory only" --line 42`
	lines := wrapCommand(line, 60)
	if len(lines) < 2 {
		t.Fatalf("not wrapped: %q", lines)
	}
	joined := strings.ReplaceAll(strings.Join(lines, "\n"), "\\\n", "")
	_, got, err := splitShell(joined)
	if err != nil {
		t.Fatal(err)
	}
	_, want, _ := splitShell(line)
	if !slices.Equal(got, want) {
		t.Fatalf("wrapped %q\nsplits to %q\nwant      %q", lines, got, want)
	}
	for _, l := range lines {
		if strings.HasSuffix(strings.TrimSuffix(l, " \\"), "--finding") {
			t.Fatalf("a flag was separated from its value: %q", lines)
		}
	}
}
