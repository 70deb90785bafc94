//go:build !linux

package checkpoint

// The poll cache keys files by inode and change time, which only the
// Linux build reads; elsewhere every poll reads every request.

func restKeyOf(string) (restKey, bool) { return restKey{}, false }
