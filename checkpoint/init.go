package checkpoint

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/specdev/specdev/protocol"
)

// SkillsDir is the folder under .specdev/ where init installs agent guides.
const SkillsDir = "skills"

// GitignoreFile keeps specdev's machine-local files out of git: the lock
// files, temporary files a killed writer left, the record of a running
// gate, and the agents' log.
const GitignoreFile = ".gitignore"

// Ignored are the patterns GitignoreFile holds.
var Ignored = []string{LockFile, ".*" + tempMarker + "*", GateRunFile, AgentLogFile, RemoteFile}

// gitignoreHeader opens the GitignoreFile specdev writes: a file that
// starts with it is specdev's own, and UpdateGitignore may add to it.
const gitignoreHeader = "# specdev's machine-local files: locks, caches, temporary files.\n"

func gitignore() []byte {
	return []byte(gitignoreHeader +
		"# Commit the rest of .specdev/ (see specdev's README, \"What to commit\").\n" +
		strings.Join(Ignored, "\n") + "\n")
}

// missingIgnored returns the patterns of Ignored that the GitignoreFile
// data lacks (a line each), and whether the file is specdev's own (it
// starts with the header specdev writes).
func missingIgnored(data []byte) (missing []string, ours bool) {
	lines := map[string]bool{} // trimmed
	for line := range strings.Lines(string(data)) {
		lines[strings.TrimSpace(line)] = true
	}
	for _, p := range Ignored {
		if !lines[p] {
			missing = append(missing, p)
		}
	}
	return missing, bytes.HasPrefix(data, []byte(gitignoreHeader))
}

// UpdateGitignore adds to a GitignoreFile that specdev wrote (an older
// specdev may have ignored fewer files) the patterns it lacks, at its
// end, keeping every line it has. A file without specdev's header is the
// project's, and one that cannot be read (a symlink, say) too: each is
// left as it is. It returns the
// file, relative to root, if it changed.
func UpdateGitignore(root string) (updated string, err error) {
	dir := filepath.Join(root, protocol.StateDir)
	name := rel(root, filepath.Join(dir, GitignoreFile))
	data, err := readStateFile(filepath.Join(dir, GitignoreFile), name, 64<<10)
	missing, ours := missingIgnored(data)
	if err != nil || !ours || len(missing) == 0 {
		return "", nil // a file that is not specdev's own, or cannot be read, is left as it is
	}
	if !bytes.HasSuffix(data, []byte("\n")) {
		data = append(data, '\n')
	}
	data = append(data, strings.Join(missing, "\n")+"\n"...)
	return name, writeAtomic(dir, fileWrite{GitignoreFile, data})
}

// Init creates .specdev/ under root with assignments/, a default
// config.json, the .gitignore of its machine-local files and the skills
// folder. Files that exist are left alone, so running it twice changes
// nothing. It returns what it created, relative to root.
func Init(root string, skills fs.FS) (created []string, err error) {
	dir := filepath.Join(root, protocol.StateDir)
	for _, d := range []string{dir, filepath.Join(dir, AssignmentsDir), filepath.Join(dir, SkillsDir)} {
		made, err := mkdir(d)
		if err != nil {
			return created, err
		}
		if made {
			created = append(created, rel(root, d)+"/")
		}
	}
	config, err := json.MarshalIndent(protocol.DefaultConfig(), "", "  ")
	if err != nil {
		return created, err
	}
	for _, f := range []fileWrite{{protocol.ConfigFile, append(config, '\n')}, {GitignoreFile, gitignore()}} {
		if made, err := createFile(filepath.Join(dir, f.name), f.data); err != nil {
			return created, err
		} else if made {
			created = append(created, rel(root, filepath.Join(dir, f.name)))
		}
	}
	guides, err := writeSkills(root, skills, false)
	return append(created, guides...), err
}

func mkdir(dir string) (made bool, err error) {
	if isDir(dir) {
		return false, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return false, fmt.Errorf("create %s: %w", dir, err)
	}
	return true, syncDir(filepath.Dir(dir))
}

// createFile writes path atomically unless something is there (a temp file made
// and removed would change the folder: running init again changes nothing).
func createFile(path string, data []byte) (made bool, err error) {
	if _, err := os.Lstat(path); !errors.Is(err, os.ErrNotExist) {
		return false, err
	}
	return true, writeFile(path, data)
}

// writeFile writes path atomically, making its folder. Its temp file is
// named as every temp file in .specdev/ is, which the GitignoreFile
// ignores, should a kill leave it behind.
func writeFile(path string, data []byte) error {
	if _, err := mkdir(filepath.Dir(path)); err != nil {
		return err
	}
	return writeAtomic(filepath.Dir(path), fileWrite{filepath.Base(path), data})
}

func rel(root, path string) string {
	r, err := filepath.Rel(root, path)
	if err != nil {
		return path
	}
	return filepath.ToSlash(r)
}

// UpdateSkills rewrites the installed agent guides that differ from
// skills (another version of specdev, or edited), each atomically and
// never through a symlink, and installs missing ones. It returns what it
// wrote, relative to root.
func UpdateSkills(root string, skills fs.FS) (written []string, err error) {
	return writeSkills(root, skills, true)
}

// writeSkills installs the agent guides of skills that are missing, and
// with replace those that differ (a link is replaced too), and returns
// what it wrote, relative to root.
func writeSkills(root string, skills fs.FS, replace bool) (written []string, err error) {
	dir := filepath.Join(root, protocol.StateDir, SkillsDir)
	err = fs.WalkDir(skills, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		want, err := fs.ReadFile(skills, path)
		if err != nil {
			return err
		}
		target, made := filepath.Join(dir, filepath.FromSlash(path)), false
		if !replace {
			made, err = createFile(target, want) // one there already is left as it is
		} else if have, rerr := readStateFile(target, rel(root, target), protocol.MaxFileSize); rerr != nil && !errors.As(rerr, new(*LinkError)) {
			return rerr
		} else if rerr != nil || !bytes.Equal(have, want) { // a link is replaced too
			made, err = true, writeFile(target, want)
		}
		if made && err == nil {
			written = append(written, rel(root, target))
		}
		return err
	})
	return written, err
}
