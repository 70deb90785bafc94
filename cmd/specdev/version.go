package main

import "github.com/alecthomas/kong"

// versionFlag is --version: what specdev version prints, then the run ends.
type versionFlag bool

// BeforeReset runs before kong looks for a command, so "specdev --version"
// needs none. --json is read from the parse, as flags are not applied yet.
func (versionFlag) BeforeReset(ctx *kong.Context, app *App) error {
	for _, trace := range ctx.Path {
		if trace.Flag != nil && trace.Flag.Name == "json" {
			app.JSON, _ = ctx.FlagValue(trace.Flag).(bool)
		}
	}
	if err := (&VersionCmd{}).Run(app); err != nil {
		return err
	}
	writeResult(app.stdout, app.JSON, *app.result)
	ctx.Kong.Exit(exitOK)
	return nil
}
