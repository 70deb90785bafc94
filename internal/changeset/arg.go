package changeset

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/specdev/specdev/protocol"
)

// ProjectPath turns a path typed on the command line into the form the
// review files use (relative to the project root, slash-separated,
// clean), as git reads a path: a relative path is relative to the current
// folder cwd when cwd lies inside the project (else, e.g. with --dir from
// elsewhere, to the project root), and an absolute path is accepted when
// it lies inside the project. A path with backslashes, or one that lies
// outside the project, is refused with a *protocol.InvalidError naming it.
//
// It does not look at the file itself: CheckFile's rules (no symlink out
// of the project, not under .specdev/) and existence are the caller's to
// check on the result.
func ProjectPath(root, cwd, arg string) (string, error) {
	switch {
	case arg == "":
		return "", refuse(arg, "path is empty", "name a file of the project, e.g. src/login.go")
	case strings.Contains(arg, `\`):
		return "", refuse(arg, fmt.Sprintf("path %s has backslashes", protocol.QuotePrefix(arg)), slashHint(arg))
	case !filepath.IsAbs(arg) && len(arg) > 1 && arg[1] == ':':
		return "", refuse(arg, fmt.Sprintf("path %s is a Windows drive path", protocol.QuotePrefix(arg)),
			"give the path relative to the current folder, with forward slashes")
	}
	base := root
	if cwd != "" && within(root, cwd) {
		base = cwd
	}
	full := filepath.FromSlash(arg)
	if !filepath.IsAbs(full) {
		full = filepath.Join(base, full)
	}
	rel, ok := relInside(root, filepath.Clean(full))
	if !ok {
		return "", refuse(arg, fmt.Sprintf("path %s is outside the project (%s)", protocol.QuotePrefix(arg), root),
			"name a file inside the project: relative to the current folder, or absolute under "+root)
	}
	if rel == "." {
		return "", refuse(arg, fmt.Sprintf("path %s is the project root, not a file", protocol.QuotePrefix(arg)),
			"name a file of the project, e.g. src/login.go")
	}
	return rel, nil
}

// slashHint says to use forward slashes, and shows the path so written
// when it is short, plain text.
func slashHint(arg string) string {
	hint := "use forward slashes"
	if fixed := strings.ReplaceAll(arg, `\`, "/"); len(fixed) <= 120 && protocol.SafeText(fixed) == fixed {
		hint += ": " + fixed
	}
	return hint
}

// within reports whether dir is root or lies under it.
func within(root, dir string) bool {
	_, ok := relInside(root, dir)
	return ok
}

// relInside returns full relative to root (slash-separated) if it lies
// inside root: as written first, then with the symlinks of root and of
// full's folder resolved (a root reached through a symlinked folder, as
// /tmp is on some systems, is the same project). The file itself is never
// resolved: where a symlink in the project leads is CheckFile's question.
func relInside(root, full string) (string, bool) {
	if rel, ok := lexicalRel(root, full); ok {
		return rel, true
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", false
	}
	if rel, ok := lexicalRel(realRoot, full); ok {
		return rel, true
	}
	dir, err := filepath.EvalSymlinks(filepath.Dir(full))
	if err != nil {
		return "", false
	}
	return lexicalRel(realRoot, filepath.Join(dir, filepath.Base(full)))
}

func lexicalRel(root, full string) (string, bool) {
	rel, err := filepath.Rel(root, full)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}
