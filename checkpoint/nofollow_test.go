package checkpoint

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/specdev/specdev/protocol"
)

func TestReadStateFileReadsRegularFilesWhole(t *testing.T) {
	dir := t.TempDir()
	for _, size := range []int{0, 1, 4095, 4096, 70000} {
		path := filepath.Join(dir, "f")
		want := bytes.Repeat([]byte("x"), size)
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := readStateFile(path, "f", 1<<20)
		if err != nil || !bytes.Equal(got, want) || got == nil {
			t.Errorf("size %d: err %v, %d bytes read (nil: %v)", size, err, len(got), got == nil)
		}
	}
}

func TestReadStateFileRefusesPastTheLimit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big")
	if err := os.WriteFile(path, make([]byte, 101), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := readStateFile(path, "big", 100)
	var inv *protocol.InvalidError
	if !errors.As(err, &inv) || inv.File != "big" {
		t.Fatalf("err %v: want an InvalidError naming big", err)
	}
}

// A missing file is no data and no error; a symlink, a FIFO or a folder
// is refused by name, and never read through.
func TestReadStateFileRefusesAllButRegularFiles(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	if err := os.WriteFile(target, []byte("secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	if data, err := readStateFile(filepath.Join(dir, "missing"), "missing", 1<<20); err != nil || data != nil {
		t.Errorf("missing: err %v, data %q: want neither", err, data)
	}
	for _, path := range []string{link, fifo, dir} {
		data, err := readStateFile(path, "x", 1<<20)
		var link *LinkError
		if !errors.As(err, &link) || !strings.HasPrefix(link.Msg, "x is ") || data != nil {
			t.Errorf("%s: err %v, data %q: want a *LinkError naming x", filepath.Base(path), err, data)
		}
	}
}
