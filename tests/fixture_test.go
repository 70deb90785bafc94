package tests

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/specdev/specdev/checkpoint"
	"github.com/specdev/specdev/protocol"
	"github.com/specdev/specdev/report"
)

// newProject makes a project with an empty .specdev/assignments/ and a
// config.json setting lock_timeout, and returns the project root and its
// .specdev folder.
func newProject(t *testing.T, lockTimeout string) (root, dir string) {
	t.Helper()
	root = t.TempDir()
	dir = filepath.Join(root, protocol.StateDir)
	if err := os.MkdirAll(filepath.Join(dir, checkpoint.AssignmentsDir), 0o755); err != nil {
		t.Fatal(err)
	}
	config := fmt.Sprintf(`{"version": 1, "lock_timeout": %q}`+"\n", lockTimeout)
	if err := os.WriteFile(filepath.Join(dir, protocol.ConfigFile), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	return root, dir
}

// openStore opens the store as the CLI does: the report is rendered.
func openStore(dir, holder string) (*checkpoint.Store, error) {
	st, err := checkpoint.Open(dir)
	if err != nil {
		return nil, err
	}
	st.Render = report.Render
	st.Holder = holder
	return st, nil
}

// testStore is openStore for the test process itself.
func testStore(t *testing.T, dir string) *checkpoint.Store {
	t.Helper()
	st, err := openStore(dir, "test "+t.Name())
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// addAssignment creates an assignment with a pending request for files.
func addAssignment(t *testing.T, st *checkpoint.Store, name string, files ...string) *checkpoint.Assignment {
	t.Helper()
	if err := os.Mkdir(filepath.Join(st.Dir, checkpoint.AssignmentsDir, name), 0o755); err != nil {
		t.Fatal(err)
	}
	a, err := st.Assignment(name)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.RequestReview(context.Background(), checkpoint.NewRequest{ChangedFiles: files, Notes: "test " + name}); err != nil {
		t.Fatal(err)
	}
	return a
}

// counterKey is the unknown field of the request (and progress) in which
// workers count their updates; specdev must keep it as it is.
const counterKey = "test_counter"

func counterOf(extra protocol.Extra) (int, error) {
	raw, ok := extra[counterKey]
	if !ok {
		return 0, nil
	}
	var n int
	if err := json.Unmarshal(raw, &n); err != nil {
		return 0, fmt.Errorf("%s is %s: %w", counterKey, raw, err)
	}
	return n, nil
}

func withCounter(extra protocol.Extra, n int) protocol.Extra {
	if extra == nil {
		extra = protocol.Extra{}
	}
	extra[counterKey] = json.RawMessage(fmt.Sprint(n))
	return extra
}

// bump is one counted read-modify-write: the request's counter goes up by
// one and a history event carries the new value.
func bump(tx *checkpoint.Tx, who string) (int, error) {
	if tx.Request == nil {
		return 0, fmt.Errorf("%s: no request to count in", tx.A.Name)
	}
	n, err := counterOf(tx.Request.Extra)
	if err != nil {
		return 0, err
	}
	n++
	tx.Request.Extra = withCounter(tx.Request.Extra, n)
	tx.Log(protocol.EventFileReviewed, who, map[string]any{"counter": n})
	return n, nil
}

// grow changes the progress as a busy reviewer would: a growing list of
// findings (1 to 25, then again), fresh activity, and the counter.
func grow(tx *checkpoint.Tx, n int) error {
	p := tx.Progress
	if p == nil {
		return fmt.Errorf("%s: no progress to change", tx.A.Name)
	}
	files := slices.Concat(p.FilesReviewed, p.FilesRemaining)
	p.Findings = nil
	for i := range n%25 + 1 {
		p.Findings = append(p.Findings, protocol.Finding{
			File: files[i%len(files)], Line: i + 1, Severity: protocol.Severities[i%3], Category: "correctness",
			Description: fmt.Sprintf("finding %d of update %d: %s", i, n, strings.Repeat("text ", i)),
			Suggestion:  "fix it",
		})
	}
	p.FindingsSoFar = len(p.Findings)
	p.LastActivity = protocol.At(tx.Now)
	p.Extra = withCounter(p.Extra, n)
	return nil
}

// eventCounter is the counter a bump logged, or -1 for other events.
func eventCounter(e protocol.Event) int {
	f, ok := e.Detail["counter"].(float64)
	if !ok {
		return -1
	}
	return int(f)
}

// tempFiles lists the temp files of atomic writes left in dir.
func tempFiles(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var temps []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") && strings.Contains(e.Name(), ".tmp-") {
			temps = append(temps, e.Name())
		}
	}
	return temps
}

// readFile returns the file's content, failing the test if it cannot.
func readFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// countLines counts newline-terminated lines.
func countLines(data []byte) int { return bytes.Count(data, []byte("\n")) }
