package checkpoint

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/specdev/specdev/protocol"
	"github.com/specdev/specdev/report"
)

// crashScenario is a transaction to kill at each of its crash points: set
// up builds the state before it, step runs it.
type crashScenario struct {
	name  string
	setUp func(t *testing.T, a *Assignment)
	step  func(a *Assignment) error
}

var crashScenarios = []crashScenario{
	{"record", func(t *testing.T, a *Assignment) {
		requestAndClaim(t, a, protocol.ModeAuto)
	}, func(a *Assignment) error {
		_, err := a.Record(context.Background(), holderOf(a), FileRecord{File: "a.go", Findings: []protocol.Finding{{Severity: protocol.SeverityMinor, Description: "nit"}}})
		return err
	}},
	{"verdict", func(t *testing.T, a *Assignment) {
		requestAndClaim(t, a, protocol.ModeAuto)
		recordAll(t, a)
	}, func(a *Assignment) error {
		_, err := a.GiveVerdict(context.Background(), holderOf(a), protocol.Verdict{Passed: true, Summary: "ok"})
		return err
	}},
	{"request after a pass", func(t *testing.T, a *Assignment) {
		requestAndClaim(t, a, protocol.ModeAuto)
		recordAll(t, a)
		must(t, func() error {
			_, err := a.GiveVerdict(context.Background(), holderOf(a), protocol.Verdict{Passed: true})
			return err
		})
	}, func(a *Assignment) error {
		_, err := a.RequestReview(context.Background(), NewRequest{ChangedFiles: []string{"c.go"}})
		return err
	}},
	{"human rejects", func(t *testing.T, a *Assignment) {
		requestAndClaim(t, a, protocol.ModeManual)
		recordAll(t, a)
		must(t, func() error {
			_, err := a.GiveVerdict(context.Background(), holderOf(a), protocol.Verdict{Passed: true, Summary: "looks fine"})
			return err
		})
	}, func(a *Assignment) error {
		_, err := a.Decide(context.Background(), false, "the counter must persist")
		return err
	}},
}

// TestCrashPoints kills each scenario's transaction (a real process that
// SIGKILLs itself) at every point between its writes: after each rename,
// and after the renames but before the history append. Then the next
// command — a retry of the same command, or a read-only view — must leave
// the state files valid, the report rendered from them, and the history
// holding every event whose state landed, exactly once and in order.
func TestCrashPoints(t *testing.T) {
	if testing.Short() {
		t.Skip("runs subprocesses")
	}
	for _, sc := range crashScenarios {
		points := crashRun(t, sc, "")
		if len(points) < 2 {
			t.Fatalf("%s: only %d crash points reached: %v", sc.name, len(points), points)
		}
		for _, point := range points {
			for _, next := range []string{"retry", "view"} {
				t.Run(fmt.Sprintf("%s/%s/%s", sc.name, point, next), func(t *testing.T) {
					a := crashRunAndKill(t, sc, point)
					if next == "retry" {
						sc.step(a) // refused or not, it must converge first
					} else if _, err := a.Fresh(context.Background()); err != nil {
						t.Fatal(err)
					}
					checkConverged(t, a)
				})
			}
		}
	}
}

// crashRun sets the scenario up in a fresh assignment, runs its step in a
// child process that dies at point ("" for none), and returns the crash
// points the child passed.
func crashRun(t *testing.T, sc crashScenario, point string) []string {
	t.Helper()
	a := testAssignment(t)
	sc.setUp(t, a)
	_, points := crashChild(t, a, sc.name, point)
	return points
}

func crashRunAndKill(t *testing.T, sc crashScenario, point string) *Assignment {
	t.Helper()
	a := testAssignment(t)
	sc.setUp(t, a)
	killed, points := crashChild(t, a, sc.name, point)
	if !killed || points[len(points)-1] != point {
		t.Fatalf("the child was not killed at %q (killed %v, passed %v)", point, killed, points)
	}
	return a
}

