package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/specdev/specdev/internal/githook"
)

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

// hookData is the --json data of the hook commands.
type hookData struct {
	Dir    string          `json:"hooks_dir"`
	Action githook.Action  `json:"action,omitempty"`
	Hooks  []githook.State `json:"hooks"`
}

// Run writes the hook.
func (c *HookInstallCmd) Run(app *App) error {
	if err := githook.CheckHook(c.Hook); err != nil {
		return err
	}
	if c.Gate != "" {
		if err := (&GateCmd{Gate: c.Gate}).checkGate(); err != nil {
			return err
		}
	}
	root, loc, err := hookLocation(app)
	if err != nil {
		return err
	}
	bin, err := os.Executable()
	if err != nil {
		bin = "" // the hook then finds specdev on PATH
	}
	spec := githook.Spec{Hook: c.Hook, Binary: bin, Args: gateArgs(app, c.Hook, c.Gate, loc.Prefix)}
	st, action, err := githook.Install(loc.Dir, spec)
	if err != nil {
		return err
	}
	var b strings.Builder
	verb := map[githook.Action]string{githook.Installed: "Installed", githook.Chained: "Installed", githook.Updated: "Updated", githook.Unchanged: "Already installed"}[action]
	fmt.Fprintf(&b, "%s the %s hook: %s\n", verb, c.Hook, display(root, st.Path))
	fmt.Fprintf(&b, "It runs: %s (specdev at %s, else on PATH)\n", st.Command, orWord(bin, "(unknown)"))
	if st.Chained != "" {
		fmt.Fprintf(&b, "The hook that was there is kept as %s and runs first.\n", display(root, st.Chained))
	}
	verbNoun, bypass := "commit", "git commit --no-verify"
	next := "stage a change and ask for its review: specdev work request --staged"
	if c.Hook == "pre-push" {
		verbNoun, bypass, next = "push", "git push --no-verify", "ask for a review of the branch: specdev work request"
	}
	fmt.Fprintf(&b, "A blocked %s says why; to %s without the gate, knowingly: %s\n", verbNoun, verbNoun, bypass)
	return app.emit(Result{State: string(action), Data: hookData{Dir: loc.Dir, Action: action, Hooks: []githook.State{st}}, Text: b.String(), Next: next})
}

// HookUninstallCmd removes one hook.
type HookUninstallCmd struct {
	Hook string `arg:"" help:"pre-commit or pre-push." placeholder:"HOOK"`
}

// Run removes the hook and puts back the one it chained.
func (c *HookUninstallCmd) Run(app *App) error {
	if err := githook.CheckHook(c.Hook); err != nil {
		return err
	}
	root, loc, err := hookLocation(app)
	if err != nil {
		return err
	}
	st, action, err := githook.Uninstall(loc.Dir, c.Hook)
	if err != nil {
		return err
	}
	text := map[githook.Action]string{
		githook.Removed:  fmt.Sprintf("Removed the %s hook: %s", c.Hook, display(root, st.Path)),
		githook.Restored: fmt.Sprintf("Removed the %s hook and put back the hook it chained: %s", c.Hook, display(root, st.Path)),
		githook.NotThere: fmt.Sprintf("No specdev %s hook in %s: nothing to remove.", c.Hook, display(root, loc.Dir)),
	}[action]
	if action == githook.NotThere && st.Present {
		text += fmt.Sprintf("\n%s is %s, not specdev's; it stays as it is.", display(root, st.Path), st.Foreign)
	}
	return app.emit(Result{State: string(action), Data: hookData{Dir: loc.Dir, Action: action, Hooks: []githook.State{st}}, Text: text,
		Next: "to gate commits again: specdev hook install " + c.Hook})
}

// HookStatusCmd shows the hooks.
type HookStatusCmd struct {
	Hook string `arg:"" optional:"" help:"pre-commit or pre-push (default: both)." placeholder:"HOOK"`
}

// Run describes each hook.
func (c *HookStatusCmd) Run(app *App) error {
	hooks := githook.Hooks
	if c.Hook != "" {
		if err := githook.CheckHook(c.Hook); err != nil {
			return err
		}
		hooks = []string{c.Hook}
	}
	root, loc, err := hookLocation(app)
	if err != nil {
		return err
	}
	d := hookData{Dir: loc.Dir}
	var b strings.Builder
	fmt.Fprintf(&b, "Git hooks folder: %s\n", display(root, loc.Dir))
	next := "nothing to do; specdev hook uninstall <hook> removes one"
	for _, h := range hooks {
		st, err := githook.Inspect(loc.Dir, h)
		if err != nil {
			return err
		}
		d.Hooks = append(d.Hooks, st)
		fmt.Fprintf(&b, "  %-10s  %s\n", h, hookSummary(root, st))
		if !st.Ours && strings.HasPrefix(next, "nothing") {
			next = "install it: specdev hook install " + h
		}
	}
	return app.emit(Result{State: "status", Data: d, Text: b.String(), Next: next})
}

// hookSummary is one line about one hook.
func hookSummary(root string, st githook.State) string {
	var s string
	switch {
	case st.Ours:
		s = "installed: runs " + st.Command
		if !st.Executable {
			s += " (not executable: git skips it; run specdev hook install " + st.Hook + " again)"
		}
	case st.Present:
		s = "not installed; " + st.Foreign + " is there (specdev hook install " + st.Hook + " keeps it and runs it first)"
	default:
		s = "not installed"
	}
	if st.Chained != "" {
		s += "; chains " + display(root, st.Chained)
	}
	return s
}

// hookLocation finds the project root and the repository's hooks folder.
func hookLocation(app *App) (string, githook.Location, error) {
	st, err := app.Store()
	if err != nil {
		return "", githook.Location{}, err
	}
	loc, err := githook.Locate(app.ctx, st.Root)
	return st.Root, loc, err
}

// gateArgs is the specdev command line the hook runs. Hooks run from the
// top level of the work tree, so --dir names the project root relative
// to it; that holds in every worktree of the repository.
func gateArgs(app *App, hook, gate, prefix string) []string {
	args := []string{"gate"}
	if hook == "pre-commit" {
		args = append(args, "--staged")
	}
	if gate != "" {
		args = append(args, "--gate", gate)
	}
	if app.Assignment != "" {
		args = append(args, "--assignment", app.Assignment)
	}
	return append(args, "--dir", orWord(prefix, "."))
}

// display shows path relative to root when it lies inside it.
func display(root, path string) string {
	rel, err := filepath.Rel(root, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return path
	}
	return rel
}

func orWord(s, word string) string {
	if s == "" {
		return word
	}
	return s
}
