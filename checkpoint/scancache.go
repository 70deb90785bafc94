package checkpoint

import (
	"bytes"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/specdev/specdev/protocol"
)

// The poll cache. A poll that finds nothing to do still peeked at every
// assignment's request: over a hundred assignments, opening, reading and
// decoding a hundred files was most of an idle poll. The cache
// (.specdev/.scan.cache, machine-local, in .gitignore) keeps the peek of
// each request that rests — pending or finished, not under review — keyed
// by what lstat says of the file: device, inode, size, modification and
// change time. A poll stats each request and reads only those whose key
// differs.
//
// Why a matching key means the same bytes: every specdev write replaces
// the file by rename (a new inode), and any other write to it moves its
// change time, which no one can set back. The one trap is a change within
// the file system's timestamp granularity of the stat that keyed the
// peek: the change time would not move. So a peek is kept only when the
// file last changed scanSettle or more before that stat (as git treats
// "racily clean" index entries); a request written just now is read
// again until it settles.
//
// The cache is only ever a shortcut: a cache file that is missing,
// malformed or from another version is ignored and written anew, one that
// cannot be read (a symlink, say) is left alone and the scan reads every
// request, every peek taken from it passes the checks a peek of the file
// passes, and failing to write it costs only time. It is written only
// where .specdev/.gitignore ignores it, so that an older project never
// sees a new untracked file (specdev doctor says what to add).

// ScanCacheFile is the poll cache in the .specdev folder.
const ScanCacheFile = ".scan.cache"

const (
	scanCacheHeader = "specdev scan cache 1\n"
	scanCacheLimit  = 4 << 20 // bytes: some 20,000 assignments
	scanLineLimit   = 2048    // bytes in one entry
	scanStringLimit = 256     // bytes in one string of a peek
	scanIntLimit    = 1 << 20 // versions and rounds are small
	scanSettle      = 3 * time.Second
)

// fileKey is what lstat says of a state file; a file whose key is
// unchanged (and settled) holds the bytes it held when it was keyed.
type fileKey struct {
	dev, ino     uint64
	size         int64
	mtime, ctime int64 // nanoseconds since 1970
}

// settled: the file last changed scanSettle or more before now, a moment
// no later than the stat that keyed it. The real clock, not the store's:
// it is compared with the file system's timestamps.
func (k fileKey) settled(now time.Time) bool {
	return now.UnixNano()-max(k.mtime, k.ctime) >= int64(scanSettle)
}

// cachedPeek is one assignment's entry: the peek of its request, and the
// key of the file it was read from.
type cachedPeek struct {
	name string
	key  fileKey
	peek protocol.RequestPeek
}

// scanClock tells when a scan starts, before any of its stats; tests move
// it on, since a file's change time cannot be set back.
var scanClock = time.Now

// scanCache is the cache as read, and what this scan will leave in it.
type scanCache struct {
	old     []cachedPeek // as read, sorted by name
	hit     []bool       // old[i] was found unchanged by this scan
	hits    int
	kept    []cachedPeek // peeks read from the files this scan, to add
	changed bool         // what to leave differs from old: a peek kept, or no cache read
	off     bool         // no cache here (none to read, and .gitignore does not ignore one): stat nothing, write nothing
	ignored bool         // .gitignore was read and ignores the cache
	started time.Time    // before the scan's first stat
	dir     int          // the assignments folder, open for statKey; -1: none
}

// stat keys a's request.
func (c *scanCache) stat(a *Assignment) (key fileKey, ok, missing bool) {
	if c.off {
		return key, false, false
	}
	if c.dir < 0 {
		return statKey(-1, filepath.Join(a.store.folder(a.Name), protocol.RequestFile))
	}
	return statKey(c.dir, a.Name+"/"+protocol.RequestFile)
}

// readScanCache reads the poll cache; a malformed one yields an empty
// cache that will be rewritten. With none to read, the cache is off where
// .gitignore does not ignore it (a project made by an older specdev), and
// so is one that cannot be read (a symlink, say): the scan then stats
// nothing it would not read anyway.
func (s *Store) readScanCache() *scanCache {
	c := &scanCache{started: scanClock(), dir: -1}
	data, err := readStateFile(filepath.Join(s.Dir, ScanCacheFile), ScanCacheFile, scanCacheLimit)
	switch {
	case err != nil:
		c.off = true
	case data == nil:
		c.ignored = s.ignores(ScanCacheFile)
		c.off, c.changed = !c.ignored, true
	default:
		if old, ok := decodeScanCache(data); ok {
			c.old = old
		} else {
			c.changed = true
		}
	}
	c.hit = make([]bool, len(c.old))
	return c
}

