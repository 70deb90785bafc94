package checkpoint

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/specdev/specdev/protocol"
)

// Assignment is one folder under .specdev/assignments/.
type Assignment struct {
	Name   string
	Dir    string
	store  *Store
	noWait bool      // its lock is tried once, not waited for (see withoutWait)
	read   *Snapshot // what HeldBy read of it, for the next transaction (readSnapshot)
}

// ID is the assignment's id: the part of its name before the first "_"
// ("00002" for 00002_feature_login).
func (a *Assignment) ID() string {
	id, _, _ := strings.Cut(a.Name, "_")
	return id
}

// Root is the project root: the folder that holds .specdev.
func (a *Assignment) Root() string { return a.store.Root }

// RelDir is the folder relative to the project root, as requests record it.
func (a *Assignment) RelDir() string {
	return filepath.ToSlash(filepath.Join(protocol.StateDir, AssignmentsDir, a.Name))
}

func (a *Assignment) path(name string) string { return filepath.Join(a.Dir, name) }

// rel names a file of the assignment for messages: .specdev/assignments/<name>/<file>.
func (a *Assignment) rel(name string) string { return a.RelDir() + "/" + name }

// Assignment returns the assignment called name, which must exist. An
// assignment folder's name is what protocol.CheckName accepts of a gate,
// group or loop name (^[A-Za-z0-9][A-Za-z0-9._-]*$, up to 200 characters).
func (s *Store) Assignment(name string) (*Assignment, error) {
	if protocol.CheckName(name) != nil {
		return nil, &NotFoundError{Msg: fmt.Sprintf("assignment name %q must match ^[A-Za-z0-9][A-Za-z0-9._-]*$ (e.g. 00002_feature_login)", name),
			Hint: "rename the folder"}
	}
	a := &Assignment{Name: name, Dir: s.folder(name), store: s}
	err := checkFolder(filepath.Join(s.Dir, AssignmentsDir), filepath.Join(protocol.StateDir, AssignmentsDir))
	if err == nil {
		err = checkFolder(a.Dir, a.RelDir()) // a symlink is refused: specdev never follows links in its state
	}
	if errors.Is(err, fs.ErrNotExist) {
		return nil, &NotFoundError{Msg: fmt.Sprintf("no assignment %s", name),
			Hint: "create it: mkdir -p " + filepath.Join(protocol.StateDir, AssignmentsDir, name)}
	}
	if err != nil {
		return nil, err
	}
	return a, nil
}

// Names lists the assignment folders, sorted. Folders whose names are not
// valid assignment names are skipped and logged. Symlinks are listed too,
// so that using them reports them (*LinkError) instead of hiding them; an
// assignments folder that is itself a symlink is a *LinkError.
func (s *Store) Names() ([]string, error) {
	folders, err := s.folders()
	names := make([]string, len(folders))
	for i, f := range folders {
		names[i] = f.Name()
	}
	return names, err
}

// folders lists the assignment folders as Names does, with their types
// as the folder listing gives them (a symlink is not followed).
func (s *Store) folders() ([]fs.DirEntry, error) {
	dir := filepath.Join(s.Dir, AssignmentsDir)
	var entries []fs.DirEntry
	err := checkFolder(dir, filepath.Join(protocol.StateDir, AssignmentsDir))
	if err == nil {
		entries, err = os.ReadDir(dir) // sorted by name
	}
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	folders := entries[:0]
	for _, e := range entries {
		if !e.IsDir() && e.Type()&fs.ModeSymlink == 0 {
			continue
		}
		if protocol.CheckName(e.Name()) != nil {
			s.logf("skipping folder %q: not a valid assignment name", e.Name())
			continue
		}
		folders = append(folders, e)
	}
	return folders, nil
}

// Resolve finds the assignment named exactly, or by a unique prefix
// ("00002" for 00002_feature_login).
func (s *Store) Resolve(nameOrPrefix string) (*Assignment, error) {
	names, err := s.Names()
	if err != nil {
		return nil, err
	}
	if slices.Contains(names, nameOrPrefix) {
		return s.Assignment(nameOrPrefix)
	}
	matches := slices.DeleteFunc(slices.Clone(names), func(n string) bool { return !strings.HasPrefix(n, nameOrPrefix) })
	switch len(matches) {
	case 1:
		return s.Assignment(matches[0])
	case 0:
		return nil, &NotFoundError{Msg: fmt.Sprintf("no assignment matches %q (have: %s)", nameOrPrefix, cmp.Or(strings.Join(names, ", "), "none")),
			Hint: "create it: mkdir -p " + filepath.Join(protocol.StateDir, AssignmentsDir, nameOrPrefix)}
	}
	return nil, &NotFoundError{Msg: fmt.Sprintf("%q matches several assignments: %s", nameOrPrefix, strings.Join(matches, ", ")),
		Hint: "give more of the name"}
}

// Latest returns the assignment with the highest name.
func (s *Store) Latest() (*Assignment, error) {
	names, err := s.Names()
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return nil, &NotFoundError{Msg: "no assignments yet",
			Hint: "create one: mkdir -p " + filepath.Join(protocol.StateDir, AssignmentsDir, "00001_my_feature")}
	}
	return s.Assignment(names[len(names)-1])
}
