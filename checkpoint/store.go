package checkpoint

import (
	"cmp"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/specdev/specdev/protocol"
)

// AssignmentsDir is the folder under .specdev/ that holds one folder per
// assignment.
const AssignmentsDir = "assignments"

// Renderer turns a request and its progress into review_report.md. The
// store calls it after every change to either, under the lock.
type Renderer func(*protocol.Request, *protocol.Progress) []byte

// Store is an opened .specdev/ folder.
type Store struct {
	Dir    string          // the .specdev folder
	Root   string          // the project root: the folder that holds .specdev
	Config protocol.Config // config.json with defaults applied
	// CacheDir holds the poll cache (pollcache.go): the user's cache
	// folder; "" for none.
	CacheDir string

	Now    func() time.Time // the clock; tests replace it
	Holder string           // who takes locks, for BUSY messages ("specdev check record")
	Render Renderer         // nil: no report is written
	Digest DigestFunc       // nil: no content digest is recorded or compared (round.go)
	Logf   func(format string, args ...any)
	Warnf  func(format string, args ...any) // what a person must see though the command succeeded (nil: Logf)

	// Remote holds the review state when config.json names one (nil:
	// this folder does): see remoteUpdate.
	Remote Remote

	mu         sync.Mutex
	seen       map[string]seenRef // what polls of the remote saw (checkClock)
	skewWarned bool
}

// Locate finds the .specdev folder: override if given (a project folder or
// the .specdev folder itself), else the nearest .specdev walking up from
// start, as git finds .git.
func Locate(start, override string) (string, error) {
	dir, err := filepath.Abs(cmp.Or(override, start))
	if err != nil {
		return "", err
	}
	if override != "" {
		if filepath.Base(dir) != protocol.StateDir {
			dir = filepath.Join(dir, protocol.StateDir)
		}
		if !isDir(dir) {
			return "", &NotFoundError{Msg: fmt.Sprintf("--dir %s: no %s folder there", override, protocol.StateDir),
				Hint: "run specdev init --dir " + override + ", or fix --dir / SPECDEV_DIR"}
		}
		return dir, nil
	}
	for ; ; dir = filepath.Dir(dir) {
		if candidate := filepath.Join(dir, protocol.StateDir); isDir(candidate) {
			return candidate, nil
		}
		if filepath.Dir(dir) == dir {
			return "", &NotFoundError{Msg: fmt.Sprintf("no %s folder in %s or any parent folder", protocol.StateDir, start),
				Hint: "run specdev init in the project root, or point --dir / SPECDEV_DIR at it"}
		}
	}
}

// Open reads the store's config (validated; a missing file means defaults).
func Open(dir string) (*Store, error) {
	cfg, err := readConfig(dir)
	if err != nil {
		return nil, err
	}
	st := &Store{Dir: dir, Root: filepath.Dir(dir), Config: cfg.WithDefaults(), Now: time.Now, Holder: "specdev"}
	if cache, err := os.UserCacheDir(); err == nil {
		st.CacheDir = filepath.Join(cache, "specdev")
	}
	return st, nil
}

// readConfig reads config.json without following a link (a *LinkError
// names the file); no file means the defaults.
func readConfig(dir string) (protocol.Config, error) {
	name := filepath.Join(protocol.StateDir, protocol.ConfigFile)
	data, err := readStateFile(filepath.Join(dir, protocol.ConfigFile), name, protocol.MaxFileSize)
	if err != nil || data == nil {
		return protocol.Config{}, err
	}
	return protocol.DecodeConfig(name, data)
}

func (s *Store) logf(format string, args ...any) {
	if s.Logf != nil {
		s.Logf(format, args...)
	}
}

// warnf says something a person must see on stderr, though the command
// goes on (e.g. what landed when a later step failed).
func (s *Store) warnf(format string, args ...any) {
	if s.Warnf != nil {
		s.Warnf(format, args...)
		return
	}
	s.logf(format, args...)
}

// StaleAfter is how long a review may go without activity before another
// session may take it over.
func (s *Store) StaleAfter() time.Duration { return time.Duration(s.Config.StaleAfter) }

func isDir(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.IsDir()
}

// NewSessionID returns a fresh reviewer session id such as
// "rv-4f2a9c1d2e3b4a5c" (64 random bits: two generated ids never meet).
func NewSessionID() string { return "rv-" + randomHex(8) }

// newLease returns a fresh claim lease (fencing token) such as
// "ls-9b3e0c7a5d1f2e48".
func newLease() string { return "ls-" + randomHex(8) }

// newRequestID returns a fresh request id such as "rq-1b2c3d4e".
func newRequestID() string { return "rq-" + randomHex(4) }

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

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
	data, _ := readStateFile(file, file, 4096) // nil when it cannot be read: no path
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
	a, err1 := os.Stat(repositoryOf(dir)) // "" outside git: no such file
	b, err2 := os.Stat(repositoryOf(s.Root))
	if err1 != nil || err2 != nil || !os.SameFile(a, b) || !isDir(dir) {
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