// lookup returns the kept peek of name's request if its key is key. The
// peek is the cache's own: the caller only reads it.
func (c *scanCache) lookup(name string, key fileKey) (*protocol.RequestPeek, bool) {
	i, found := slices.BinarySearchFunc(c.old, name, func(e cachedPeek, name string) int { return strings.Compare(e.name, name) })
	if !found || c.old[i].key != key {
		return nil, false
	}
	if !c.hit[i] {
		c.hit[i] = true
		c.hits++
	}
	return &c.old[i].peek, true
}

// keep remembers the peek of name's request, read after the stat that
// gave key, if it is a peek the cache may hold.
func (c *scanCache) keep(name string, key fileKey, p protocol.RequestPeek) {
	e := cachedPeek{name, key, p}
	if !key.settled(c.started) || !e.valid() {
		return
	}
	c.kept = append(c.kept, e)
	c.changed = true
}

// next is what this scan leaves in the cache: the entries it found
// unchanged and the peeks it kept.
func (c *scanCache) next() []cachedPeek {
	out := slices.Clone(c.kept)
	for i, e := range c.old {
		if c.hit[i] {
			out = append(out, e)
		}
	}
	return out
}

// valid: an entry the cache may hold, by the rules both its writer and
// its reader apply, so that what is written always reads back: a valid
// assignment name, a key a file can have, and a peek of a request at rest
// that passes the checks a peek of the file passes.
func (e cachedPeek) valid() bool {
	k := e.key
	if CheckName(e.name) != nil || k.size < 0 || k.size > protocol.MaxFileSize || k.mtime < 0 || k.ctime < 0 || !cacheable(e.peek) {
		return false
	}
	checked, err := protocol.CheckRequestPeek(ScanCacheFile, e.peek)
	return err == nil && checked == e.peek
}

// writeScanCache leaves what this scan saw in the cache, when it changed.
func (s *Store) writeScanCache(c *scanCache) {
	if c.off || !c.changed && c.hits == len(c.old) || !c.ignored && !s.ignores(ScanCacheFile) {
		return
	}
	if data, ok := encodeScanCache(c.next()); ok {
		writeCacheFile(s.Dir, ScanCacheFile, data)
	}
}

// ignores reports whether .specdev/.gitignore has a line for name.
func (s *Store) ignores(name string) bool {
	data, err := readStateFile(filepath.Join(s.Dir, GitignoreFile), GitignoreFile, 64<<10)
	return err == nil && gitignoreLines(data)[name]
}

// cacheable: a request at rest (no progress file to read with it) whose
// fields the cache's line format holds exactly and would read back (it
// holds no blocked_reason: a stuck loop is rare, and read from its file).
func cacheable(p protocol.RequestPeek) bool {
	if p.Status == protocol.StatusInProgress || p.Status == protocol.StatusAwaitingApproval || p.BlockedReason != "" {
		return false
	}
	for _, s := range []string{string(p.Status), p.RequestID, p.Gate, string(p.Mode), p.Group} {
		if !plainField(s) {
			return false
		}
	}
	for _, n := range []int{p.Version, p.Round, p.MaxRounds} {
		if n < 0 || n > scanIntLimit {
			return false
		}
	}
	for _, t := range []protocol.Timestamp{p.Timestamp, p.ContinuedAt} {
		if !t.IsZero() && (t.Year() < 1970 || t.Year() > 2200) {
			return false
		}
	}
	return true
}

// plainField: no tab, newline or other control byte, and short.
func plainField(s string) bool {
	if len(s) > scanStringLimit {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] == 0x7f {
			return false
		}
	}
	return true
}

