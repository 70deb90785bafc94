// Package githook installs, removes and describes the git hooks that run
// `specdev gate`: pre-commit (with --staged, so the check is of exactly
// what is committed) and pre-push.
//
// Invariants:
//   - A hook that is already there is never overwritten or lost. Install
//     chains it: it stays, under the name <hook>.specdev-chained, and
//     specdev's hook runs it first (if it is executable, as git would);
//     uninstall puts it back under its own name. Both moves are a single
//     link or rename, so there is no moment without a hook.
//   - Nothing is written through a symlink: the hook file is only ever
//     created by linking or renaming a finished temporary file into place,
//     and a hooks folder that is itself a symlink is refused.
//   - A hook specdev writes is complete (written, synced, then linked into
//     place) and executable (0755), and names itself on its second line
//     ("# specdev hook: pre-commit"): that line is how specdev knows its
//     own hook from anyone else's.
//   - git runs as an argv, never through a shell.
package githook

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/specdev/specdev/internal/changeset"
	"github.com/specdev/specdev/internal/shellword"
	"github.com/specdev/specdev/protocol"
)

// Hooks are the hooks specdev installs.
var Hooks = []string{"pre-commit", "pre-push"}

// ChainSuffix is added to the name of a hook that was there before
// specdev's; specdev's hook runs it first.
const ChainSuffix = ".specdev-chained"

// Location is where a repository keeps its hooks and where the project
// lies in it.
type Location struct {
	Dir    string // absolute hooks folder: core.hooksPath, or the hooks folder of the common git dir
	Prefix string // the project root relative to the top level of the work tree: "" or "sub/dir"
}

// Locate asks git where the hooks of the repository around root are. A
// linked worktree shares the hooks of its main repository.
func Locate(ctx context.Context, root string) (Location, error) {
	out, err := changeset.Git(ctx, root, nil, nil, nil, "rev-parse", "--show-prefix", "--git-path", "hooks")
	gerr, failed := errors.AsType[*changeset.GitError](err)
	switch {
	case errors.Is(err, exec.ErrNotFound):
		return Location{}, &protocol.UsageError{Msg: "git is not installed", Hint: "install git: hooks are a git feature"}
	case failed && strings.Contains(gerr.Stderr, "not a git repository"):
		return Location{}, &protocol.UsageError{Msg: fmt.Sprintf("%s is not in a git repository", root),
			Hint: "git hooks need a git repository: run git init first"}
	case err != nil:
		return Location{}, err
	}
	prefix, dir, ok := strings.Cut(strings.TrimRight(string(out), "\n"), "\n")
	if !ok {
		return Location{}, fmt.Errorf("git rev-parse: unexpected output %q", out)
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(root, dir)
	}
	return Location{Dir: filepath.Clean(dir), Prefix: strings.TrimSuffix(prefix, "/")}, nil
}

// CheckHook refuses a hook specdev does not install.
func CheckHook(name string) error {
	if slices.Contains(Hooks, name) {
		return nil
	}
	return &protocol.UsageError{Msg: fmt.Sprintf("unknown hook %q", name),
		Hint: "specdev installs pre-commit (checks the staged change), pre-push (checks what the branch adds) and claude-stop (a Claude Code Stop hook)"}
}

// Spec is the hook to write.
type Spec struct {
	Hook   string   // pre-commit or pre-push
	Binary string   // absolute path of the specdev to run; "" or missing at run time: specdev on PATH
	Args   []string // its arguments, e.g. gate --staged --dir .
}

// markerPrefix starts the second line of every hook specdev writes.
const markerPrefix = "# specdev hook: "

// commandPrefix starts the line that records what the hook runs.
const commandPrefix = "# runs: "

// hookScript is the hook's text, with {names} for what Script puts in.
//
//go:embed hook.tmpl
var hookScript string

// Script is the text of the hook: run the chained hook, if any and
// executable, then the gate; when the gate blocks, say how to go on. The
// pre-push hook keeps the refs git pushes (its stdin) for both, and gives
// the gate the remote's name (its first argument) with --pre-push.
func Script(s Spec) []byte {
	verb, bypass, keep, feed, push := "commit", "git commit --no-verify", "", "", ""
	if s.Hook == "pre-push" {
		verb, bypass, push = "push", "git push --no-verify", ` --pre-push "$1"`
		keep, feed = "refs=$(cat) # the refs git pushes, for the chained hook and the gate\n", `printf '%s\n' "$refs" | `
	}
	return []byte(strings.NewReplacer("{marker}", markerPrefix, "{hook}", s.Hook, "{runs}", commandPrefix,
		"{command}", shellword.Join(s.Args)+push, "{chain}", ChainSuffix, "{installed}", shellword.Quote(s.Binary),
		"{verb}", verb, "{bypass}", bypass, "{keep}", keep, "{feed}", feed).Replace(hookScript))
}

// parseScript tells whether a hook's text is one specdev wrote for hook,
// and what it runs.
func parseScript(hook string, data []byte) (ours bool, command string) {
	lines := strings.SplitN(string(data), "\n", 9)
	for i, line := range lines[:min(len(lines), 8)] {
		line = strings.TrimSuffix(line, "\r")
		if i == 1 && line != markerPrefix+hook {
			return false, ""
		}
		if c, ok := strings.CutPrefix(line, commandPrefix); ok {
			command = c
		}
	}
	return len(lines) > 1, command
}
