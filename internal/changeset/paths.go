package changeset

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/specdev/specdev/protocol"
)

// maxLinks bounds how many symlinks CheckFile follows by hand, as the
// kernel's ELOOP does.
const maxLinks = 40

// CheckFile reports why p (relative to root) cannot be reviewed: it must
// pass protocol.CheckPath, and neither it nor, when it does not exist, its
// nearest existing parent may lead out of the project (or into .specdev/)
// through a symlink. A refusal is a *protocol.InvalidError; a failure to
// look at the disk is returned wrapped.
func CheckFile(root, p string) error {
	c, err := newChecker(root)
	if err == nil {
		_, err = c.checkInfo(p)
	}
	return err
}

// checker checks the paths of one project, CheckFile's rules: it resolves
// the root and each folder once, so that checking a review of thousands
// of files costs one Lstat a file, not one a path element.
type checker struct {
	root     string
	rootReal string
	dirs     map[string]string // folder relative to the root ("" or "a/b/") -> where it really leads
}

func newChecker(root string) (*checker, error) {
	rootReal, err := filepath.EvalSymlinks(root)
	if err != nil {
		return nil, fmt.Errorf("resolve project root: %w", err)
	}
	return &checker{root: root, rootReal: rootReal, dirs: map[string]string{"": rootReal}}, nil
}

// checkInfo is CheckFile(root, p), and what Lstat saw of p when p is no symlink (nil
// when it does not exist or is one).
func (c *checker) checkInfo(p string) (fs.FileInfo, error) {
	if err := checkPath(p); err != nil {
		return nil, err
	}
	real, fi, err := c.real(p)
	if err != nil {
		return nil, fmt.Errorf("resolve %s: %w", p, err)
	}
	rel, inside := lexicalRel(c.rootReal, real)
	switch {
	case !inside:
		return nil, refuse(p, fmt.Sprintf("path %q leads out of the project through a symlink", p),
			"review only files inside the project; a symlink may point only inside it")
	case rel == protocol.StateDir || strings.HasPrefix(rel, protocol.StateDir+"/"):
		return nil, refuse(p, fmt.Sprintf("path %q leads into specdev's own state through a symlink", p),
			"leave .specdev/ out: it holds specdev's own state")
	}
	return fi, nil
}

// real is where p (relative to the root, clean) really leads: its
// folder's real path, resolved once, and its last element, followed by
// hand only when it is a symlink. fi is what Lstat saw of a p that
// exists and is no symlink, else nil.
func (c *checker) real(p string) (real string, fi fs.FileInfo, err error) {
	dir, base := path.Split(p)
	dirReal, ok := c.dirs[dir]
	if !ok {
		if dirReal, err = resolve(filepath.Join(c.rootReal, filepath.FromSlash(dir))); err != nil {
			return "", nil, err
		}
		c.dirs[dir] = dirReal
	}
	full := filepath.Join(dirReal, base)
	fi, err = os.Lstat(full)
	switch {
	case notExist(err):
		return full, nil, nil
	case err != nil:
		return "", nil, err
	case fi.Mode()&fs.ModeSymlink != 0:
		real, err = resolve(full)
		return real, nil, err
	}
	return full, fi, nil
}

// checkPath is protocol.CheckPath as a refusal with a hint, one for all
// it refuses: its message says which rule the path breaks.
func checkPath(p string) error {
	if err := protocol.CheckPath(p); err != nil {
		return refuse(p, err.Error(), "name files inside the project, relative to its root, in clean form (no \"..\"), outside .specdev/")
	}
	return nil
}

// checkListed checks a file the user listed: CheckFile, and it must exist
// as a regular file (or a symlink to one inside the project).
func (c *checker) checkListed(p string) error {
	if _, err := c.checkInfo(p); err != nil {
		return err
	}
	fi, err := os.Stat(filepath.Join(c.root, filepath.FromSlash(p)))
	switch {
	case notExist(err):
		return refuse(p, fmt.Sprintf("path %q does not exist", p),
			"--files takes existing files, relative to the current folder (or absolute, inside the project)")
	case err != nil:
		return fmt.Errorf("check %s: %w", p, err)
	case fi.IsDir():
		return refuse(p, fmt.Sprintf("path %q is a directory", p),
			"list the files in it to review, not the directory")
	case !fi.Mode().IsRegular():
		return refuse(p, fmt.Sprintf("path %q is not a regular file", p),
			"only regular files can be reviewed")
	}
	return nil
}

// reviewable tells whether a path git reported belongs in the review:
// CheckFile must accept it (otherwise the whole request is refused), and
// folders (submodules) and other non-files are left out; a path that does
// not exist (a deletion) is kept.
func (c *checker) reviewable(p string) (bool, error) {
	fi, err := c.checkInfo(p)
	if inv, ok := errors.AsType[*protocol.InvalidError](err); ok { // refuse made it: it is this one's
		inv.File, inv.Hint = "changed files", inv.Hint+"; or list the files to review with --files"
	}
	if err != nil {
		return false, err
	}
	if fi == nil { // a symlink (inside the project), or no such file
		fi, err = os.Stat(filepath.Join(c.root, filepath.FromSlash(p)))
	}
	switch {
	case notExist(err):
		return true, nil
	case err != nil:
		return false, fmt.Errorf("check %s: %w", p, err)
	}
	return fi.Mode().IsRegular(), nil
}

// resolve returns where full (absolute) really leads: its elements are
// looked at one by one, each symlink followed as the kernel would (a
// relative target from the link's real folder), until an element does
// not exist; the rest is appended as it is. Unlike filepath.EvalSymlinks
// it follows dangling symlinks too, so a link to a missing place outside
// the project is still seen to lead outside.
func resolve(full string) (string, error) {
	real, rest := "/", strings.Split(filepath.Clean(full), "/")
	for links := 0; len(rest) > 0; {
		next := filepath.Join(real, rest[0])
		rest = rest[1:]
		fi, err := os.Lstat(next)
		switch {
		case notExist(err):
			return filepath.Join(append([]string{next}, rest...)...), nil
		case err != nil:
			return "", err
		case fi.Mode()&fs.ModeSymlink == 0:
			real = next
			continue
		}
		if links++; links > maxLinks {
			return "", fmt.Errorf("more than %d symlinks", maxLinks)
		}
		target, err := os.Readlink(next)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(real, target)
		}
		real, rest = "/", strings.Split(filepath.Join(append([]string{target}, rest...)...), "/")
	}
	return real, nil
}

// notExist is true for errors that mean "no such file": a missing element,
// or a file where a folder was expected.
func notExist(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}

func refuse(p, problem, hint string) error {
	return &protocol.InvalidError{File: p, Problem: problem, Hint: hint}
}

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
	}
	base := root
	if _, inside := relInside(root, cwd); cwd != "" && inside {
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