// encodeScanCache writes one line per assignment, sorted by name, fields
// split by tabs: name, the key (dev, ino, size, mtime, ctime) and the
// peek (version, status, request_id, timestamp, gate, round, max_rounds,
// mode, continued_at, group, checkpoint). Times are nanoseconds since
// 1970, empty for none. ok is false when the cache would be larger than a
// reader takes (some 20,000 assignments), or would name an assignment
// twice: then none is written.
func encodeScanCache(entries []cachedPeek) (data []byte, ok bool) {
	entries = slices.SortedFunc(slices.Values(entries), func(a, b cachedPeek) int { return strings.Compare(a.name, b.name) })
	b := []byte(scanCacheHeader)
	for i, e := range entries {
		if i > 0 && entries[i-1].name == e.name {
			return nil, false
		}
		k, p := e.key, e.peek
		b = append(b, e.name...)
		b = appendFields(b, strconv.FormatUint(k.dev, 10), strconv.FormatUint(k.ino, 10),
			itoa(k.size), itoa(k.mtime), itoa(k.ctime),
			itoa(int64(p.Version)), string(p.Status), p.RequestID, nanos(p.Timestamp), p.Gate,
			itoa(int64(p.Round)), itoa(int64(p.MaxRounds)), string(p.Mode), nanos(p.ContinuedAt), p.Group,
			strconv.FormatBool(p.Checkpoint))
		b = append(b, '\n')
	}
	return b, len(b) <= scanCacheLimit
}

const scanFields = 17 // name, 5 of the key, 11 of the peek

func appendFields(b []byte, fields ...string) []byte {
	for _, f := range fields {
		b = append(append(b, '\t'), f...)
	}
	return b
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func nanos(t protocol.Timestamp) string {
	if t.IsZero() {
		return ""
	}
	return itoa(t.UnixNano())
}

// decodeScanCache reads what encodeScanCache wrote (names in increasing
// order); ok is false for anything else, and then nothing of it is used.
func decodeScanCache(data []byte) ([]cachedPeek, bool) {
	rest, ok := bytes.CutPrefix(data, []byte(scanCacheHeader))
	if !ok {
		return nil, false
	}
	text := string(rest) // one copy; the entries' strings are slices of it
	out := make([]cachedPeek, 0, strings.Count(text, "\n"))
	for len(text) > 0 {
		end := strings.IndexByte(text, '\n')
		if end < 0 || end > scanLineLimit {
			return nil, false
		}
		e, ok := decodeScanLine(text[:end])
		if !ok || len(out) > 0 && out[len(out)-1].name >= e.name {
			return nil, false
		}
		out = append(out, e)
		text = text[end+1:]
	}
	return out, true
}

func decodeScanLine(line string) (e cachedPeek, ok bool) {
	var f [scanFields]string
	n, start := 0, 0
	for i := 0; i < len(line); i++ {
		if line[i] == '\t' {
			if n == scanFields-1 {
				return e, false // a field too many
			}
			f[n], n, start = line[start:i], n+1, i+1
		}
	}
	if n != scanFields-1 {
		return e, false
	}
	f[n] = line[start:]
	d := fieldDecoder{}
	e.name = f[0]
	e.key = fileKey{dev: d.uint(f[1]), ino: d.uint(f[2]), size: d.int(f[3]), mtime: d.int(f[4]), ctime: d.int(f[5])}
	e.peek = protocol.RequestPeek{
		Version: int(d.int(f[6])), Status: protocol.Status(f[7]), RequestID: f[8],
		Timestamp: d.time(f[9]), Gate: f[10], Round: int(d.int(f[11])),
		MaxRounds: int(d.int(f[12])), Mode: protocol.Mode(f[13]),
		ContinuedAt: d.time(f[14]), Group: f[15], Checkpoint: d.bool(f[16]),
	}
	return e, !d.bad && e.valid()
}

// fieldDecoder parses the fields of one line, remembering any failure.
type fieldDecoder struct{ bad bool }

// int reads a number encodeScanCache wrote: none is negative.
func (d *fieldDecoder) int(s string) int64 {
	n := d.uint(s)
	if n > math.MaxInt64 {
		d.bad = true
	}
	return int64(n)
}

// uint reads a decimal number without sign or leading zero, by hand: a
// poll decodes some 900 of them, and strconv's general parser was a third
// of that.
func (d *fieldDecoder) uint(s string) uint64 {
	if len(s) == 0 || len(s) > 20 || len(s) > 1 && s[0] == '0' {
		d.bad = true
		return 0
	}
	var n uint64
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' || n > (math.MaxUint64-uint64(c-'0'))/10 {
			d.bad = true
			return 0
		}
		n = n*10 + uint64(c-'0')
	}
	return n
}

func (d *fieldDecoder) time(s string) protocol.Timestamp {
	if s == "" {
		return protocol.Timestamp{}
	}
	return protocol.At(time.Unix(0, d.int(s)))
}

func (d *fieldDecoder) bool(s string) bool {
	b, err := strconv.ParseBool(s)
	d.bad = d.bad || err != nil || s != strconv.FormatBool(b)
	return b
}
