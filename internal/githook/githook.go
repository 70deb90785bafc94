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
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

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
	out, err := git(ctx, root, "rev-parse", "--show-prefix", "--git-path", "hooks")
	if err != nil {
		return Location{}, err
	}
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) != 2 {
		return Location{}, fmt.Errorf("git rev-parse: unexpected output %q", out)
	}
	dir := lines[1]
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(root, dir)
	}
	return Location{Dir: filepath.Clean(dir), Prefix: strings.TrimSuffix(lines[0], "/")}, nil
}

// CheckHook refuses a hook specdev does not install.
func CheckHook(name string) error {
	for _, h := range Hooks {
		if name == h {
			return nil
		}
	}
	return &protocol.UsageError{Msg: fmt.Sprintf("unknown hook %q", name),
		Hint: "specdev installs pre-commit (checks the staged change), pre-push (checks what the branch adds) and claude-stop (a Claude Code Stop hook)"}
}

// git runs `git -C root args…` without a shell and returns its stdout.
func git(ctx context.Context, root string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", root}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0", "LC_ALL=C")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exitErr *exec.ExitError
	switch {
	case err == nil:
		return stdout.Bytes(), nil
	case errors.Is(err, exec.ErrNotFound):
		return nil, &protocol.UsageError{Msg: "git is not installed", Hint: "install git: hooks are a git feature"}
	case errors.As(err, &exitErr) && strings.Contains(stderr.String(), "not a git repository"):
		return nil, &protocol.UsageError{Msg: fmt.Sprintf("%s is not in a git repository", root),
			Hint: "git hooks need a git repository: run git init first"}
	}
	return nil, fmt.Errorf("git %s: %v: %s", args[0], err, strings.TrimSpace(stderr.String()))
}

// RefusedError says why specdev leaves a hook as it is, and how to go on.
type RefusedError struct {
	Msg  string
	Hint string
}

func (e *RefusedError) Error() string { return e.Msg }

// Is makes errors.Is(err, protocol.ErrConflict) true: the hooks folder is
// not in a state the action fits.
func (e *RefusedError) Is(target error) bool { return target == protocol.ErrConflict }

// HintText suggests what to do.
func (e *RefusedError) HintText() string { return e.Hint }
