package main

import (
	"fmt"

	"github.com/alecthomas/kong"
)

// The original tool's command names, kept working: each type embeds the
// command that does the job today, so it runs that command's Run, and
// noteRenamed says today's name once on stderr, so that a person or an
// agent with the old name learns the new one (stdout and --json stay the
// command's own).
type (
	workStatusCmd  struct{ WorkShowCmd }
	checkStatusCmd struct{ StatusCmd }
	checkRunCmd    struct{ CheckPollCmd }
	checkResumeCmd struct{ CheckPollCmd }
	checkAcceptCmd struct{ CheckApproveCmd }
)

// renamedCommands are today's names of the original tool's commands.
var renamedCommands = map[string]string{
	"work status":  "specdev work",
	"check status": "specdev status",
	"check run":    "specdev check --session ID",
	"check resume": "specdev check --session ID (it resumes the review the session holds)",
	"check accept": "specdev check approve",
}

// noteRenamed says today's name if the command kctx selected has one.
func noteRenamed(app *App, kctx *kong.Context) {
	if sel := kctx.Selected(); sel != nil && renamedCommands[sel.Path()] != "" {
		fmt.Fprintf(app.stderr, "specdev: note: %q is the original tool's name; today's is %s\n", "specdev "+sel.Path(), renamedCommands[sel.Path()])
	}
}
