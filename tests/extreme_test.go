package tests

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/specdev/specdev/protocol"
)

// TestExtremeValuesThroughEveryCommand writes through every command that
// writes state, with flag values at and past their bounds and odd text
// (multi-byte, control characters, escape sequences, bidi controls), and
// after each command validates every state file and history line in full
// against its schema (the validity cache is not consulted: the files are
// decoded with protocol's validating decoders). A command may refuse a
// value (exit 2 or 7); it may never write one that fails to read back.
func TestExtremeValuesThroughEveryCommand(t *testing.T) {
	root, dir := newProject(t, "10s")
	a := filepath.Join(dir, "assignments", "00001_edge")
	if err := os.Mkdir(a, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"a.go", "b.go"} {
		writeTestFile(t, filepath.Join(root, f), "package a\n", 0o644)
	}
	odd := "é\u202e\x1b[31m\x1b]0;x\a\u0301\t\r"
	// An argument may not pass the kernel's 128 KiB: long values are
	// ASCII at the limit, two-byte characters below it.
	atLimit := func(n int) string { return strings.Repeat("x", n) }
	wide := func(n int) string { return strings.Repeat("ü", min(n, 60_000)) }
	past := func(n int) string { return strings.Repeat("x", n+1) }
	session := []string{"--session", "rv-edge"}
	steps := []struct {
		args []string
		want int // the exit code: a value past a bound is refused (2), one at it written
	}{
		{[]string{"work", "request", "--files", "a.go", "--files", "b.go", "--mode", "manual", "--notes", atLimit(protocol.MaxTextLength)}, 0},
		{[]string{"work", "request", "--files", "a.go", "--notes", past(protocol.MaxTextLength)}, 2},
		{[]string{"work", "request", "--files", "a.go", "--gate", past(protocol.MaxIDLength)}, 2},
		{[]string{"check", "mode=manual"}, 0},
		{[]string{"check", "record", "a.go", "--finding", "minor: " + wide(protocol.MaxFindingText), "--line", fmt.Sprint(protocol.MaxLine)}, 0},
		{[]string{"check", "record", "a.go", "--finding", "minor: x", "--line=-1"}, 2},
		{[]string{"check", "record", "a.go", "--finding", "minor: x", "--line", fmt.Sprint(int64(protocol.MaxLine) + 1)}, 2},
		{[]string{"check", "record", "a.go", "--finding", "critical: " + odd, "--suggestion", odd + wide(100)}, 0},
		{[]string{"check", "record", "a.go", "--finding", "important: " + past(protocol.MaxFindingText)}, 2},
		{[]string{"check", "record", "b.go"}, 0},
		{[]string{"check", "verdict", "fail", "--summary", atLimit(protocol.MaxTextLength), "--intent", odd}, 0},
		{[]string{"check", "reject", "--reason", atLimit(protocol.MaxTextLength)}, 0},
		{[]string{"work", "continue", "--guidance", atLimit(protocol.MaxTextLength)}, 0},
		{[]string{"work", "request", "--files", "a.go", "--notes", odd + wide(protocol.MaxTextLength)}, 0},
		{[]string{"check"}, 0},
		{[]string{"check", "release"}, 0},
		{[]string{"check"}, 0},
		{[]string{"check", "verdict", "pass", "--summary", past(protocol.MaxTextLength)}, 2},
		{[]string{"check", "record", "a.go"}, 0},
		{[]string{"check", "verdict", "pass", "--summary", odd}, 0},
		{[]string{"check", "approve", "--notes", atLimit(protocol.MaxTextLength)}, 8},
		{[]string{"work", "request", "--files", "a.go"}, 0},
		{[]string{"work", "cancel"}, 0},
		{[]string{"work", "unblock", "--rounds", fmt.Sprint(protocol.MaxRound + 1)}, 2},
	}
	for i, step := range steps {
		args := step.args
		full := args
		if args[0] == "check" && !strings.HasPrefix(strings.Join(args, " "), "check approve") && !strings.HasPrefix(strings.Join(args, " "), "check reject") {
			full = append(append([]string{}, args...), session...)
			full = append(full, "--lease", leaseIfAny(t, root, "00001_edge"))
		}
		_, stderr, code := runSpecdev(t, root, full...)
		if code != step.want {
			t.Fatalf("step %d %s: exit %d, want %d\n%.500s", i, clip(strings.Join(args, " ")), code, step.want, stderr)
		}
		validateAll(t, fmt.Sprintf("after step %d (%s, exit %d)", i, clip(strings.Join(args, " ")), code), a)
	}
}

// validateAll decodes the assignment's state files and every history line
// with the validating decoders.
func validateAll(t *testing.T, when, a string) {
	t.Helper()
	if data, err := os.ReadFile(filepath.Join(a, protocol.RequestFile)); err == nil {
		if _, err := protocol.DecodeRequest(protocol.RequestFile, data); err != nil {
			t.Fatalf("%s: %v", when, err)
		}
	}
	if data, err := os.ReadFile(filepath.Join(a, protocol.ProgressFile)); err == nil {
		if _, err := protocol.DecodeProgress(protocol.ProgressFile, data); err != nil {
			t.Fatalf("%s: %v", when, err)
		}
	}
	history, err := os.ReadFile(filepath.Join(a, protocol.HistoryFile))
	if err != nil {
		return
	}
	for n, line := range bytes.Split(bytes.TrimSpace(history), []byte("\n")) {
		if _, err := protocol.DecodeEvent(protocol.HistoryFile, n+1, line); err != nil {
			t.Fatalf("%s: %v", when, err)
		}
	}
}

// leaseIfAny is the lease of the assignment's review, "" if none.
func leaseIfAny(t *testing.T, root, assignment string) string {
	t.Helper()
	if _, err := os.Stat(filepath.Join(root, ".specdev", "assignments", assignment, protocol.ProgressFile)); err != nil {
		return ""
	}
	return leaseOf(t, root, assignment)
}

func clip(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}
