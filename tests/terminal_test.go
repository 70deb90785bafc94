package tests

import (
	"bytes"
	"errors"
	"io"
	"os/exec"
	"testing"
	"time"

	"github.com/creack/pty"
)

// On a terminal that never answers queries (many do not), specdev must
// not ask the terminal anything: a logging library's colour probe once
// made every command hang for ten seconds there. stdin, stdout and stderr
// are all the terminal; nothing answers.
func TestSilentTerminalDoesNotHang(t *testing.T) {
	cmd := exec.Command(specdevBin(), "--log-level", "debug", "version")
	out, err := onTerminal(t, cmd, 8*time.Second)
	if errors.Is(err, errHung) {
		t.Fatalf("specdev version hung on a terminal that does not answer; it wrote %q", out.String())
	}
	if err != nil {
		t.Fatalf("specdev version on a terminal: %v\n%q", err, out.String())
	}
	if bytes.Contains(out.Bytes(), []byte("\x1b]")) || bytes.Contains(out.Bytes(), []byte("\x1b[6n")) {
		t.Fatalf("specdev queried the terminal: %q", out.String())
	}
	if !bytes.Contains(out.Bytes(), []byte("specdev ")) {
		t.Fatalf("no version printed: %q", out.String())
	}
}

// errHung is onTerminal's error for a command that did not end in time.
var errHung = errors.New("did not end in time")

// onTerminal runs cmd with a pseudo-terminal as its stdin, stdout and
// stderr (the test is skipped where there is none), and returns what it
// wrote and how it ended: errHung, after killing it, if it ran past limit.
func onTerminal(t *testing.T, cmd *exec.Cmd, limit time.Duration) (*bytes.Buffer, error) {
	t.Helper()
	tty, err := pty.Start(cmd)
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	defer tty.Close()
	var out bytes.Buffer
	done := make(chan error, 1)
	go func() {
		io.Copy(&out, tty) // ends with an error once the child is gone
		done <- cmd.Wait()
	}()
	select {
	case err := <-done:
		return &out, err
	case <-time.After(limit):
		cmd.Process.Kill()
		<-done
		return &out, errHung
	}
}
