package checkpoint

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
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
	Digest DigestFunc       // nil: no content digest is recorded or compared (loop.go)
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
	if override != "" {
		return locateOverride(override)
	}
	dir, err := filepath.Abs(start)
	if err != nil {
		return "", err
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

func locateOverride(override string) (string, error) {
	dir, err := filepath.Abs(override)
	if err != nil {
		return "", err
	}
	if filepath.Base(dir) != protocol.StateDir {
		dir = filepath.Join(dir, protocol.StateDir)
	}
	if !isDir(dir) {
		return "", &NotFoundError{Msg: fmt.Sprintf("--dir %s: no %s folder there", override, protocol.StateDir),
			Hint: "run specdev init --dir " + override + ", or fix --dir / SPECDEV_DIR"}
	}
	return dir, nil
}

// Open reads the store's config (validated; a missing file means defaults).
func Open(dir string) (*Store, error) {
	cfg, err := readConfig(dir)
	if err != nil {
		return nil, err
	}
	st := &Store{
		Dir:    dir,
		Root:   filepath.Dir(dir),
		Config: cfg.WithDefaults(),
		Now:    time.Now,
		Holder: "specdev",
	}
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
