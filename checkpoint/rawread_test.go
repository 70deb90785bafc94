package checkpoint

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/specdev/specdev/protocol"
)

func TestRawReadReadsRegularFilesWhole(t *testing.T) {
	dir := t.TempDir()
	for _, size := range []int{0, 1, 4095, 4096, 70000} {
		path := filepath.Join(dir, "f")
		want := bytes.Repeat([]byte("x"), size)
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
		got, ok, err := rawRead(path, "f", 1<<20)
		if !ok || err != nil || !bytes.Equal(got, want) || got == nil {
			t.Errorf("size %d: ok %v, err %v, %d bytes read (nil: %v)", size, ok, err, len(got), got == nil)
		}
	}
}

func TestRawReadRefusesPastTheLimit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big")
	if err := os.WriteFile(path, make([]byte, 101), 0o644); err != nil {
		t.Fatal(err)
	}
	_, ok, err := rawRead(path, "big", 100)
	var inv *protocol.InvalidError
	if !ok || !errors.As(err, &inv) || inv.File != "big" {
		t.Fatalf("ok %v, err %v: want an InvalidError naming big", ok, err)
	}
}

// What is not a regular file that could be opened is left to the os path,
// which names the problem (missing, a symlink, a FIFO, a folder).
func TestRawReadLeavesTheRestToTheOSPath(t *testing.T) {
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
	for _, path := range []string{filepath.Join(dir, "missing"), link, fifo, dir} {
		data, ok, err := rawRead(path, "x", 1<<20)
		if ok || err != nil || data != nil {
			t.Errorf("%s: ok %v, err %v, data %q: want the os path to take it", filepath.Base(path), ok, err, data)
		}
	}
	// and through readStateFile, the symlink is refused by name
	if _, err := readStateFile(link, "link", 1<<20); !errors.As(err, new(*LinkError)) {
		t.Errorf("readStateFile of a symlink: %v, want a *LinkError", err)
	}
}
