//go:build !linux

package checkpoint

// statKey: the poll cache keys files by inode and change time, which only
// the Linux build reads; elsewhere every poll reads every request.
func statKey(string) (key fileKey, ok, missing bool) { return key, false, false }
