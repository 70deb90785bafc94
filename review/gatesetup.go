package review

import (
	"context"
	"strings"

	"github.com/specdev/specdev/checkpoint"
	"github.com/specdev/specdev/internal/preflight"
	"github.com/specdev/specdev/protocol"
)

// A gate that cannot even start (not found, not executable, its
// interpreter missing) says nothing about the change: it is a set-up
// problem. The review is given back instead of failed, so no round is
// used, and check exits INVALID naming the gate and the fix; the next
// check after the fix runs the gate again. specdev doctor finds the same
// problems without claiming anything.

// releaseSetup gives back a review whose gate could not start and
// returns the error that names the gate and the fix.
func releaseSetup(ctx context.Context, st *checkpoint.Store, a *checkpoint.Assignment, h checkpoint.Holder, argv []string, ran preflight.Result) error {
	if _, err := a.Release(context.WithoutCancel(ctx), h, "setup"); err != nil {
		return err
	}
	return &protocol.InvalidError{
		File:    "pre-flight gate " + gateName(argv),
		Problem: "cannot start: " + startProblem(ran.Error) + "; review " + a.Name + " was given back (pending) and no round was used",
		Hint:    gateFix(argv, ran.Setup, len(st.Config.Preflight) > 0) + ", then claim it again: " + checkpoint.ClaimCommand(h.Session),
	}
}

// gateName is the gate's program as the user wrote it, safe to print.
func gateName(argv []string) string {
	if len(argv) == 0 {
		return "(none)"
	}
	return oneLine(argv[0])
}

// startProblem is preflight's message without the program's name in
// front (the caller names the gate as the user wrote it).
func startProblem(msg string) string {
	if _, rest, ok := strings.Cut(msg, ": "); ok && !strings.HasPrefix(msg, "cannot run in") {
		return oneLine(rest)
	}
	return oneLine(msg)
}

// gateFix is the fix for a gate that cannot start. configured: the gate
// comes from "preflight" in config.json (else it is verify-gates.sh).
func gateFix(argv []string, problem preflight.Problem, configured bool) string {
	name := gateName(argv)
	config := `"preflight" in .specdev/config.json`
	switch problem {
	case preflight.NotExecutable:
		return "make it executable: chmod +x " + name
	case preflight.NotFound:
		if configured {
			return "fix " + config + ": " + name + " does not exist (a relative path is read from the project root)"
		}
		return "restore " + name + ", or remove it to review without a gate"
	case preflight.NotInPath:
		return "install " + name + ", or name the program by its path in " + config
	case preflight.NoInterpreter:
		return "fix the #! line of " + name + ": its interpreter is not there"
	case preflight.BadFormat:
		return "start " + name + " with a #! line, e.g. #!/bin/sh"
	case preflight.NoCommand:
		return "give " + config + " a command, or remove it"
	}
	return "make the gate start (specdev doctor checks it)"
}
