package checkpoint

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// A pre-flight gate is code from the branch under review, and a claim
// runs it on the reviewer's machine. So a gate runs only after a person
// on that machine allowed it, and the consent is kept outside every
// repository, where a branch cannot write it: one small file per project
// and gate under ConsentDir, named by hashes of the two, written
// atomically (by rename, never through a symlink) and read without
// following one. The consent names the project, the gate's argv and the
// sha256 of each file of the project the argv names (the script it runs,
// a script passed to an interpreter): a change to any of them needs
// consent again. What the gate reads beyond its argv (a Makefile, the
// code it tests) is not covered.

// ConsentEnv names the folder that replaces the user's specdev config
// folder (tests set it).
const ConsentEnv = "SPECDEV_CONFIG_HOME"

// maxConsent bounds a consent record read back.
const maxConsent = 64 << 10

// ConsentDir is where consent records are kept: $SPECDEV_CONFIG_HOME/allowed,
// else specdev/allowed in the user's config folder (os.UserConfigDir).
func ConsentDir() (string, error) {
	home := os.Getenv(ConsentEnv)
	if home == "" {
		dir, err := os.UserConfigDir()
		if err != nil {
			return "", fmt.Errorf("no folder for the consent to run pre-flight gates: %w (or set %s)", err, ConsentEnv)
		}
		home = filepath.Join(dir, "specdev")
	}
	home, err := filepath.Abs(home)
	return filepath.Join(home, "allowed"), err
}

// Gate is a project's pre-flight gate as consent names it.
type Gate struct {
	Project string            `json:"project"` // the project root, absolute, symlinks resolved
	Argv    []string          `json:"argv"`    // as configured
	Files   map[string]string `json:"files"`   // each argv word naming a file in the project: "sha256:…" of its content
}

// NewGate identifies the gate argv of the project at root. The program
// (argv[0]) counts when it is a path; a later word whenever it names a
// file. Both only inside the project; a missing file is left out.
func NewGate(root string, argv []string) (Gate, error) {
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	g := Gate{Project: root, Argv: argv, Files: map[string]string{}}
	for i, word := range argv {
		path := word
		if !filepath.IsAbs(path) {
			path = filepath.Join(root, path)
		}
		if rel, err := filepath.Rel(root, path); err != nil || !filepath.IsLocal(rel) || i == 0 && !strings.Contains(word, "/") {
			continue // a command found on PATH, or outside the project
		}
		sum, err := fileSum(path)
		if err != nil {
			return Gate{}, err
		}
		if sum != "" {
			g.Files[word] = sum
		}
	}
	return g, nil
}

// fileSum is "sha256:…" of a regular file's content, "" if there is none.
func fileSum(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", nil
	}
	defer f.Close()
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() {
		return "", nil
	}
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("read the gate's file %s: %w", path, err)
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}

// key is the gate as compared: its JSON (maps come out sorted).
func (g Gate) key() []byte {
	data, _ := json.Marshal(g)
	return data
}

// Consent is this machine's consent to run gates, kept in Dir.
type Consent struct{ Dir string }

// consentRecord is one consent file.
type consentRecord struct {
	Gate
	AllowedAt time.Time `json:"allowed_at"`
}

// projectPrefix starts the name of every consent file of project.
func projectPrefix(project string) string {
	sum := sha256.Sum256([]byte(project))
	return hex.EncodeToString(sum[:8]) + "-"
}

func (c Consent) file(g Gate) string {
	sum := sha256.Sum256(g.key())
	return projectPrefix(g.Project) + hex.EncodeToString(sum[:16]) + ".json"
}

// files are the paths of project's consent files. The pattern is matched
// within the folder, never on its path, which may hold a glob's
// metacharacters ("[" in a home folder's name).
func (c Consent) files(project string) ([]string, error) {
	names, err := fs.Glob(os.DirFS(c.Dir), projectPrefix(project)+"*.json")
	for i, name := range names {
		names[i] = filepath.Join(c.Dir, name)
	}
	return names, err
}

// Allowed reports whether a person allowed g here. If not, last is the
// project's gate allowed most recently, if any (the gate changed since).
func (c Consent) Allowed(g Gate) (ok bool, last *Gate, err error) {
	names, err := c.files(g.Project)
	var newest time.Time
	for _, name := range names {
		var rec consentRecord
		data, rerr := readStateFile(name, name, maxConsent)
		switch {
		case rerr != nil:
			err = rerr
		case json.Unmarshal(data, &rec) != nil || rec.Project != g.Project: // malformed: no consent
		case bytes.Equal(rec.key(), g.key()):
			return true, nil, nil
		case last == nil || rec.AllowedAt.After(newest):
			newest, last = rec.AllowedAt, &rec.Gate
		}
	}
	return false, last, err
}

// Allow records a person's consent to run g here.
func (c Consent) Allow(g Gate, now time.Time) error {
	data, _ := json.MarshalIndent(consentRecord{g, now.UTC()}, "", "  ") // strings, a map of strings and a time always encode
	err := os.MkdirAll(c.Dir, 0o700)
	if err == nil {
		err = writeAtomic(c.Dir, fileWrite{c.file(g), append(data, '\n')})
	}
	if err != nil {
		return fmt.Errorf("record the consent in %s: %w", c.Dir, err)
	}
	return nil
}

// Revoke removes every consent to run a gate of project here and says how
// many there were.
func (c Consent) Revoke(project string) (n int, err error) {
	names, err := c.files(project)
	for _, name := range names {
		if rerr := os.Remove(name); rerr == nil {
			n++
		} else if err == nil {
			err = rerr
		}
	}
	return n, err
}

// GateRunFile records, in an assignment folder, the process group of the
// pre-flight gate running for its review on this machine, so that the
// next claim can end a gate whose specdev was killed (see
// internal/preflight). It is machine-local (in .gitignore), and its
// content is the caller's.
const GateRunFile = ".specdev.gate"

// maxGateRun bounds the record read back.
const maxGateRun = 4 << 10

// SetGateRun writes the record atomically, never through a symlink: a
// kill right after the gate started must find it whole.
func (a *Assignment) SetGateRun(data []byte) error {
	return writeAtomic(a.Dir, fileWrite{GateRunFile, data})
}

// GateRun reads the record; nil when there is none.
func (a *Assignment) GateRun() ([]byte, error) {
	return readStateFile(a.path(GateRunFile), a.rel(GateRunFile), maxGateRun)
}

// ClearGateRun removes the record if it still holds data (another run
// may have replaced it since).
func (a *Assignment) ClearGateRun(data []byte) {
	if now, err := a.GateRun(); err == nil && now != nil && bytes.Equal(now, data) {
		os.Remove(a.path(GateRunFile))
	}
}
