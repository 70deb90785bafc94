//go:build !linux

package checkpoint

// What only the Linux kernel tells, as kernel_linux.go asks it.

// lockingPIDs: only Linux tells who holds a lock (/proc/locks); elsewhere
// the holder line is believed while its process lives.
func lockingPIDs(...string) (pids []int, known bool) { return nil, false }

// processName is unknown outside Linux.
func processName(int) string { return "" }

// restKeyOf: the poll cache keys files by inode and change time, which
// only the Linux build reads; elsewhere every poll reads every request.
func restKeyOf(string) (restKey, bool) { return restKey{}, false }
