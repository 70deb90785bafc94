package checkpoint

import (
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
)

// TestLockingPIDs reads a /proc/locks as the kernel writes it: holders of
// the file's device and inode, not waiters ("->"), not other files, not
// pid 0 (a process outside this pid namespace).
func TestLockingPIDs(t *testing.T) {
	file := filepath.Join(t.TempDir(), "lock")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	info, err := os.Lstat(file)
	if err != nil {
		t.Fatal(err)
	}
	st := info.Sys().(*syscall.Stat_t)
	id := lockID(uint64(st.Dev), st.Ino)
	locks := "1: FLOCK  ADVISORY  WRITE 4242 " + id + " 0 EOF\n" +
		"1: -> FLOCK  ADVISORY  WRITE 4343 " + id + " 0 EOF\n" +
		"2: POSIX  ADVISORY  WRITE 4444 " + id + "0 0 EOF\n" +
		"3: FLOCK  ADVISORY  WRITE 0 " + id + " 0 EOF\n" +
		"4: OFDLCK ADVISORY  WRITE -1 " + id + " 0 EOF\n"
	procLocks = filepath.Join(t.TempDir(), "locks")
	t.Cleanup(func() { procLocks = "/proc/locks" })
	if err := os.WriteFile(procLocks, []byte(locks), 0o644); err != nil {
		t.Fatal(err)
	}
	if pids, known := lockingPIDs(file); !known || !slices.Equal(pids, []int{4242}) {
		t.Errorf("lockingPIDs = %v (known %v), want [4242]", pids, known)
	}
	procLocks = filepath.Join(t.TempDir(), "missing")
	if _, known := lockingPIDs(file); known {
		t.Error("lockingPIDs without /proc/locks says it knows")
	}
}

// TestLockID: st_dev encoded as glibc's makedev does, written back as
// /proc/locks writes a device (hex major:minor, at least two digits each).
func TestLockID(t *testing.T) {
	makedev := func(major, minor uint64) uint64 {
		return (major&0xfff)<<8 | (major&^0xfff)<<32 | minor&0xff | (minor&^0xff)<<12
	}
	tests := []struct {
		major, minor, ino uint64
		want              string
	}{
		{254, 0, 9978760, "fe:00:9978760"},
		{8, 1, 12, "08:01:12"},
		{259, 0x12345, 7, "103:12345:7"},
		{0x1234, 1, 5, "1234:01:5"},
	}
	for _, tt := range tests {
		if got := lockID(makedev(tt.major, tt.minor), tt.ino); got != tt.want {
			t.Errorf("lockID(makedev(%#x, %#x), %d) = %q, want %q", tt.major, tt.minor, tt.ino, got, tt.want)
		}
	}
}
