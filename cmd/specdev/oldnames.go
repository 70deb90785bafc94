package main

import "fmt"

// The original tool's command names, kept working: each runs the command
// that does the job today and says its name once on stderr, so that a
// person or an agent with the old name learns the new one (stdout and
// --json stay the command's own).

type workStatusCmd struct{ WorkShowCmd }

// Run is specdev work.
func (c *workStatusCmd) Run(app *App) error {
	renamed(app, "work status", "specdev work")
	return c.WorkShowCmd.Run(app)
}

type checkStatusCmd struct{ StatusCmd }

// Run is specdev status: a look that never claims.
func (c *checkStatusCmd) Run(app *App) error {
	renamed(app, "check status", "specdev status")
	return c.StatusCmd.Run(app)
}

type checkRunCmd struct{ CheckPollCmd }

// Run is specdev check.
func (c *checkRunCmd) Run(app *App) error {
	renamed(app, "check run", "specdev check --session ID")
	return c.CheckPollCmd.Run(app)
}

type checkResumeCmd struct{ CheckPollCmd }

// Run is specdev check: a session's own review is resumed.
func (c *checkResumeCmd) Run(app *App) error {
	renamed(app, "check resume", "specdev check --session ID (it resumes the review the session holds)")
	return c.CheckPollCmd.Run(app)
}

type checkAcceptCmd struct{ CheckApproveCmd }

// Run is specdev check approve.
func (c *checkAcceptCmd) Run(app *App) error {
	renamed(app, "check accept", "specdev check approve")
	return c.CheckApproveCmd.Run(app)
}

func renamed(app *App, old, now string) {
	fmt.Fprintf(app.stderr, "specdev: note: %q is the original tool's name; today's is %s\n", "specdev "+old, now)
}
