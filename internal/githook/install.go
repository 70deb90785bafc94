package githook

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/specdev/specdev/checkpoint"
	"github.com/specdev/specdev/internal/atomicfile"
)

// State is what is installed for one hook.
type State struct {
	Hook       string `json:"hook"`
	Path       string `json:"path"`              // the hook file git runs
	Present    bool   `json:"present"`           // something is at Path
	Ours       bool   `json:"ours"`              // it is the hook specdev wrote
	Command    string `json:"command,omitempty"` // what specdev's hook runs
	Symlink    string `json:"symlink,omitempty"` // the target, when Path is a symlink
	Executable bool   `json:"executable"`        // git would run it
	Chained    string `json:"chained,omitempty"` // the hook specdev's runs first, when there is one
	Foreign    string `json:"foreign,omitempty"` // what the file at Path is, when it is not specdev's
	data       []byte // the content of specdev's hook
	isDir      bool
}

// Action says what Install or Uninstall did.
type Action string

// What Install and Uninstall can do.
const (
	Installed Action = "installed"     // specdev's hook written where there was none
	Chained   Action = "chained"       // written, the hook that was there kept as <hook>.specdev-chained
	Updated   Action = "updated"       // specdev's hook rewritten (another binary or arguments)
	Unchanged Action = "unchanged"     // specdev's hook was already exactly this
	Removed   Action = "removed"       // specdev's hook deleted
	Restored  Action = "restored"      // specdev's hook replaced by the hook it chained
	NotThere  Action = "not_installed" // nothing of specdev's to remove
)

// Inspect looks at hook in the hooks folder dir without changing anything.
func Inspect(dir, hook string) (State, error) {
	st := State{Hook: hook, Path: filepath.Join(dir, hook)}
	fi, err := os.Lstat(st.Path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return st, err
	default:
		st.Present = true
		if err := st.describe(fi); err != nil {
			return st, err
		}
	}
	chained := filepath.Join(dir, hook+ChainSuffix)
	if _, err := os.Lstat(chained); err == nil {
		st.Chained = chained
	} else if !errors.Is(err, fs.ErrNotExist) {
		return st, err
	}
	return st, nil
}

// describe fills in what the file at st.Path is.
func (st *State) describe(fi fs.FileInfo) error {
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		target, err := os.Readlink(st.Path)
		if err != nil {
			return err
		}
		st.Symlink, st.Foreign = target, "a symlink to "+target
		to, err := os.Stat(st.Path)
		st.Executable = err == nil && to.Mode().IsRegular() && to.Mode().Perm()&0o111 != 0
		return nil
	case !fi.Mode().IsRegular():
		st.Foreign, st.isDir = "not a file ("+fi.Mode().Type().String()+")", fi.IsDir()
		return nil
	}
	st.Executable = fi.Mode().Perm()&0o111 != 0
	data, err := os.ReadFile(st.Path) // the user's own file, read whole
	if err != nil {
		return err
	}
	if st.Ours, st.Command = parseScript(st.Hook, data); st.Ours {
		st.data = data
	} else {
		st.Foreign = "another hook"
	}
	return nil
}

// Install writes specdev's hook into dir (created if missing), chaining a
// hook that is already there (see the package comment). A hooks folder
// it cannot write to as it is, it refuses with a *checkpoint.StateError
// (protocol.ErrConflict) that says how to go on.
func Install(dir string, s Spec) (State, Action, error) {
	if err := checkDir(dir, true); err != nil {
		return State{}, "", err
	}
	st, err := Inspect(dir, s.Hook)
	if err != nil {
		return st, "", err
	}
	script := Script(s)
	action := Installed
	switch {
	case st.Ours && bytes.Equal(st.data, script):
		return st, Unchanged, nil
	case st.Ours:
		action = Updated
	case st.Present && st.Chained != "":
		return st, "", &checkpoint.StateError{
			Msg:  fmt.Sprintf("%s is not specdev's hook, and %s is taken too", st.Path, st.Chained),
			Hint: fmt.Sprintf("merge or remove one of them, then run specdev hook install %s again; or call specdev gate from your hook yourself", s.Hook),
		}
	case st.isDir:
		return st, "", &checkpoint.StateError{Msg: fmt.Sprintf("%s is a folder, not a hook", st.Path),
			Hint: "move the folder away, then run specdev hook install " + s.Hook + " again"}
	case st.Present:
		action = Chained
		st.Chained = filepath.Join(dir, s.Hook+ChainSuffix)
		if err := os.Link(st.Path, st.Chained); err != nil {
			return st, "", fmt.Errorf("keep the existing hook as %s: %w", st.Chained, err)
		}
	}
	place := atomicfile.Create // linked into place: fails if something appeared there
	if action != Installed {
		place = atomicfile.Replace
	}
	if err := place(st.Path, script, 0o755); err != nil {
		if errors.Is(err, fs.ErrExist) {
			err = &checkpoint.StateError{Msg: fmt.Sprintf("%s appeared while specdev was installing its hook", st.Path),
				Hint: "run specdev hook install again"}
		}
		if action == Chained {
			os.Remove(st.Chained) // the original is still at st.Path
		}
		return st, "", err
	}
	st, err = Inspect(dir, s.Hook)
	return st, action, err
}

// Uninstall removes specdev's hook from dir and puts back the hook it
// chained. A hook that is not specdev's is left alone (NotThere, with
// st.Foreign saying what it is).
func Uninstall(dir, hook string) (State, Action, error) {
	if err := checkDir(dir, false); err != nil && !errors.Is(err, fs.ErrNotExist) { // no folder: nothing there, as Inspect sees
		return State{}, "", err
	}
	st, err := Inspect(dir, hook)
	if err != nil {
		return st, "", err
	}
	action := Removed
	switch {
	case !st.Ours && (st.Present || st.Chained == ""):
		return st, NotThere, nil // another hook, left as it is, or nothing at all
	case st.Chained != "":
		// One rename puts the original back over specdev's hook (or where
		// specdev's hook was removed by hand).
		if action, err = Restored, os.Rename(st.Chained, st.Path); err != nil {
			err = fmt.Errorf("put back %s: %w", st.Chained, err)
		}
	default:
		err = os.Remove(st.Path)
	}
	if err != nil {
		return st, "", err
	}
	err = atomicfile.SyncDir(dir)
	st, _ = Inspect(dir, hook)
	return st, action, err
}

// checkDir makes sure the hooks folder is a real folder, not a symlink;
// with create, a missing one is made.
func checkDir(dir string, create bool) error {
	fi, err := os.Lstat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist) && create:
		return os.MkdirAll(dir, 0o755)
	case err != nil:
		return err
	case fi.Mode()&fs.ModeSymlink != 0:
		return &checkpoint.StateError{Msg: fmt.Sprintf("the hooks folder %s is a symlink; specdev does not write through symlinks", dir),
			Hint: "point git at the real folder: git config core.hooksPath <the folder the link leads to>"}
	case !fi.IsDir():
		return &checkpoint.StateError{Msg: fmt.Sprintf("the hooks folder %s is not a folder", dir),
			Hint: "fix core.hooksPath (git config core.hooksPath) or move the file away"}
	}
	return nil
}
