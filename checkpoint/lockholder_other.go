//go:build !linux

package checkpoint

// lockingPIDs: only Linux tells who holds a lock (/proc/locks); elsewhere
// the holder line is believed while its process lives.
func lockingPIDs(...string) (pids []int, known bool) { return nil, false }

// processName is unknown outside Linux.
func processName(int) string { return "" }
