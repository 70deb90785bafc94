package checkpoint

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strings"
)

// validCache remembers, per state file, the sha256 of bytes known to be
// valid: bytes this store wrote, or read and validated in full. It lives in
// the lock file after the holder line ("valid <file> <sha256>"), so it
// costs no extra file and no fsync; losing it only costs a full validation.
//
// Using it is safe without the lock: a file whose bytes hash to a recorded
// digest is exactly a valid file, whatever happened in between, and any
// other content (a hand edit, another tool, a torn cache) is validated in
// full. This keeps a record in a 1,000-file review from re-validating the
// whole review against its schema every time (SPEC.md §8).
type validCache map[string]string

const validPrefix = "valid "

// parseLockFile splits the lock file into its holder line and its cache.
func parseLockFile(data []byte) (holder string, cache validCache) {
	cache = validCache{}
	lines := strings.Split(string(data), "\n")
	for i, line := range lines {
		if i == 0 {
			holder = strings.TrimSpace(line)
			continue
		}
		fields := strings.Fields(strings.TrimPrefix(line, validPrefix))
		if strings.HasPrefix(line, validPrefix) && len(fields) == 2 {
			cache[fields[0]] = fields[1]
		}
	}
	return holder, cache
}

// lockFileContent is the holder line followed by the cache, in a fixed order.
func lockFileContent(holder string, cache validCache) []byte {
	var b strings.Builder
	b.WriteString(holder)
	b.WriteByte('\n')
	for _, name := range []string{"review_request.json", "review_progress.json"} {
		if sum, ok := cache[name]; ok {
			b.WriteString(validPrefix + name + " " + sum + "\n")
		}
	}
	return []byte(b.String())
}

// trusts reports whether data is known-valid content of the file name.
func (c validCache) trusts(name string, data []byte) bool { return c.trustsSum(name, digest(data)) }

// trustsSum is trusts for content whose digest is sum.
func (c validCache) trustsSum(name, sum string) bool {
	known, ok := c[name]
	return ok && known == sum
}

// rememberSum records that content whose digest is sum is valid.
func (c validCache) rememberSum(name, sum string) { c[name] = sum }

func digest(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// readCache reads the cache from the lock file without locking. A lock
// file that is a symlink (or not a regular file) is a *LinkError; one that
// cannot be read otherwise only costs full validations.
func (a *Assignment) readCache() (validCache, error) {
	data, err := readLockFile(a.path(LockFile), a.rel(LockFile))
	if err != nil {
		return validCache{}, err
	}
	_, cache := parseLockFile(data)
	return cache, nil
}

// lockFileLimit bounds what is read of a lock file: a holder line and two
// cache lines are far less.
const lockFileLimit = 4096

// readLockFile reads the lock file without following a link. Only a
// *LinkError is returned; a missing, unreadable or oversized lock file
// reads as empty, since its content is only a cache and a name.
func readLockFile(path, rel string) ([]byte, error) {
	data, err := readStateFile(path, rel, lockFileLimit)
	var link *LinkError
	if errors.As(err, &link) {
		return nil, err
	}
	if err != nil {
		return nil, nil
	}
	return data, nil
}
