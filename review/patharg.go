package review

import (
	"errors"

	"github.com/specdev/specdev/internal/changeset"
	"github.com/specdev/specdev/protocol"
)

// recordPath reads the file argument of check record as git reads a path
// from the caller's folder wd (changeset.ProjectPath, the rule work
// request --files follows too). A refused path is a usage error, as a
// file outside the review is.
func recordPath(root, wd, arg string) (string, error) {
	p, err := changeset.ProjectPath(root, wd, arg)
	var inv *protocol.InvalidError
	if errors.As(err, &inv) {
		return "", usage(inv.Hint, inv.Problem)
	}
	return p, err
}
