package checkpoint

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/specdev/specdev/protocol"
)

// Worktrees. Every worktree of a git repository uses one .specdev: the
// one of the main worktree (the folder that holds the repository's
// common git folder, what `git rev-parse --git-common-dir` names), so
// that every loop of the repository is in one queue, with one numbering
// and one set of groups. A linked worktree is told by its .git file
// ("gitdir: <common>/worktrees/<name>") and that folder's commondir file:
// two small reads rather than a git process on every command, whose
// start-up is a budget of its own. A request records the worktree it was
// made in (protocol.Request.Worktree), and its git and file operations
// run there (CheckoutOf).

// Find locates the .specdev folder as Locate does, but from inside a
// linked worktree it takes the main worktree's when there is one. It
// also returns the caller's checkout: the project folder in the caller's
// worktree (the project root itself outside a linked worktree).
func Find(start, override string) (dir, checkout string, err error) {
	from := start
	if override != "" {
		from = strings.TrimSuffix(filepath.Clean(override), string(filepath.Separator)+protocol.StateDir)
	}
	if abs, err := filepath.Abs(from); err == nil {
		if top, linked := gitTop(abs); linked { // a linked worktree: look in the main one
			main := mainWorktree(top)
			rel, _ := filepath.Rel(top, abs)
			for d := filepath.Join(main, rel); main != ""; d = filepath.Dir(d) {
				if isDir(filepath.Join(d, protocol.StateDir)) {
					inner, _ := filepath.Rel(main, d)
					return filepath.Join(d, protocol.StateDir), filepath.Join(top, inner), nil
				}
				if override != "" || d == main || filepath.Dir(d) == d {
					break
				}
			}
		}
	}
	dir, err = Locate(start, override)
	return dir, filepath.Dir(dir), err
}

// gitTop is the nearest folder from dir up that holds .git, and whether
// that is a file (a linked worktree's, or a submodule's).
func gitTop(dir string) (top string, linked bool) {
	for d := dir; ; d = filepath.Dir(d) {
		if info, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d, info.Mode().IsRegular()
		}
		if filepath.Dir(d) == d {
			return "", false
		}
	}
}

// mainWorktree is the main worktree of the linked worktree at top, read
// from its .git file and the commondir file of the folder that names.
func mainWorktree(top string) string {
	gitdir, ok := pointer(filepath.Join(top, ".git"), "gitdir: ", top)
	if !ok {
		return ""
	}
	common, ok := pointer(filepath.Join(gitdir, "commondir"), "", gitdir)
	if !ok || filepath.Base(common) != ".git" {
		return ""
	}
	return filepath.Dir(common)
}

// pointer reads the path a small git file holds after prefix, made
// absolute against base.
func pointer(file, prefix, base string) (string, bool) {
	data, err := readStateFile(file, file, 4096)
	if err != nil || data == nil {
		return "", false
	}
	p, ok := strings.CutPrefix(strings.TrimSpace(string(data)), prefix)
	if !ok || p == "" {
		return "", false
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(base, p)
	}
	return filepath.Clean(p), true
}

// Worktree is how a request records the checkout it was made in:
// checkout relative to the project root, "" for the root itself.
func (s *Store) Worktree(checkout string) string {
	rel, err := filepath.Rel(s.Root, checkout)
	if err != nil || rel == "." || checkout == "" {
		return ""
	}
	return filepath.ToSlash(rel)
}

// CheckoutOf is the folder a request's git and file operations run in:
// the project folder in the worktree the request was made in, which
// must still be a worktree of the repository the project root is in.
func (s *Store) CheckoutOf(r *protocol.Request) (string, error) {
	if r == nil || r.Worktree == "" {
		return s.Root, nil
	}
	dir := filepath.Join(s.Root, filepath.FromSlash(r.Worktree))
	have, want := repositoryOf(dir), repositoryOf(s.Root)
	a, err1 := os.Stat(have)
	b, err2 := os.Stat(want)
	if have == "" || want == "" || err1 != nil || err2 != nil || !os.SameFile(a, b) || !isDir(dir) {
		return "", &StateError{Msg: "the request of " + r.AssignmentPath + " was made in the worktree " + r.Worktree +
			", which is gone or no longer a worktree of this repository",
			Hint: "restore it (git worktree add " + r.Worktree + " BRANCH), or withdraw the request: specdev work cancel --assignment " + r.AssignmentID}
	}
	return dir, nil
}

// repositoryOf is the main worktree of the repository dir is in: the
// main worktree of a linked one, else the nearest folder holding a .git
// folder; "" outside git.
func repositoryOf(dir string) string {
	top, linked := gitTop(dir)
	if linked {
		return mainWorktree(top)
	}
	return top
}
