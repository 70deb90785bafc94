package main

import (
	"fmt"
	"io"

	"github.com/specdev/specdev/protocol"
	"github.com/specdev/specdev/review"
)

// HookCmd groups the commands for the git hooks that run specdev gate.
type HookCmd struct {
	Install   HookInstallCmd   `cmd:"" help:"Install a git hook that runs specdev gate; a hook already there is kept and runs first."`
	Uninstall HookUninstallCmd `cmd:"" help:"Remove specdev's git hook and put back the hook it chained, if any."`
	Status    HookStatusCmd    `cmd:"" default:"withargs" hidden:"" help:"Shows which git hooks run specdev gate, and where (also: specdev hook status)."`
	Run       HookRunCmd       `cmd:"" hidden:"" help:"What an installed agent-host hook runs (claude-stop: reads Claude Code's Stop hook input on stdin)."`
}

// HookRunCmd answers an agent host's hook: for claude-stop, a block
// decision on stdout, or nothing (the stop goes through). It always exits
// 0: a hook that fails must never trap the agent.
type HookRunCmd struct {
	Hook string `arg:"" help:"claude-stop." placeholder:"HOOK"`
}

// Run reads the hook's input and answers.
func (c *HookRunCmd) Run(app *App) error {
	if c.Hook != review.ClaudeStopHook {
		return usage("specdev hook run claude-stop (Claude Code runs it)", "unknown host hook "+protocol.QuotePrefix(c.Hook))
	}
	input, _ := io.ReadAll(io.LimitReader(app.stdin, 1<<20))
	s, err := app.Service()
	if err != nil {
		fmt.Fprintf(app.stderr, "specdev stop hook: %s; the stop goes through\n", protocol.SafeText(err.Error()))
		return nil
	}
	d := s.StopGate(app.ctx, input)
	if d.Note != "" {
		fmt.Fprintln(app.stderr, d.Note)
	}
	if d.Block {
		writeJSON(app.stdout, map[string]string{"decision": "block", "reason": d.Reason})
	}
	return nil
}

// HookInstallCmd installs one hook.
type HookInstallCmd struct {
	Hook string `arg:"" help:"pre-commit (checks the staged change), pre-push (checks what the branch adds), or claude-stop (a Claude Code Stop hook that blocks a stop with unreviewed work)." placeholder:"HOOK"`
	Gate string `help:"The review gate the hook checks (default: as specdev gate)." placeholder:"NAME"`
}

// Run writes the hook.
func (c *HookInstallCmd) Run(app *App) error {
	return app.run(func(s *review.Service) (review.Result, error) { return s.HookInstall(app.ctx, c.Hook, c.Gate) })
}

// HookUninstallCmd removes one hook.
type HookUninstallCmd struct {
	Hook string `arg:"" help:"pre-commit, pre-push or claude-stop." placeholder:"HOOK"`
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
