package main

import "github.com/specdev/specdev/review"

// HookCmd groups the commands for the git hooks that run specdev gate.
type HookCmd struct {
	Install   HookInstallCmd   `cmd:"" help:"Install a git hook that runs specdev gate; a hook already there is kept and runs first."`
	Uninstall HookUninstallCmd `cmd:"" help:"Remove specdev's git hook and put back the hook it chained, if any."`
	Status    HookStatusCmd    `cmd:"" default:"withargs" hidden:"" help:"Shows which git hooks run specdev gate, and where (also: specdev hook status)."`
}

// HookInstallCmd installs one hook.
type HookInstallCmd struct {
	Hook string `arg:"" help:"pre-commit (checks the staged change) or pre-push (checks what the branch adds)." placeholder:"HOOK"`
	Gate string `help:"The review gate the hook checks (default: as specdev gate)." placeholder:"NAME"`
}

// Run writes the hook.
func (c *HookInstallCmd) Run(app *App) error {
	return app.run(func(s *review.Service) (review.Result, error) { return s.HookInstall(app.ctx, c.Hook, c.Gate) })
}

// HookUninstallCmd removes one hook.
type HookUninstallCmd struct {
	Hook string `arg:"" help:"pre-commit or pre-push." placeholder:"HOOK"`
}

// Run removes the hook and puts back the one it chained.
func (c *HookUninstallCmd) Run(app *App) error {
	return app.run(func(s *review.Service) (review.Result, error) { return s.HookUninstall(app.ctx, c.Hook) })
}

// HookStatusCmd shows the hooks.
type HookStatusCmd struct {
	Hook string `arg:"" optional:"" help:"pre-commit or pre-push (default: both)." placeholder:"HOOK"`
}

// Run describes each hook.
func (c *HookStatusCmd) Run(app *App) error {
	return app.run(func(s *review.Service) (review.Result, error) { return s.HookStatus(app.ctx, c.Hook) })
}
