package tests

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// proc is a child process whose stdout is read line by line as it comes,
// so that a child printing faster than the test reads never blocks on a
// full pipe. Its stdin stays open until closeStdin (or the end of the
// test); stderr is kept for failure messages.
type proc struct {
	t      *testing.T
	name   string
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stderr bytes.Buffer // written until the child exits: read it with errText

	mu     sync.Mutex
	lines  []string
	taken  int           // lines handed out by next
	eof    bool          // stdout is closed
	signal chan struct{} // a line arrived or stdout closed (capacity 1)

	waitOnce sync.Once
	code     int
}

// startProc starts cmd and kills it, if it still runs, when the test ends.
func startProc(t *testing.T, cmd *exec.Cmd) *proc {
	t.Helper()
	p := &proc{t: t, name: strings.Join(cmd.Args, " "), cmd: cmd, signal: make(chan struct{}, 1)}
	stdout, err := p.start()
	if err != nil {
		// Errorf, not Fatal: reviewers start processes from goroutines.
		t.Errorf("start %s: %v", p.name, err)
		p.eof, p.code = true, -1
		p.waitOnce.Do(func() {})
		return p
	}
	go p.read(stdout)
	t.Cleanup(func() {
		p.cmd.Process.Signal(syscall.SIGKILL) // fails harmlessly once it exited
		p.wait()
	})
	return p
}

func (p *proc) start() (io.Reader, error) {
	p.cmd.Stderr = &p.stderr
	stdout, err := p.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if p.stdin, err = p.cmd.StdinPipe(); err != nil {
		return nil, err
	}
	return stdout, p.cmd.Start()
}

func (p *proc) read(stdout io.Reader) {
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		p.mu.Lock()
		p.lines = append(p.lines, sc.Text())
		p.mu.Unlock()
		p.notify()
	}
	io.Copy(io.Discard, stdout) // a line over the limit: keep the pipe flowing
	p.mu.Lock()
	p.eof = true
	p.mu.Unlock()
	p.notify()
}

func (p *proc) notify() {
	select {
	case p.signal <- struct{}{}:
	default:
	}
}

// next returns the next line of stdout, waiting for it; false once stdout
// is closed and every line was taken.
func (p *proc) next() (string, bool) {
	for {
		p.mu.Lock()
		if p.taken < len(p.lines) {
			line := p.lines[p.taken]
			p.taken++
			p.mu.Unlock()
			return line, true
		}
		eof := p.eof
		p.mu.Unlock()
		if eof {
			return "", false
		}
		<-p.signal
	}
}

// rest returns the lines not yet taken, waiting for stdout to close.
func (p *proc) rest() []string {
	var out []string
	for line, ok := p.next(); ok; line, ok = p.next() {
		out = append(out, line)
	}
	return out
}

// send writes one line to the child's stdin.
func (p *proc) send(line string) {
	p.t.Helper()
	if _, err := io.WriteString(p.stdin, line+"\n"); err != nil {
		p.t.Fatalf("write to %s: %v", p.name, err)
	}
}

func (p *proc) closeStdin() { p.stdin.Close() }

// kill sends SIGKILL: the child dies at once, wherever it is.
func (p *proc) kill() {
	p.t.Helper()
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		p.t.Fatalf("kill %s: %v", p.name, err)
	}
}

// wait waits for the child to exit (reading all its output first) and
// returns its exit code, -1 if a signal ended it.
func (p *proc) wait() int {
	p.waitOnce.Do(func() {
		p.stdin.Close()
		p.rest()
		err := p.cmd.Wait()
		var exit *exec.ExitError
		switch {
		case err == nil:
			p.code = 0
		case errors.As(err, &exit):
			p.code = exit.ExitCode()
		default:
			p.t.Errorf("wait for %s: %v", p.name, err)
			p.code = -1
		}
	})
	return p.code
}

// output is the whole stdout, once the child has exited.
func (p *proc) output() string {
	p.wait()
	p.mu.Lock()
	defer p.mu.Unlock()
	return strings.Join(p.lines, "\n")
}

// errText is the child's stderr, once it has exited (stdin is closed, so
// a child that reads stdin until EOF ends).
func (p *proc) errText() string {
	p.wait()
	return p.stderr.String()
}

// runSpecdev runs the real binary in the project root and returns its
// output and exit code. SPECDEV_* variables of the environment are left
// out, so the flags given are all that counts.
func runSpecdev(t *testing.T, root string, args ...string) (stdout, stderr string, code int) {
	cmd := exec.Command(specdevBin(), args...)
	cmd.Dir = root
	cmd.Env = withoutSpecdevVars(os.Environ())
	p := startProc(t, cmd)
	code = p.wait()
	return p.output(), p.errText(), code
}

// withoutSpecdevVars drops the caller's session, lease, assignment and
// folder; the consent folder of the run (TestMain) stays.
func withoutSpecdevVars(env []string) []string {
	out := env[:0:0]
	for _, kv := range env {
		if !strings.HasPrefix(kv, "SPECDEV_") || strings.HasPrefix(kv, "SPECDEV_CONFIG_HOME=") {
			out = append(out, kv)
		}
	}
	return out
}
