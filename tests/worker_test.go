package tests

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/specdev/specdev/checkpoint"
	"github.com/specdev/specdev/protocol"
)

// workerEnv names the worker a re-executed test binary runs instead of the
// tests (see TestMain). The worker's arguments are the process arguments;
// the first is always the .specdev folder.
const workerEnv = "SPECDEV_TEST_WORKER"

// A worker acts on the store from its own process, as a specdev command
// would, so that locks and crashes are those of real processes.
type worker struct {
	args int // arguments after the .specdev folder
	run  func(ctx context.Context, st *checkpoint.Store, args []string) error
}

var workers = map[string]worker{
	// count NAME N WHO: N counted read-modify-writes, then exit.
	"count": {3, func(ctx context.Context, st *checkpoint.Store, args []string) error {
		a, err := st.Assignment(args[0])
		if err != nil {
			return err
		}
		n, err := strconv.Atoi(args[1])
		if err != nil {
			return err
		}
		for range n {
			if err := a.Update(ctx, func(tx *checkpoint.Tx) error { _, err := bump(tx, args[2]); return err }); err != nil {
				return err
			}
		}
		return nil
	}},
	// crashloop NAME WHO: change request and progress forever, printing
	// "ack N" once update N has returned.
	"crashloop": {2, func(ctx context.Context, st *checkpoint.Store, args []string) error {
		a, err := st.Assignment(args[0])
		if err != nil {
			return err
		}
		for {
			var n int
			err := a.Update(ctx, func(tx *checkpoint.Tx) error {
				var err error
				if n, err = bump(tx, args[1]); err != nil {
					return err
				}
				return grow(tx, n)
			})
			if err != nil {
				return err
			}
			fmt.Printf("ack %d\n", n)
		}
	}},
	// claim SESSION: print "ready", then claim each assignment named on
	// stdin and print "won NAME" or "lost NAME busy|conflict|error: …".
	"claim": {1, func(ctx context.Context, st *checkpoint.Store, args []string) error {
		fmt.Println("ready")
		in := bufio.NewScanner(os.Stdin)
		for in.Scan() {
			name := in.Text()
			a, err := st.Assignment(name)
			if err != nil {
				return err
			}
			_, err = a.Claim(ctx, checkpoint.ClaimOptions{Session: args[0]})
			switch {
			case err == nil:
				fmt.Println("won", name)
			case errors.Is(err, checkpoint.ErrBusy):
				fmt.Println("lost", name, "busy:", err)
			case errors.Is(err, protocol.ErrConflict):
				fmt.Println("lost", name, "conflict:", err)
			default:
				fmt.Println("lost", name, "error:", err)
			}
		}
		return in.Err()
	}},
	// hold NAME: take the assignment's lock, print "locked", and keep it
	// until stdin closes.
	"hold": {1, func(ctx context.Context, st *checkpoint.Store, args []string) error {
		a, err := st.Assignment(args[0])
		if err != nil {
			return err
		}
		return a.Update(ctx, func(*checkpoint.Tx) error {
			fmt.Println("locked")
			_, err := io.Copy(io.Discard, os.Stdin)
			return err
		})
	}},
}

// runWorker runs the worker named sub with args and returns the exit code.
func runWorker(sub string, args []string) int {
	w, ok := workers[sub]
	if !ok || len(args) != 1+w.args {
		fmt.Fprintf(os.Stderr, "worker %s: unknown, or not %d arguments: %q\n", sub, 1+w.args, args)
		return 2
	}
	st, err := openStore(args[0], "test worker "+sub+" "+strings.Join(args[1:], " "))
	if err == nil {
		err = w.run(context.Background(), st, args[1:])
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "worker %s: %v\n", sub, err)
		return 1
	}
	return 0
}

// startWorker runs a worker in a new process of this test binary.
func startWorker(t *testing.T, sub string, args ...string) *proc {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Env = append(withoutSpecdevVars(os.Environ()), workerEnv+"="+sub)
	return startProc(t, cmd)
}