// crashChild runs the scenario's step in this test binary as a child.
func crashChild(t *testing.T, a *Assignment, scenario, point string) (killed bool, points []string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashPointChild$")
	cmd.Env = append(os.Environ(), "SPECDEV_CRASH_DIR="+a.store.Dir, "SPECDEV_CRASH_SCENARIO="+scenario, "SPECDEV_CRASH_AT="+point)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	for _, line := range strings.Split(string(out), "\n") {
		if p, ok := strings.CutPrefix(line, "crash point: "); ok {
			points = append(points, p)
		}
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL {
			return true, points
		}
	}
	if err != nil || !strings.Contains(string(out), "step done") {
		t.Fatalf("child: %v\n%s%s", err, out, stderr.String())
	}
	return false, points
}

// TestCrashPointChild is the child of TestCrashPoints, not a test.
func TestCrashPointChild(t *testing.T) {
	dir := os.Getenv("SPECDEV_CRASH_DIR")
	if dir == "" {
		t.Skip("the child process of TestCrashPoints")
	}
	st, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	st.Render = report.Render
	a, err := st.Assignment("00001_test")
	if err != nil {
		t.Fatal(err)
	}
	at := os.Getenv("SPECDEV_CRASH_AT")
	crashPoint = func(p string) {
		fmt.Printf("crash point: %s\n", p)
		if p == at {
			os.Stdout.Sync()
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
		}
	}
	for _, sc := range crashScenarios {
		if sc.name == os.Getenv("SPECDEV_CRASH_SCENARIO") {
			if err := sc.step(a); err != nil {
				t.Fatal(err)
			}
			fmt.Println("step done")
			return
		}
	}
	t.Fatal("no such scenario")
}

// checkConverged: valid files, a report matching them, and a history with
// every journalled event once, in sequence order.
func checkConverged(t *testing.T, a *Assignment) {
	t.Helper()
	req, err := protocol.DecodeRequest(protocol.RequestFile, readOrFail(t, a, protocol.RequestFile))
	if err != nil {
		t.Fatal(err)
	}
	prog, err := protocol.DecodeProgress(protocol.ProgressFile, readOrFail(t, a, protocol.ProgressFile))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := ReportBody(readOrFail(t, a, ReportFile)), report.Render(req, prog); !bytes.Equal(got, want) {
		t.Errorf("the report does not match the state files:\n%s\nwant:\n%s", got, want)
	}
	events, torn, err := a.History()
	if err != nil || torn {
		t.Fatalf("history: torn=%v err=%v", torn, err)
	}
	seen := map[int64]protocol.EventName{}
	var last int64
	for _, e := range events {
		if e.Seq <= last {
			t.Errorf("history: event %s has seq %d after %d", e.Event, e.Seq, last)
		}
		last, seen[e.Seq] = e.Seq, e.Event
	}
	for _, j := range []*protocol.Journal{req.Journal, prog.Journal} {
		for _, e := range j.After(0) {
			if seen[e.Seq] != e.Event {
				t.Errorf("journalled event %s (seq %d) is not in the history (history has %q there)", e.Event, e.Seq, seen[e.Seq])
			}
		}
	}
}

func readOrFail(t *testing.T, a *Assignment, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(a.Dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// requestAndClaim asks for a review of a.go and b.go and claims it as rv-1.
func requestAndClaim(t *testing.T, a *Assignment, mode protocol.Mode) {
	t.Helper()
	must(t, func() error {
		_, err := a.RequestReview(context.Background(), NewRequest{ChangedFiles: []string{"a.go", "b.go"}, Notes: "n"})
		return err
	})
	must(t, func() error {
		_, err := a.Claim(context.Background(), ClaimOptions{Session: "rv-1", Mode: mode})
		return err
	})
}

func recordAll(t *testing.T, a *Assignment) {
	t.Helper()
	for _, f := range []string{"a.go", "b.go"} {
		must(t, func() error { _, err := a.Record(context.Background(), holderOf(a), FileRecord{File: f}); return err })
	}
}

// holderOf is the holder of the assignment's review, as its progress says.
func holderOf(a *Assignment) Holder {
	snap, err := a.Snapshot()
	if err != nil || snap.Progress == nil {
		return Holder{}
	}
	return Holder{snap.Progress.SessionID, snap.Progress.Lease}
}

func must(t *testing.T, fn func() error) {
	t.Helper()
	if err := fn(); err != nil {
		t.Fatal(err)
	}
}
