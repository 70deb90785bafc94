package tests

import (
	"bytes"
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
		if err != nil {
			t.Fatalf("specdev version on a terminal: %v\n%q", err, out.String())
		}
	case <-time.After(8 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("specdev version hung on a terminal that does not answer; it wrote %q", out.String())
	}
	if bytes.Contains(out.Bytes(), []byte("\x1b]")) || bytes.Contains(out.Bytes(), []byte("\x1b[6n")) {
		t.Fatalf("specdev queried the terminal: %q", out.String())
	}
	if !bytes.Contains(out.Bytes(), []byte("specdev ")) {
		t.Fatalf("no version printed: %q", out.String())
	}
}
