package tests

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/creack/pty"
)

// onterm is a program the scenarios run (exec onterm …) to see what
// specdev does on a terminal: the test binary, linked into binDir under
// this name, runs the command on a pseudo-terminal of the given width
// and prints what the terminal showed, with the terminal's "\r\n" made
// "\n". Usage:
//
//	onterm [-cols N] [-stdout-pipe | -stderr-pipe] PROGRAM [ARGS...]
//
// By default stdin, stdout and stderr are all the terminal, and what it
// showed is onterm's stdout. With -stdout-pipe the program's stdout is a
// pipe (onterm's stdout) and the terminal, stdin and stderr, is onterm's
// stderr; with -stderr-pipe its stderr is a pipe (onterm's stderr). onterm
// exits with the program's exit code.
const ontermName = "onterm"

// linkOnterm puts onterm into binDir (on the scenarios' PATH).
func linkOnterm() error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	return os.Symlink(self, filepath.Join(binDir, ontermName))
}

func ontermMain(args []string) int {
	fs := flag.NewFlagSet(ontermName, flag.ContinueOnError)
	cols := fs.Int("cols", 80, "terminal width")
	stdoutPipe := fs.Bool("stdout-pipe", false, "the program's stdout is a pipe")
	stderrPipe := fs.Bool("stderr-pipe", false, "the program's stderr is a pipe")
	if err := fs.Parse(args); err != nil || fs.NArg() == 0 || *stdoutPipe && *stderrPipe {
		fmt.Fprintln(os.Stderr, "usage: onterm [-cols N] [-stdout-pipe | -stderr-pipe] PROGRAM [ARGS...]")
		return 2
	}
	cmd := exec.Command(fs.Arg(0), fs.Args()[1:]...)
	terminalOut := io.Writer(os.Stdout)
	switch {
	case *stdoutPipe:
		cmd.Stdout, terminalOut = os.Stdout, os.Stderr
	case *stderrPipe:
		cmd.Stderr = os.Stderr
	}
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 24, Cols: uint16(*cols)})
	if err != nil {
		fmt.Fprintln(os.Stderr, "onterm:", err)
		return 2
	}
	defer tty.Close()
	var shown bytes.Buffer
	copied := make(chan struct{})
	go func() {
		io.Copy(&shown, tty) // ends with an error once the program is gone
		close(copied)
	}()
	timer := time.AfterFunc(60*time.Second, func() { cmd.Process.Kill() })
	err = cmd.Wait()
	timer.Stop()
	select {
	case <-copied:
	case <-time.After(5 * time.Second):
	}
	io.WriteString(terminalOut, strings.ReplaceAll(shown.String(), "\r\n", "\n"))
	var exitErr *exec.ExitError
	switch {
	case errors.As(err, &exitErr):
		return exitErr.ExitCode()
	case err != nil:
		fmt.Fprintln(os.Stderr, "onterm:", err)
		return 2
	}
	return 0
}
