package checkpoint

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/specdev/specdev/protocol"
	"github.com/specdev/specdev/report"
)

// testAssignment makes a store in a temp folder with one empty assignment,
// opened as the CLI opens it (the report is rendered).
func testAssignment(t testing.TB) *Assignment {
	t.Helper()
	dir := filepath.Join(t.TempDir(), protocol.StateDir)
	if err := os.MkdirAll(filepath.Join(dir, AssignmentsDir, "00001_test"), 0o755); err != nil {
		t.Fatal(err)
	}
	st, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	st.Render = report.Render
	st.Holder = "test " + t.Name()
	a, err := st.Assignment("00001_test")
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// writeFiles creates files (base name to content) in dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// dirFiles returns every regular file in dir with its content.
func dirFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for _, e := range entries {
		if e.Type().IsRegular() {
			data, err := os.ReadFile(filepath.Join(dir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			files[e.Name()] = string(data)
		}
	}
	return files
}
