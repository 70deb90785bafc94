//go:build !linux

package checkpoint

// restKeyOf: the poll cache keys files by inode and change time, which
// only the Linux build reads (kernel_linux.go); elsewhere every poll
// reads every request.
func restKeyOf(string) (restKey, bool) { return restKey{}, false }
