package main

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/alecthomas/kong"
)

// parsed is what a parse decided: the command and the page that describes
// it, or the error.
type parsed struct {
	command string
	page    string // the command path whose help page describes it
	err     string
	exit    int // kong.Exit was called (help, --version); -1 if not
}

// parseOnce parses args without running anything.
func parseOnce(t *testing.T, args []string) (p parsed) {
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
	kctx, err := parse(app, args)
	if err != nil {
		p.err = err.Error()
		return p
	}
	p.command = kctx.Command()
	sel := kctx.Selected()
	if sel.Parent != nil && sel.Parent.DefaultCmd == sel {
		sel = sel.Parent
	}
	p.page = sel.Path()
	return p
}

func model(t *testing.T) *kong.Node {
	t.Helper()
	k, err := newParser(&App{}, &CLI{})
	if err != nil {
		t.Fatal(err)
	}
	return k.Model.Node
}

// commands lists every command path a user can name (hidden default
// commands are described on their group's page).
func commands(node *kong.Node) []*kong.Node {
	out := []*kong.Node{node}
	for _, c := range node.Children {
		if !c.Hidden {
			out = append(out, commands(c)...)
		}
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
				p := parseOnce(t, words[1:])
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
	for _, n := range commands(model(t)) {
		known[n.Path()] = true
		if len(examples()[n.Path()]) == 0 {
			t.Errorf("command %q has no examples: add some to examples.go", n.Path())
		}
	}
	for path := range examples() {
		if !known[path] {
			t.Errorf("examples.go has examples for %q, which is not a command", path)
		}
	}
}

// helpPage runs specdev help WORDS… and returns the page.
func helpPage(t *testing.T, words ...string) string {
	t.Helper()
	var out, errs bytes.Buffer
	if code := run(append([]string{"help"}, words...), strings.NewReader(""), &out, &errs); code != exitOK {
		t.Fatalf("specdev help %s: exit %d\n%s", strings.Join(words, " "), code, errs.String())
	}
	return out.String()
}

func TestHelpPages(t *testing.T) {
	t.Setenv("COLUMNS", "") // kong narrows the page to $COLUMNS
	for _, n := range commands(model(t)) {
		t.Run("specdev "+n.Path(), func(t *testing.T) {
			page := helpPage(t, strings.Fields(n.Path())...)
			for _, want := range []string{"Usage: specdev ", "\nExamples:\n", "\nGlobal flags:\n  -h, --help", "--json", "Exit codes: 0 OK"} {
				if !strings.Contains(page, want) {
					t.Errorf("page lacks %q:\n%s", want, page)
				}
			}
			if strings.Contains(page, "${") {
				t.Errorf("page has kong's raw text:\n%s", page)
			}
			for _, line := range strings.Split(page, "\n") {
				if utf8.RuneCountInString(line) > helpWidth && strings.Contains(strings.TrimSpace(line), " ") {
					t.Errorf("line longer than %d: %q", helpWidth, line)
				}
			}
		})
	}
}

// The page of a group describes its bare form, the default command: what
// it does, its usage and its flags.
func TestGroupPageShowsTheBareForm(t *testing.T) {
	page := helpPage(t, "check")
	for _, want := range []string{
		"Usage: specdev check <command> [flags]\n",
		"Without a command, specdev check polls once: ",
		"    specdev check [mode=auto|manual] [--timeout=D] [--force] [--new-session]\n",
		"\nCommands:\n  check record ",
		"\nFlags:\n  --mode=auto|manual ",
		"  --timeout=D ",
		"  --force ",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("check's page lacks %q:\n%s", want, page)
		}
	}
	// the bare form's flags are shown only for its page: a subcommand's
	// page and a second page are as kong makes them
	if record := helpPage(t, "check", "record"); strings.Contains(record, "--timeout") {
		t.Errorf("check record's page shows the bare form's --timeout:\n%s", record)
	}
	if again := helpPage(t, "check"); again != page {
		t.Errorf("a second page differs:\n%s\nfirst:\n%s", again, page)
	}
}

// A mistyped subcommand below a group with a default command gets kong's
// suggestion, as a mistyped top-level command does.
func TestSuggestions(t *testing.T) {
	tests := []struct {
		word, want string
	}{
		{"recrod", `unexpected argument recrod, did you mean "record"?`},
		{"verdcit", `unexpected argument verdcit, did you mean "verdict"?`},
		{"rel", `unexpected argument rel, did you mean "release"?`},
		{"aprove", `unexpected argument aprove, did you mean "approve"?`},
		{"x", "unexpected argument x"},
		{"frobnicate", "unexpected argument frobnicate"},
	}
	for _, tt := range tests {
		t.Run(tt.word, func(t *testing.T) {
			if got := parseOnce(t, []string{"check", tt.word}).err; got != tt.want {
				t.Fatalf("check %s: got %q, want %q", tt.word, got, tt.want)
			}
		})
	}
}

// A long example is broken before its flags, and its lines fit a help
// page (TestExamplesParseAsTheirCommand parses it whole).
func TestExamplesAreWrappedBeforeFlags(t *testing.T) {
	for _, list := range examples() {
		for _, e := range list {
			lines := strings.Split(e.cmd, "\n")
			for i, l := range lines {
				if utf8.RuneCountInString(l) > helpWidth-2 {
					t.Errorf("example line longer than %d: %q", helpWidth-2, l)
				}
				if i > 0 && !strings.HasPrefix(l, "  --") || i < len(lines)-1 && !strings.HasSuffix(l, " \\") {
					t.Errorf("example not broken before a flag: %q", e.cmd)
				}
			}
		}
	}
}
