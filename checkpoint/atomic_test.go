package checkpoint

import (
	"bytes"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

func TestWriteAtomic(t *testing.T) {
	tests := []struct {
		name   string
		before map[string]string
		writes []fileWrite
		want   map[string]string
	}{
		{"new file", nil, []fileWrite{{"a.json", []byte("new a")}}, map[string]string{"a.json": "new a"}},
		{"replace", map[string]string{"a.json": "old a"}, []fileWrite{{"a.json", []byte("new a")}}, map[string]string{"a.json": "new a"}},
		{"shorter content", map[string]string{"a.json": strings.Repeat("old ", 1000)}, []fileWrite{{"a.json", []byte("x")}}, map[string]string{"a.json": "x"}},
		{"empty content", map[string]string{"a.json": "old a"}, []fileWrite{{"a.json", nil}}, map[string]string{"a.json": ""}},
		{"batch", map[string]string{"a.json": "old a", "b.json": "old b", "c.md": "kept"},
			[]fileWrite{{"a.json", []byte("new a")}, {"b.json", []byte("new b")}},
			map[string]string{"a.json": "new a", "b.json": "new b", "c.md": "kept"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, tt.before)
			if err := writeAtomic(dir, tt.writes...); err != nil {
				t.Fatal(err)
			}
			if got := dirFiles(t, dir); !maps.Equal(got, tt.want) {
				t.Errorf("folder holds %q, want %q (and no temp files)", got, tt.want)
			}
			for _, w := range tt.writes {
				info, err := os.Stat(filepath.Join(dir, w.name))
				if err != nil || info.Mode().Perm() != 0o644 {
					t.Errorf("%s: mode %v (%v), want 0644", w.name, info.Mode(), err)
				}
			}
		})
	}
}

// TestWriteAtomicFailure: a write that fails leaves every file entirely old
// or entirely new, and no temp files.
func TestWriteAtomicFailure(t *testing.T) {
	tests := []struct {
		name   string
		setup  func(t *testing.T, dir string) // after the old files are written
		writes []fileWrite
		want   map[string]string
	}{
		{
			name: "temp file cannot be created",
			writes: []fileWrite{{"a.json", []byte("new a")}, {"b.json", []byte("new b")},
				{strings.Repeat("x", 300), []byte("name too long")}},
			want: map[string]string{"a.json": "old a", "b.json": "old b"},
		},
		{
			name: "read-only folder",
			setup: func(t *testing.T, dir string) {
				if os.Geteuid() == 0 {
					t.Skip("root writes into read-only folders")
				}
				if err := os.Chmod(dir, 0o555); err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { os.Chmod(dir, 0o755) })
			},
			writes: []fileWrite{{"a.json", []byte("new a")}},
			want:   map[string]string{"a.json": "old a", "b.json": "old b"},
		},
		{
			// Renames happen one by one: files before the failing one are
			// new, the rest old, none partial.
			name: "rename onto a folder",
			setup: func(t *testing.T, dir string) {
				if err := os.MkdirAll(filepath.Join(dir, "sub", "inside"), 0o755); err != nil {
					t.Fatal(err)
				}
			},
			writes: []fileWrite{{"a.json", []byte("new a")}, {"sub", []byte("not a folder")}, {"b.json", []byte("new b")}},
			want:   map[string]string{"a.json": "new a", "b.json": "old b"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{"a.json": "old a", "b.json": "old b"})
			if tt.setup != nil {
				tt.setup(t, dir)
			}
			if err := writeAtomic(dir, tt.writes...); err == nil {
				t.Fatal("writeAtomic succeeded, want an error")
			}
			if got := dirFiles(t, dir); !maps.Equal(got, tt.want) {
				t.Errorf("folder holds %q, want %q (and no temp files)", got, tt.want)
			}
		})
	}
}

// TestWriteAtomicReadersSeeWholeFiles: a reader never sees a mix of the old
// and the new content, or an empty file, while a writer replaces it.
func TestWriteAtomicReadersSeeWholeFiles(t *testing.T) {
	const writes, size = 100, 256 << 10
	dir := t.TempDir()
	contents := [][]byte{bytes.Repeat([]byte("a"), size), bytes.Repeat([]byte("b"), size/2)}
	if err := writeAtomic(dir, fileWrite{"f.json", contents[0]}); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			for reads := 0; ; reads++ {
				select {
				case <-done:
					return
				default:
				}
				data, err := os.ReadFile(filepath.Join(dir, "f.json"))
				if err != nil || !(bytes.Equal(data, contents[0]) || bytes.Equal(data, contents[1])) {
					t.Errorf("read %d: %d bytes starting %q (err %v), want one whole version", reads, len(data), data[:min(len(data), 8)], err)
					return
				}
			}
		})
	}
	for i := range writes {
		if err := writeAtomic(dir, fileWrite{"f.json", contents[(i+1)%2]}); err != nil {
			t.Error(err)
			break
		}
	}
	close(done)
	wg.Wait()
}

func TestCleanTemps(t *testing.T) {
	dir := t.TempDir()
	// a temp file exactly as writeAtomic names them
	tmp, err := writeTemp(dir, fileWrite{"review_request.json", []byte("{}")})
	if err != nil {
		t.Fatal(err)
	}
	temps := []string{filepath.Base(tmp), ".review_progress.json.tmp-123", ".review_report.md.tmp-", ".review_history.jsonl.tmp-9"}
	kept := []string{"review_request.json", "review_progress.json", ".specdev.lock", "review_history.jsonl",
		"notes.tmp-1", ".hidden", "review_report.md"}
	for _, name := range append(temps[1:], kept...) {
		writeFiles(t, dir, map[string]string{name: "x"})
	}
	removed, err := cleanTemps(dir)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(removed)
	slices.Sort(temps)
	if !slices.Equal(removed, temps) {
		t.Errorf("cleanTemps removed %q, want %q", removed, temps)
	}
	got := slices.Sorted(maps.Keys(dirFiles(t, dir)))
	slices.Sort(kept)
	if !slices.Equal(got, kept) {
		t.Errorf("left %q, want %q", got, kept)
	}
}

// TestWriteAtomicReplacesSymlink: a state file that is a symlink (one that
// appeared after the transaction checked, say) is replaced by the rename,
// never written through: the file it pointed to is left as it was.
func TestWriteAtomicReplacesSymlink(t *testing.T) {
	dir, outside := t.TempDir(), filepath.Join(t.TempDir(), "outside")
	if err := os.WriteFile(outside, []byte("someone else's"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "a.json")); err != nil {
		t.Fatal(err)
	}
	if err := writeAtomic(dir, fileWrite{"a.json", []byte("new a")}); err != nil {
		t.Fatal(err)
	}
	if got := dirFiles(t, dir); !maps.Equal(got, map[string]string{"a.json": "new a"}) {
		t.Errorf("folder holds %q, want a regular a.json with the new content", got)
	}
	if got, _ := os.ReadFile(outside); string(got) != "someone else's" {
		t.Errorf("the file the link pointed to became %q", got)
	}
}
