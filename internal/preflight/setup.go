package preflight

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
)

// Problem is why a gate cannot start: a matter of set-up, not of the
// change under review.
type Problem string

// The set-up problems a gate can have: the three whose fix differs (the
// caller says what to do about each), and every other (no command, no
// folder to run in, a missing #! interpreter, a format the system does not
// run), which its message says.
const (
	NotFound      Problem = "not_found"      // the program is not there
	NotInPath     Problem = "not_in_path"    // a bare program name PATH does not have
	NotExecutable Problem = "not_executable" // no permission to run it (chmod +x)
	Unstartable   Problem = "unstartable"    // any other reason
)

// checkStart says why argv cannot even be tried in dir: no command, or
// no folder to run in. The folder is checked first because a failed
// chdir in the child is reported like a missing program once
// SysProcAttr is set.
func checkStart(dir string, argv []string) (string, Problem) {
	if len(argv) == 0 {
		return "no command given", Unstartable
	}
	if dir == "" {
		return "", ""
	}
	info, err := os.Stat(dir)
	switch {
	case err != nil:
		if pathErr, ok := errors.AsType[*fs.PathError](err); ok {
			err = pathErr.Err
		}
		return fmt.Sprintf("cannot run in %s: %v", dir, err), Unstartable
	case !info.IsDir():
		return fmt.Sprintf("cannot run in %s: not a folder", dir), Unstartable
	}
	return "", ""
}

// startError says in plain words why name could not be started in dir,
// without the name (the caller names the gate as its user wrote it),
// and which set-up problem that is ("" when the caller's context
// stopped it: not a set-up problem).
func startError(dir, name string, err error) (string, Problem) {
	_, missing := lookPath(dir, name)
	switch {
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return fmt.Sprintf("not started: %v", err), ""
	case errors.Is(err, exec.ErrNotFound):
		return "not found in PATH", NotInPath
	case errors.Is(err, fs.ErrNotExist) && missing == nil:
		// The kernel says ENOENT for a missing #! interpreter too.
		return "its interpreter was not found (check the #! line)", Unstartable
	case errors.Is(err, fs.ErrNotExist):
		return "not found", NotFound
	case errors.Is(err, fs.ErrPermission):
		return "permission denied (is it executable?)", NotExecutable
	case errors.Is(err, syscall.ENOEXEC):
		return "not an executable format (does the script start with #!?)", Unstartable
	}
	return err.Error(), Unstartable
}

// lookPath is the program name as exec finds it from dir (in PATH for a
// name without a slash, else from dir; "" is the current folder), if it
// is there and executable.
func lookPath(dir, name string) (string, error) {
	if dir != "" && strings.Contains(name, "/") && !filepath.IsAbs(name) {
		name = filepath.Join(dir, name)
	}
	return exec.LookPath(name)
}
