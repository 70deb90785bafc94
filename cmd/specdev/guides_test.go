package main

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/specdev/specdev/review"
)

// The guides agents work from (skills/*/SKILL.md, installed by init), the
// user guides and the README show specdev commands. Every one must parse
// against the CLI's own model: no unknown command, flag or value (one
// annotated "# exit 2" shows a usage error and must not parse). A command
// annotated "# exit N" is also run, in a fresh project, and must exit N.

// guideCommand is one specdev command line found in a document.
type guideCommand struct {
	where string // file:line
	line  string // as written, placeholders and all
	exit  int    // the "# exit N" annotation, or -1
}

func TestGuideCommandsParse(t *testing.T) {
	t.Setenv("SPECDEV_SESSION", "")
	t.Setenv("SPECDEV_ASSIGNMENT", "")
	cmds := guideCommands(t)
	if len(cmds) < 40 {
		t.Fatalf("found only %d specdev commands in the guides: is the extraction broken?", len(cmds))
	}
	for _, c := range cmds {
		t.Run(c.where, func(t *testing.T) {
			args, err := guideArgs(c.line)
			if err != nil {
				t.Fatalf("%s: %q: %v", c.where, c.line, err)
			}
			if len(args) == 0 {
				return // a bare specdev prints the overview (run, before kong)
			}
			p := parseOnce(t, args)
			switch {
			case c.exit == int(review.Usage) && p.err == "":
				t.Fatalf("%s: %q is shown as a usage error (# exit 2) but parses", c.where, c.line)
			case c.exit != int(review.Usage) && p.err != "":
				t.Fatalf("%s: %q (read as %q) does not parse: %s", c.where, c.line, args, p.err)
			}
		})
	}
}

func TestGuideCommandsExitAsAnnotated(t *testing.T) {
	t.Setenv("SPECDEV_SESSION", "")
	t.Setenv("SPECDEV_ASSIGNMENT", "")
	n := 0
	for _, c := range guideCommands(t) {
		if c.exit < 0 {
			continue
		}
		n++
		t.Run(c.where, func(t *testing.T) {
			dir := t.TempDir()
			t.Chdir(dir)
			if code, out := runArgs([]string{"init"}); code != exitOK {
				t.Fatalf("specdev init: exit %d\n%s", code, out)
			}
			args, err := guideArgs(c.line)
			if err != nil {
				t.Fatal(err)
			}
			if code, out := runArgs(args); code != c.exit {
				t.Fatalf("%s: %q exits %d, the guide says %d\n%s", c.where, c.line, code, c.exit, out)
			}
		})
	}
	if n == 0 {
		t.Fatal("no command in the guides is annotated with its exit code (# exit N)")
	}
}

func runArgs(args []string) (int, string) {
	var out bytes.Buffer
	code := run(args, strings.NewReader(""), &out, &out)
	return code, out.String()
}

var (
	inlineCommand = regexp.MustCompile("`(specdev [^`]+)`")
	exitNote      = regexp.MustCompile(`#\s*exit (\d+)`)
)

// guideCommands collects the specdev commands of the guides: code spans,
// indented and fenced code blocks, with "\" continuations joined.
func guideCommands(t *testing.T) []guideCommand {
	t.Helper()
	files, err := filepath.Glob("../../skills/*/SKILL.md")
	if err != nil || len(files) == 0 {
		t.Fatalf("no skills/*/SKILL.md (%v)", err)
	}
	files = append(files, "../../docs/guide.md", "../../README.md")
	var out []guideCommand
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, commandsIn(strings.TrimPrefix(file, "../../"), string(data))...)
	}
	return out
}

func commandsIn(name, text string) []guideCommand {
	var out []guideCommand
	sc := bufio.NewScanner(strings.NewReader(text))
	fenced, console, lineNo := false, false, 0
	for sc.Scan() {
		lineNo++
		raw := sc.Text()
		if fence := strings.TrimSpace(raw); strings.HasPrefix(fence, "```") {
			fenced, console = !fenced, strings.Contains(fence, "console")
			continue
		}
		where := name + ":" + strconv.Itoa(lineNo)
		code := fenced || strings.HasPrefix(raw, "    ") || strings.HasPrefix(raw, "\t")
		if console && !strings.HasPrefix(strings.TrimSpace(raw), "$ ") {
			continue // a transcript: only the prompt lines are commands
		}
		line := strings.TrimPrefix(strings.TrimSpace(raw), "$ ")
		if code && strings.Contains(line, "specdev ") && !strings.HasPrefix(line, "#") && looksLikeCommand(line) {
			for strings.HasSuffix(line, "\\") && sc.Scan() {
				lineNo++
				line = strings.TrimSuffix(line, "\\") + " " + strings.TrimSpace(sc.Text())
			}
			out = append(out, guideCommand{where: where, line: line, exit: annotatedExit(line)})
			continue
		}
		for _, m := range inlineCommand.FindAllStringSubmatch(raw, -1) {
			out = append(out, guideCommand{where: where, line: m[1], exit: -1})
		}
	}
	return out
}

