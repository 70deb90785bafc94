package checkpoint

import (
	"bytes"
	"crypto/sha256"
	"encoding/gob"
	"encoding/hex"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"time"
)

// The poll cache: the one cache specdev keeps, for one target. An idle
// `specdev check` over 1,000 assignments is to take at most 15 ms; reading
// and decoding every request it found took 30 ms (static build, 2 cores:
// 4 ms of it reading the files, 13 ms decoding them, the rest start-up
// and GC), and a poll does nothing with most of them: a request at rest
// (passed, failed, cancelled or blocked) is neither claimed nor listed.
//
// So the cache holds, for each assignment whose request was read, found
// valid and at rest, what lstat said of that file: device, inode, size,
// modification and change time. A poll stats each request and leaves out
// the ones whose key it holds, reading the rest. What it caches is only
// "this file, as it is, is a valid request at rest", keyed by the file
// itself, so it can never turn a decision into a different one:
//   - every specdev write replaces a request by rename (a new inode), and
//     any other write moves its change time, which no one can set back;
//     a key is recorded only once its file has rested pollSettle, longer
//     than any file system's timestamp granularity, so that a write just
//     after the stat cannot leave the key as it was;
//   - an invalid request is never recorded (every poll reads it and names
//     it), nor a pending or active one;
//   - the cache is dropped whole when the specdev binary changes (its
//     rules may have), or when it is malformed;
//   - only Poll uses it, never a command that shows or changes state
//     (status, work, gate, a transaction): they read every file in full;
//   - it lives outside the project, in the user's cache folder, so no
//     file in a repository or a clone can plant an entry (and keys hold
//     inode numbers no clone shares).
// A process that can write the cache can also write the requests
// themselves; the cache adds no way to change what specdev decides that
// the files do not already give it.

// pollSettle is how long a request must have rested before its key is
// recorded: more than the coarsest file system timestamps (FAT: 2 s).
const pollSettle = 3 * time.Second

// pollCacheLimit bounds the cache file: about 100,000 assignments.
const pollCacheLimit = 8 << 20

// restKey is what lstat says of a request file.
type restKey struct {
	Dev, Ino     uint64
	Size         int64
	Mtime, Ctime int64 // nanoseconds since 1970
}

// pollCacheFile is the cache file's content (gob): the specdev build it is
// for, and the keys of the requests at rest by assignment.
type pollCacheFile struct {
	Build string
	Keys  map[string]restKey
}

// pollClock tells when a poll starts, before any of its stats; tests move
// it on, since a file's change time cannot be set back.
var pollClock = time.Now

type pollCache struct {
	path  string             // the cache file; "" for no cache
	build string             // the specdev build it is for
	old   map[string]restKey // as read
	next  map[string]restKey // what this poll confirmed or found
	start time.Time
}

// Poll is Scan for a reviewer's poll: it leaves out the requests at rest,
// which a poll neither claims nor lists, and reads again only those whose
// file changed since a poll found them at rest (see above).
func (s *Store) Poll() ([]Entry, error) {
	folders, err := s.folders()
	if err != nil {
		return nil, err
	}
	c := s.openPollCache()
	var entries []Entry
	for _, f := range folders {
		name := f.Name()
		key, keyed := restKey{}, false
		if f.IsDir() && c.path != "" {
			key, keyed = restKeyOf(s.folder(name))
		}
		if keyed && c.old[name] == key {
			c.next[name] = key
			continue
		}
		e := s.entry(f)
		if e.Err == nil && e.Request != nil && !e.Request.Status.Active() {
			if keyed && c.start.UnixNano()-max(key.Mtime, key.Ctime) >= int64(pollSettle) {
				c.next[name] = key
			}
			continue
		}
		entries = append(entries, e)
	}
	c.write()
	return entries, nil
}

// openPollCache reads the cache of this store; an empty one if there is
// none, it is for another binary, or it is malformed.
func (s *Store) openPollCache() *pollCache {
	c := &pollCache{old: map[string]restKey{}, next: map[string]restKey{}, start: pollClock()}
	// a cache written by another build of specdev is not believed: the
	// build is named by its file's size and modification time
	exe, err := os.Executable()
	var info os.FileInfo
	if err == nil {
		info, err = os.Stat(exe)
	}
	if err != nil || s.CacheDir == "" {
		return c
	}
	sum := sha256.Sum256([]byte(s.Dir))
	c.path = filepath.Join(s.CacheDir, "poll-"+hex.EncodeToString(sum[:8]))
	c.build = fmt.Sprintf("%d-%d", info.Size(), info.ModTime().UnixNano())
	var file pollCacheFile
	data, err := os.ReadFile(c.path)
	if err == nil && len(data) <= pollCacheLimit && gob.NewDecoder(bytes.NewReader(data)).Decode(&file) == nil && file.Build == c.build {
		c.old = file.Keys // a malformed file is not believed at all
	}
	return c
}

// write replaces the cache file with what this poll found, if that
// differs from what it read. Failing to write costs only time. It writes
// in place with one write, not by rename: a poll that reads the file
// half written, or written over by two polls at once, decodes either no
// whole value or one poll's whole value, and every key in any value is
// checked against the very file it names. So no temp file is needed,
// nor the removal of one a killed poll left behind.
func (c *pollCache) write() {
	if c.path == "" || maps.Equal(c.old, c.next) {
		return
	}
	var b bytes.Buffer
	if gob.NewEncoder(&b).Encode(pollCacheFile{c.build, c.next}) != nil {
		return
	}
	os.MkdirAll(filepath.Dir(c.path), 0o700)
	if f, err := os.OpenFile(c.path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC|noFollow, 0o600); err == nil {
		f.Write(b.Bytes())
		f.Close()
	}
}
