package tests

import (
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

func TestMain(m *testing.M) {
	if sub := os.Getenv(workerEnv); sub != "" {
		os.Exit(runWorker(sub, os.Args[1:])) // a re-executed worker process (worker_test.go)
	}
	dir, err := os.MkdirTemp("", "specdev-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binDir = dir
	build := exec.Command("go", "build", "-o", specdevBin(), "../cmd/specdev")
	build.Stdout, build.Stderr = os.Stdout, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building specdev:", err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
