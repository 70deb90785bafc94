package protocol

import (
	"errors"
	"fmt"
	"path"
	"strings"
	"unicode"
)

// StateDir is the folder specdev keeps its state in; paths under it are
// never part of a review.
const StateDir = ".specdev"

// CheckPath reports why p cannot be a path to review: it must be relative
// to the project root, clean, without "..", and outside .specdev/.
func CheckPath(p string) error {
	switch {
	case p == "":
		return errors.New("path is empty")
	case strings.IndexFunc(p, unicode.IsControl) >= 0:
		return fmt.Errorf("path %q contains a control character", p)
	case strings.HasPrefix(p, "/") || strings.Contains(p, `\`) || (len(p) > 1 && p[1] == ':'):
		return fmt.Errorf("path %q is absolute; give it relative to the project root", p)
	}
	for _, elem := range strings.Split(p, "/") {
		if elem == ".." {
			return fmt.Errorf("path %q leads out of the project (\"..\")", p)
		}
	}
	if clean := path.Clean(p); clean != p {
		return fmt.Errorf("path %q is not in clean form (use %q)", p, clean)
	}
	if p == StateDir || strings.HasPrefix(p, StateDir+"/") {
		return fmt.Errorf("path %q is specdev's own state, which is never reviewed", p)
	}
	return nil
}

func checkPaths(file, field string, paths []string) error {
	for i, p := range paths {
		if err := CheckPath(p); err != nil {
			return invalid(file, fmt.Sprintf("%s[%d]", field, i),
				"use paths relative to the project root, without \"..\"", "%v", err)
		}
	}
	return nil
}