// looksLikeCommand: a shell line that runs specdev, not output that
// mentions it ("Next: …", "hint: …").
func looksLikeCommand(line string) bool {
	for _, seg := range segments(line) {
		if w := strings.Fields(seg); len(w) > 0 && w[0] == "specdev" {
			return true
		}
	}
	return false
}

func annotatedExit(line string) int {
	if m := exitNote.FindStringSubmatch(line); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n
	}
	return -1
}

// placeholders maps what the guides write for "fill this in" to a value
// the parser accepts.
var placeholders = strings.NewReplacer(
	"rv-…", "rv-1",
	" … ", " ", // "specdev work …": and so on
	"…", "x",
	"<file>", "a.go",
	"<name>", "x",
	" N ", " 1 ",
	" N]", " 1]",
)

// guideArgs turns a guide's command line into specdev's arguments: the
// specdev part of a pipeline, without comments and redirections, with
// placeholders filled in, optional parts ([…]) kept and the first of
// alternatives (pass|fail) taken.
func guideArgs(line string) ([]string, error) {
	for _, seg := range segments(placeholders.Replace(line + " ")) {
		_, words, err := splitShell(seg)
		if err != nil {
			return nil, err
		}
		for len(words) > 0 && strings.Contains(words[0], "=") && words[0] != "specdev" {
			words = words[1:] // VAR=value specdev …
		}
		if len(words) == 0 || words[0] != "specdev" {
			continue
		}
		var args []string
		for i := 1; i < len(words); i++ {
			w := words[i]
			if strings.HasPrefix(w, ">") || strings.HasPrefix(w, "2>") {
				if w == ">" || w == "2>" {
					i++ // the redirection's target
				}
				continue
			}
			args = append(args, w)
		}
		return args, nil
	}
	return nil, nil
}

// segments splits a shell line at unquoted pipes, ";" and "&&" and drops
// an unquoted comment; a "|" between two words (pass|fail) is an
// alternative, not a pipe, and keeps its first choice; unquoted [ and ]
// (an optional part) are dropped.
func segments(line string) []string {
	var out []string
	var cur strings.Builder
	var quote rune
	runes := []rune(line)
	for i := 0; i < len(runes); i++ {
		r := runes[i]
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '\'' || r == '"':
			quote = r
		case r == '#' && (i == 0 || runes[i-1] == ' '):
			return append(out, cur.String())
		case r == '[' || r == ']':
			continue
		case r == '|' && i > 0 && i+1 < len(runes) && runes[i-1] != ' ' && runes[i+1] != ' ':
			for i+1 < len(runes) && runes[i+1] != ' ' { // skip the other choices
				i++
			}
			continue
		case r == '|' || r == ';' || r == '&' && i+1 < len(runes) && runes[i+1] == '&':
			out = append(out, cur.String())
			cur.Reset()
			if r == '&' || i+1 < len(runes) && runes[i+1] == '|' {
				i++
			}
			continue
		}
		cur.WriteRune(r)
	}
	return append(out, cur.String())
}

func TestGuideArgs(t *testing.T) {
	tests := []struct {
		line string
		want []string
	}{
		{`specdev check record src/a.go --session rv-…`, []string{"check", "record", "src/a.go", "--session", "rv-1"}},
		{`specdev work continue [--guidance "…"]`, []string{"work", "continue", "--guidance", "x"}},
		{`specdev check verdict pass|fail --summary "a; b" --session rv-1`, []string{"check", "verdict", "pass", "--summary", "a; b", "--session", "rv-1"}},
		{`specdev check --session rv-z | sed -n 1,7p      # comment`, []string{"check", "--session", "rv-z"}},
		{`echo '[]' | specdev check record CHANGELOG.md --findings -`, []string{"check", "record", "CHANGELOG.md", "--findings", "-"}},
		{`SPECDEV_SESSION=rv-1 specdev check release 2>&1`, []string{"check", "release"}},
		{`specdev work …`, []string{"work"}},
		{`specdev check record <file> --line N`, []string{"check", "record", "a.go", "--line", "1"}},
		{`cat x.json`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			got, err := guideArgs(tt.line)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(got, "\x00") != strings.Join(tt.want, "\x00") {
				t.Fatalf("guideArgs(%q) = %q, want %q", tt.line, got, tt.want)
			}
		})
	}
}
