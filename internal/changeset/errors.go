package changeset

import (
	"errors"
	"fmt"

	"github.com/specdev/specdev/protocol"
)

// Conditions the CLI reports as usage errors (exit code 2); both come
// wrapped in a *protocol.UsageError that carries the hint.
var (
	// ErrNotGit: the project is not in a git repository (or git is not
	// installed), so the files to review must be listed.
	ErrNotGit = errors.New("not a git repository")
	// ErrUnknownBase: --base names no commit.
	ErrUnknownBase = errors.New("no such commit")
)

// notGitError says that, outside git, the files must be listed; why is
// "" or the reason git could not be asked (e.g. it is not installed).
func notGitError(root, why string) error {
	hint := fmt.Sprintf("%s is not in a git repository; list the files to review with --files, and leave out --base", root)
	if why != "" {
		hint = why + "; list the files to review with --files, and leave out --base"
	}
	return &protocol.UsageError{Msg: ErrNotGit.Error() + ": pass --files", Hint: hint, Err: ErrNotGit}
}

func unknownBaseError(rev string) error {
	return &protocol.UsageError{
		Msg:  fmt.Sprintf("--base %s: %v", rev, ErrUnknownBase),
		Hint: "give a commit that exists in this repository, e.g. --base main or --base HEAD~3",
		Err:  ErrUnknownBase,
	}
}
