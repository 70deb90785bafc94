package main

import (
	_ "embed"
	"fmt"
	"io"
	"strings"
)

// example is one command line shown on a help page, with what it does.
type example struct {
	note, cmd string
}

// examplesText holds the EXAMPLES of each help page: a line "== PATH"
// starts the examples of a command path ("==" alone: the overview), and
// each example is a line "# what it does" followed by its command line,
// broken before its flags to fit a help page (a line ending in a
// backslash goes on in the next). A test parses every one against the CLI and checks that it selects the
// command of its page, and that every command has some.
//
//go:embed examples.txt
var examplesText string

// examples are the examples by command path, read when a help page is
// made (not at every start-up; a run prints one page at most).
func examples() map[string][]example {
	byPath := map[string][]example{}
	path, note := "", ""
	for _, line := range strings.Split(examplesText, "\n") {
		switch {
		case strings.HasPrefix(line, "=="):
			path = strings.TrimSpace(line[2:])
		case strings.HasPrefix(line, "# "):
			note = line[2:]
		case line == "":
		case strings.HasPrefix(line, "  "): // the command line goes on
			byPath[path][len(byPath[path])-1].cmd += "\n" + line
		default:
			byPath[path] = append(byPath[path], example{note, line})
		}
	}
	return byPath
}

// writeExamples writes the EXAMPLES of the command at path, if it has any.
func writeExamples(w io.Writer, path string) {
	list := examples()[path]
	if list == nil {
		return
	}
	fmt.Fprint(w, "\nExamples:\n")
	for i, e := range list {
		if i > 0 {
			fmt.Fprintln(w)
		}
		for _, line := range wrap(strings.Fields(e.note), helpWidth-4) {
			fmt.Fprintf(w, "  # %s\n", line)
		}
		for _, line := range strings.Split(e.cmd, "\n") {
			fmt.Fprintf(w, "  %s\n", line)
		}
	}
}
