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
// to the project root, clean, without "..", outside .specdev/, and free of
// control and bidirectional-text characters (which would make it print as
// something else). It does not allocate for a valid path.
func CheckPath(p string) error {
	if plainPath(p) {
		return nil
	}
	return checkPathSlow(p)
}

// checkPathSlow is CheckPath for every path, saying what is wrong.
func checkPathSlow(p string) error {
	switch {
	case p == "":
		return errors.New("path is empty")
	case strings.IndexFunc(p, unicode.IsControl) >= 0:
		return fmt.Errorf("path %s contains a control character", QuotePrefix(p))
	case strings.IndexFunc(p, isBidiControl) >= 0:
		return fmt.Errorf("path %s contains a bidirectional-text control character", QuotePrefix(p))
	case strings.HasPrefix(p, "/") || strings.Contains(p, `\`) || (len(p) > 1 && p[1] == ':'):
		return fmt.Errorf("path %s is absolute; give it relative to the project root", QuotePrefix(p))
	case p == ".." || strings.HasPrefix(p, "../") || strings.HasSuffix(p, "/..") || strings.Contains(p, "/../"):
		return fmt.Errorf("path %s leads out of the project (\"..\")", QuotePrefix(p))
	case path.Clean(p) != p:
		return fmt.Errorf("path %s is not in clean form (use %s)", QuotePrefix(p), QuotePrefix(path.Clean(p)))
	case p == StateDir || strings.HasPrefix(p, StateDir+"/"):
		return fmt.Errorf("path %s is specdev's own state, which is never reviewed", QuotePrefix(p))
	}
	return nil
}

// plainPath is CheckPath's fast yes, in one pass over the bytes: printable
// ASCII, relative, every element neither empty, ".", nor "..", and not
// under .specdev. Anything else takes the slow path, which says why.
func plainPath(p string) bool {
	if p == "" || p[0] == '/' || len(p) > 1 && p[1] == ':' || p == StateDir || strings.HasPrefix(p, StateDir+"/") {
		return false
	}
	start := 0
	for i := 0; i <= len(p); i++ {
		if i < len(p) {
			c := p[i]
			if c < ' ' || c > '~' || c == '\\' {
				return false
			}
			if c != '/' {
				continue
			}
		}
		switch p[start:i] {
		case "", ".", "..":
			return false
		}
		start = i + 1
	}
	return true
}

// CheckWorktree reports why w cannot name the checkout a request was made
// in: "" (the project root's own) or the project folder in another
// worktree of the repository, relative to the project root — clean,
// slash-separated, possibly leading out with "..", and free of control
// and bidirectional-text characters.
func CheckWorktree(w string) error {
	switch {
	case w == "":
		return nil
	case strings.IndexFunc(w, unicode.IsControl) >= 0 || strings.IndexFunc(w, isBidiControl) >= 0:
		return fmt.Errorf("worktree %s contains a control character", QuotePrefix(w))
	case strings.HasPrefix(w, "/") || strings.Contains(w, `\`) || len(w) > 1 && w[1] == ':':
		return fmt.Errorf("worktree %s is absolute; give it relative to the project root", QuotePrefix(w))
	case w == "." || path.Clean(w) != w:
		return fmt.Errorf("worktree %s is not in clean form (\"\" is the project root's own checkout)", QuotePrefix(w))
	}
	return nil
}
