package main

import (
	"fmt"
	"io"
	"testing"
)

// What the smaller model parses, the whole model parses the same way:
// the same command with the same flags and arguments. Every example of
// every help page is tried, and lines where a flag's value is a command's
// name.
func TestSmallerModelParsesAsTheWholeModel(t *testing.T) {
	t.Setenv("SPECDEV_SESSION", "")
	lines := [][]string{
		{"--assignment", "status", "check"},
		{"check", "--session", "record", "verdict", "pass"},
		{"check", "--session", "verdict"},
		{"--dir", "work", "check", "--session", "rv-1"},
		{"hook", "pre-push"},
		{"group", "api"},
		{"check", "mode=auto", "timeout=5s"},
		{"version"},
	}
	for _, list := range examples() {
		for _, e := range list {
			_, words, err := splitShell(e.cmd)
			if err != nil {
				t.Fatal(err)
			}
			lines = append(lines, words[1:])
		}
	}
	pruned := 0
	for _, args := range lines {
		model := smallerModel(args)
		if model == nil {
			continue
		}
		small, err := parsedWith(args, model)
		if err != nil {
			continue // parsed again with the whole model
		}
		pruned++
		whole, err := parsedWith(args, &CLI{})
		if err != nil {
			t.Fatalf("%q: the smaller model parses it, the whole one refuses it: %v", args, err)
		}
		if small != whole {
			t.Errorf("%q parses differently:\nsmaller model: %s\nwhole model:   %s", args, small, whole)
		}
	}
	if pruned < 20 {
		t.Fatalf("only %d command lines used the smaller model", pruned)
	}
}

// parsedWith parses args with the model cli, and describes what it
// selected: the command, its values and the global flags.
func parsedWith(args []string, cli any) (string, error) {
	app := &App{stdout: io.Discard, stderr: io.Discard}
	parser, err := newParser(app, cli)
	if err != nil {
		return "", err
	}
	kctx, err := parser.Parse(rewriteKeyValues(args, seedFormOf(parser.Model.Node)))
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%s %+v %+v", kctx.Command(), kctx.Selected().Target.Interface(), *app.Globals), nil
}

// A command line with a flag's value that names a command still runs the
// command the whole model selects.
func TestParseFallsBackToTheWholeModel(t *testing.T) {
	t.Setenv("SPECDEV_SESSION", "")
	p := parseOnce(t, []string{"--assignment", "status", "check", "--session", "rv-1"})
	if p.err != "" || p.command != "check poll" {
		t.Fatalf("got %+v, want check poll", p)
	}
}
