//go:build !linux

package checkpoint

// The poll cache keys files by inode and change time, which only the
// Linux build reads; elsewhere every poll reads every request.

func openScanDir(string) int { return -1 }

func closeScanDir(int) {}

func statKey(int, string) (key fileKey, ok, missing bool) { return key, false, false }
