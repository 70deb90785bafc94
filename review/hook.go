package review

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/specdev/specdev/internal/githook"
)

// hookData is the --json data of the hook commands.
type hookData struct {
	Dir    string          `json:"hooks_dir"`
	Action githook.Action  `json:"action,omitempty"`
	Hooks  []githook.State `json:"hooks"`
}

// HookInstall installs the git hook that runs specdev gate for the
// review gate gate ("": as specdev gate); a hook already there is kept
// and runs first.
func (s *Service) HookInstall(ctx context.Context, hook, gate string) (Result, error) {
	if hook == ClaudeStopHook {
		return s.claudeStop(true)
	}
	loc, err := s.hooksFolder(ctx, hook)
	if err != nil {
		return Result{}, err
	}
	if err := (GateOptions{Gate: gate}).check(s); err != nil {
		return Result{}, err
	}
	root := s.Store.Root
	bin, _ := os.Executable() // "" on an error: the hook then finds specdev on PATH
	st, action, err := githook.Install(loc.Dir, githook.Spec{Hook: hook, Binary: bin, Args: s.gateArgs(hook, gate, loc.Prefix)})
	if err != nil {
		return Result{}, err
	}
	var b strings.Builder
	verb := map[githook.Action]string{githook.Installed: "Installed", githook.Chained: "Installed", githook.Updated: "Updated", githook.Unchanged: "Already installed"}[action]
	fmt.Fprintf(&b, "%s the %s hook: %s\n", verb, hook, display(root, st.Path))
	fmt.Fprintf(&b, "It runs: %s (specdev at %s, else on PATH)\n", st.Command, cmp.Or(bin, "(unknown)"))
	if st.Chained != "" {
		fmt.Fprintf(&b, "The hook that was there is kept as %s and runs first.\n", display(root, st.Chained))
	}
	verb, next := "commit", "stage a change and ask for its review: specdev work request --staged"
	if hook == "pre-push" {
		verb, next = "push", "ask for a review of the branch: specdev work request"
	}
	fmt.Fprintf(&b, "A blocked %s says why; to %s without the gate, knowingly: git %s --no-verify\n", verb, verb, verb)
	return Result{State: string(action), Data: hookData{Dir: loc.Dir, Action: action, Hooks: []githook.State{st}}, Text: b.String(), Next: next}, nil
}

// HookUninstall removes specdev's hook and puts back the one it chained.
func (s *Service) HookUninstall(ctx context.Context, hook string) (Result, error) {
	if hook == ClaudeStopHook {
		return s.claudeStop(false)
	}
	loc, err := s.hooksFolder(ctx, hook)
	if err != nil {
		return Result{}, err
	}
	root := s.Store.Root
	st, action, err := githook.Uninstall(loc.Dir, hook)
	if err != nil {
		return Result{}, err
	}
	text := map[githook.Action]string{
		githook.Removed:  fmt.Sprintf("Removed the %s hook: %s", hook, display(root, st.Path)),
		githook.Restored: fmt.Sprintf("Removed the %s hook and put back the hook it chained: %s", hook, display(root, st.Path)),
		githook.NotThere: fmt.Sprintf("No specdev %s hook in %s: nothing to remove.", hook, display(root, loc.Dir)),
	}[action]
	if action == githook.NotThere && st.Present {
		text += fmt.Sprintf("\n%s is %s, not specdev's; it stays as it is.", display(root, st.Path), st.Foreign)
	}
	return Result{State: string(action), Data: hookData{Dir: loc.Dir, Action: action, Hooks: []githook.State{st}}, Text: text,
		Next: "to gate commits again: specdev hook install " + hook}, nil
}

// HookStatus says which git hooks run specdev gate (hook, or all).
func (s *Service) HookStatus(ctx context.Context, hook string) (Result, error) {
	hooks := githook.Hooks
	if hook != "" {
		hooks = []string{hook}
	}
	loc, err := s.hooksFolder(ctx, hooks...)
	if err != nil {
		return Result{}, err
	}
	root := s.Store.Root
	d := hookData{Dir: loc.Dir}
	var b strings.Builder
	fmt.Fprintf(&b, "Git hooks folder: %s\n", display(root, loc.Dir))
	next := "nothing to do; specdev hook uninstall <hook> removes one"
	for _, h := range hooks {
		st, err := githook.Inspect(loc.Dir, h)
		if err != nil {
			return Result{}, err
		}
		d.Hooks = append(d.Hooks, st)
		fmt.Fprintf(&b, "  %-10s  %s\n", h, hookSummary(root, st))
		if !st.Ours && strings.HasPrefix(next, "nothing") {
			next = "install it: specdev hook install " + h
		}
	}
	return Result{State: "status", Data: d, Text: b.String(), Next: next}, nil
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
		s = "not installed; " + st.Foreign + " is there (optional: specdev hook install " + st.Hook + " keeps it and runs it first)"
	default:
		s = "not installed (optional: specdev hook install " + st.Hook + ")"
	}
	if st.Chained != "" {
		s += "; chains " + display(root, st.Chained)
	}
	return s
}

// hooksFolder checks the names of the hooks and finds the repository's
// hooks folder.
func (s *Service) hooksFolder(ctx context.Context, hooks ...string) (githook.Location, error) {
	for _, h := range hooks {
		if err := githook.CheckHook(h); err != nil {
			return githook.Location{}, err
		}
	}
	return githook.Locate(ctx, s.Store.Root)
}

// gateArgs is the specdev command line the hook runs. Hooks run from the
// top level of the work tree, so --dir names the project root relative
// to it; that holds in every worktree of the repository.
func (s *Service) gateArgs(hook, gate, prefix string) []string {
	args := []string{"gate"}
	if hook == "pre-commit" {
		args = append(args, "--staged")
	}
	if gate != "" {
		args = append(args, "--gate", gate)
	}
	return append(args, "--dir", cmp.Or(prefix, "."))
}

// display shows path relative to root when it lies inside it.
func display(root, path string) string {
	rel, err := filepath.Rel(root, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return path
	}
	return rel
}
