package tests

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// binDir holds the specdev binary built once for all tests.
var binDir string

// specdevBin is the path of that binary.
func specdevBin() string { return filepath.Join(binDir, "specdev") }

// coverDir is where a coverage-instrumented binary writes its counters
// (GOCOVERDIR), or "" when the tests run without coverage.
var coverDir string

func TestMain(m *testing.M) {
	if sub := os.Getenv(workerEnv); sub != "" {
		os.Exit(runWorker(sub, os.Args[1:])) // a re-executed worker process (worker_test.go)
	}
	if filepath.Base(os.Args[0]) == ontermName {
		os.Exit(ontermMain(os.Args[1:])) // a scenario's command on a terminal (onterm_test.go)
	}
	flag.Parse()
	dir, err := os.MkdirTemp("", "specdev-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binDir = dir
	// Consent to run gates goes to a folder of the run, never the user's.
	os.Setenv("SPECDEV_CONFIG_HOME", filepath.Join(dir, "config"))
	build := exec.Command("go", append(append([]string{"build"}, coverBuildFlags()...), "-o", specdevBin(), "../cmd/specdev")...)
	build.Stdout, build.Stderr = os.Stdout, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building specdev:", err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	if err := linkOnterm(); err != nil {
		fmt.Fprintln(os.Stderr, "linking onterm:", err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// coverBuildFlags makes the scenarios count towards coverage. Under
// "go test -cover" the test binary writes its counters into the folder of
// -test.gocoverdir and sums up everything there when it exits; the binary
// under test is built with coverage too, in the same mode, and every
// process of it (GOCOVERDIR, inherited by the scenarios, the crash and
// the concurrency tests) writes its counters into the same folder. So
//
//	go test -cover -coverpkg=./... ./tests/
//
// prints what the scenarios exercise, and make cover merges it with the
// unit tests. A run without -cover builds the binary as before.
func coverBuildFlags() []string {
	f := flag.Lookup("test.gocoverdir")
	if testing.CoverMode() == "" || f == nil || f.Value.String() == "" {
		return nil
	}
	coverDir = f.Value.String()
	if !filepath.IsAbs(coverDir) {
		if abs, err := filepath.Abs(coverDir); err == nil {
			coverDir = abs
		}
	}
	os.Setenv("GOCOVERDIR", coverDir)
	return []string{"-cover", "-covermode=" + testing.CoverMode(), "-coverpkg=github.com/specdev/specdev/..."}
}
