package main

import (
	"errors"
	"os"

	"github.com/specdev/specdev/internal/changeset"
	"github.com/specdev/specdev/protocol"
)

// workingDir is the current folder, or "" (paths are then read from the
// project root) if it cannot be found.
func workingDir() string {
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	return wd
}

// recordPath reads the file argument of check record as git reads a path
// (changeset.ProjectPath, the rule work request --files follows too). A
// refused path is a usage error, as a file outside the review is.
func recordPath(root, arg string) (string, error) {
	p, err := changeset.ProjectPath(root, workingDir(), arg)
	var inv *protocol.InvalidError
	if errors.As(err, &inv) {
		return "", usage(inv.Hint, inv.Problem)
	}
	return p, err
}
