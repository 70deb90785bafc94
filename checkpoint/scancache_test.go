package checkpoint

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/specdev/specdev/protocol"
)

// scanStore makes a store whose .gitignore lets the poll cache be
// written, with one assignment per status, and a clock an hour ahead so
// that every file has settled.
func scanStore(t *testing.T) *Store {
	t.Helper()
	a := testAssignment(t)
	st := a.store
	writeFiles(t, st.Dir, map[string]string{GitignoreFile: string(gitignore())})
	statuses := []string{"pending", "cancelled", "passed", "failed", "blocked", "in_progress", "awaiting_approval"}
	for i, status := range statuses {
		dir := filepath.Join(st.Dir, AssignmentsDir, fmt.Sprintf("%05d_s", i+2))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		writeFiles(t, dir, map[string]string{protocol.RequestFile: requestPeekJSON(status, "rq-"+status)})
		if status == "in_progress" || status == "awaiting_approval" {
			writeFiles(t, dir, map[string]string{protocol.ProgressFile: `{"session_id":"rv-1","request_id":"rq-` + status + `","last_activity":"2026-01-01T00:00:00Z"}`})
		}
	}
	moveScanClock(t, time.Hour)
	return st
}

func requestPeekJSON(status, id string) string {
	return `{"version":1,"status":"` + status + `","request_id":"` + id +
		`","timestamp":"2026-01-02T03:04:05.678Z","gate":"review","round":2,"max_rounds":3,"mode":"auto","group":"g1"}`
}

func moveScanClock(t testing.TB, d time.Duration) {
	t.Cleanup(func() { scanClock = time.Now })
	scanClock = func() time.Time { return time.Now().Add(d) }
}

func scan(t *testing.T, st *Store) []Entry {
	t.Helper()
	entries, err := st.Scan()
	if err != nil {
		t.Fatal(err)
	}
	return entries
}

func readScanCacheFile(t *testing.T, st *Store) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(st.Dir, ScanCacheFile))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// A scan served from the cache is the scan of the files; the cache holds
// the requests at rest and nothing under review.
func TestScanCacheAgreesWithFiles(t *testing.T) {
	st := scanStore(t)
	first := scan(t, st)
	cache := readScanCacheFile(t, st)
	for _, rest := range []string{"rq-pending", "rq-cancelled", "rq-passed", "rq-failed", "rq-blocked"} {
		if !strings.Contains(cache, "\t"+rest+"\t") {
			t.Errorf("cache lacks %s:\n%s", rest, cache)
		}
	}
	for _, active := range []string{"rq-in_progress", "rq-awaiting_approval"} {
		if strings.Contains(cache, active) {
			t.Errorf("cache holds %s, a review under way:\n%s", active, cache)
		}
	}
	for range 2 {
		if again := scan(t, st); !reflect.DeepEqual(first, again) {
			t.Fatalf("scan from the cache differs:\n%+v\n%+v", first, again)
		}
	}
}

// The cache is used while a file's key is unchanged, and a file replaced
// (by rename, as specdev writes) or rewritten in place is read again.
func TestScanCacheSeesEveryChange(t *testing.T) {
	st := scanStore(t)
	scan(t, st)
	// doctor the cached peek of 00003_s (cancelled): a scan that shows
	// the doctored status took it from the cache
	path := filepath.Join(st.Dir, ScanCacheFile)
	cache := readScanCacheFile(t, st)
	doctored := strings.Replace(cache, "\tcancelled\trq-cancelled\t", "\tpassed\trq-cancelled\t", 1)
	if err := os.WriteFile(path, []byte(doctored), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := scannedStatus(t, scan(t, st), "00003_s"); got != "passed" {
		t.Fatalf("an unchanged file was read again (status %s), not served from the cache", got)
	}
	dir := filepath.Join(st.Dir, AssignmentsDir, "00003_s")
	if err := writeAtomic(dir, fileWrite{protocol.RequestFile, []byte(requestPeekJSON("pending", "rq-next"))}); err != nil {
		t.Fatal(err)
	}
	if got := scannedStatus(t, scan(t, st), "00003_s"); got != "pending" {
		t.Fatalf("a file replaced by rename was served from the cache: status %s", got)
	}
	writeFiles(t, dir, map[string]string{protocol.RequestFile: requestPeekJSON("blocked", "rq-next-in-place")})
	if got := scannedStatus(t, scan(t, st), "00003_s"); got != "blocked" {
		t.Fatalf("a file rewritten in place was served from the cache: status %s", got)
	}
	if err := os.Remove(filepath.Join(dir, protocol.RequestFile)); err != nil {
		t.Fatal(err)
	}
	for _, e := range scan(t, st) {
		if e.Name == "00003_s" && (e.Request != nil || e.Err != nil) {
			t.Fatalf("a removed request was served from the cache: %+v", e)
		}
	}
}

func scannedStatus(t *testing.T, entries []Entry, name string) protocol.Status {
	t.Helper()
	for _, e := range entries {
		if e.Name == name {
			if e.Request == nil {
				t.Fatalf("%s: no request (%v)", name, e.Err)
			}
			return e.Request.Status
		}
	}
	t.Fatalf("%s not scanned", name)
	return ""
}

// A request written a moment ago is not kept: a change within the file
// system's timestamp granularity would not move its key.
func TestScanCacheKeepsOnlySettledFiles(t *testing.T) {
	st := scanStore(t)
	scanClock = time.Now
	scan(t, st)
	if cache := readScanCacheFile(t, st); cache != scanCacheHeader {
		t.Fatalf("the cache kept files written just now:\n%s", cache)
	}
}

// A malformed cache is ignored whole, the scan is the scan of the files,
// and the cache is written anew.
func TestScanCacheIgnoresBadCache(t *testing.T) {
	st := scanStore(t)
	want := scan(t, st)
	good := readScanCacheFile(t, st)
	line := strings.SplitN(good, "\n", 3)[1]
	reversed := strings.SplitAfter(strings.TrimPrefix(good, scanCacheHeader), "\n")
	slices.Reverse(reversed)
	bad := map[string]string{
		"garbage":            "not a cache",
		"other version":      strings.Replace(good, "cache 1", "cache 2", 1),
		"no final newline":   strings.TrimSuffix(good, "\n"),
		"a field too many":   strings.Replace(good, line, line+"\textra", 1),
		"a field too few":    strings.Replace(good, line, line[:strings.LastIndex(line, "\t")], 1),
		"duplicate":          good + line + "\n",
		"out of order":       scanCacheHeader + strings.Join(reversed, ""),
		"bad name":           strings.Replace(good, line, "../x"+line[strings.Index(line, "\t"):], 1),
		"unknown status":     strings.Replace(good, "\tpending\t", "\tbogus\t", 1),
		"review under way":   strings.Replace(good, "\tpending\t", "\tin_progress\t", 1),
		"newer version":      strings.Replace(good, "\t1\tpending\t", "\t9\tpending\t", 1),
		"control byte":       strings.Replace(good, "\trq-pending\t", "\trq-\x1b[2J\t", 1),
		"round 0":            strings.Replace(good, "\treview\t2\t", "\treview\t0\t", 1),
		"negative size":      strings.Replace(good, line, strings.Replace(line, "\t", "\t-", 3), 1),
		"bool spelled T":     strings.Replace(good, "\tfalse\n", "\tT\n", 1),
		"oversized line":     strings.Replace(good, line, line+strings.Repeat("x", scanLineLimit), 1),
		"timestamp not a nr": strings.Replace(good, "\t1767323045678000000\t", "\tsoon\t", 1),
	}
	path := filepath.Join(st.Dir, ScanCacheFile)
	for name, content := range bad {
		if content == good {
			t.Fatalf("%s: the corruption did not apply", name)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, ok := decodeScanCache([]byte(content)); ok {
			t.Errorf("%s: decoded", name)
		}
		if got := scan(t, st); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: scan differs:\n%+v\n%+v", name, got, want)
		}
		if again := readScanCacheFile(t, st); again != good {
			t.Errorf("%s: the cache was not rewritten:\n%s", name, again)
		}
	}
}

// The cache is written only where .gitignore ignores it, and never
// through a symlink.
func TestScanCacheWritesSafely(t *testing.T) {
	st := scanStore(t)
	writeFiles(t, st.Dir, map[string]string{GitignoreFile: ".specdev.lock\n"})
	scan(t, st)
	if _, err := os.Lstat(filepath.Join(st.Dir, ScanCacheFile)); !os.IsNotExist(err) {
		t.Fatalf("cache written though .gitignore does not ignore it (%v)", err)
	}
	if !st.readScanCache().off {
		t.Fatal("with no cache to read and none to write, a scan still keys every request")
	}
	writeFiles(t, st.Dir, map[string]string{GitignoreFile: string(gitignore())})
	target := filepath.Join(t.TempDir(), "elsewhere")
	writeFiles(t, filepath.Dir(target), map[string]string{"elsewhere": "keep me"})
	if err := os.Symlink(target, filepath.Join(st.Dir, ScanCacheFile)); err != nil {
		t.Fatal(err)
	}
	scan(t, st)
	if data, _ := os.ReadFile(target); string(data) != "keep me" {
		t.Fatalf("written through the symlink: %q", data)
	}
}

// Whatever decodes encodes back to the same bytes; nothing panics.
func FuzzScanCacheDecode(f *testing.F) {
	f.Add([]byte(scanCacheHeader + "00001_a\t1\t2\t3\t4\t5\t1\tpending\trq-1\t6\treview\t1\t3\tauto\t\t\tfalse\n"))
	f.Add([]byte(scanCacheHeader))
	f.Fuzz(func(t *testing.T, data []byte) {
		entries, ok := decodeScanCache(data)
		if !ok {
			return
		}
		if again, _ := encodeScanCache(entries); string(again) != string(data) {
			t.Fatalf("re-encoded differently:\n%q\n%q", data, again)
		}
	})
}

// What the cache keeps reads back as it was, at the edges of every field;
// what it would not read back, it does not keep.
func TestScanCacheRoundTrip(t *testing.T) {
	moveScanClock(t, time.Hour)
	at := protocol.At(time.Date(2026, 1, 2, 3, 4, 5, 678000000, time.UTC))
	kept := []cachedPeek{ // in name order, as the cache holds them
		{"00001_edges", fileKey{dev: 0, ino: 1<<64 - 1, size: protocol.MaxFileSize, mtime: 0, ctime: 1}, protocol.RequestPeek{
			Version: 1, Status: protocol.StatusPending, Timestamp: at, Round: 1, Checkpoint: true}},
		{"A.b-c_d", fileKey{dev: 1 << 63, ino: 10, size: 0, mtime: 1 << 60, ctime: 1 << 60}, protocol.RequestPeek{
			Version: 1, Status: protocol.StatusBlocked, RequestID: "rq-1", Gate: "review", Round: scanIntLimit, MaxRounds: scanIntLimit,
			Mode: "manual", ContinuedAt: at, Group: "grüppe ✓", Timestamp: at}},
	}
	c := &scanCache{started: scanClock()}
	for _, e := range slices.Backward(kept) { // the writer sorts
		c.keep(e.name, e.key, e.peek)
	}
	data, ok := encodeScanCache(c.next())
	if !ok {
		t.Fatal("two entries exceed the cache's size limit")
	}
	got, ok := decodeScanCache(data)
	if !ok || !reflect.DeepEqual(got, kept) {
		t.Fatalf("round trip:\n%+v\n%+v (ok %v)", got, kept, ok)
	}
	if _, ok := encodeScanCache(append(kept, kept[0])); ok {
		t.Error("a cache that names an assignment twice would be written")
	}
	edges := kept[0].peek
	refused := map[string]cachedPeek{
		"negative mtime":  {"00001_x", fileKey{mtime: -1, ctime: 1}, edges},
		"oversized file":  {"00001_x", fileKey{size: protocol.MaxFileSize + 1}, edges},
		"bad name":        {"../x", fileKey{}, edges},
		"under review":    {"00001_x", fileKey{}, protocol.RequestPeek{Version: 1, Status: protocol.StatusInProgress, Round: 1}},
		"round left out":  {"00001_x", fileKey{}, protocol.RequestPeek{Version: 1, Status: protocol.StatusPending}},
		"tab in a string": {"00001_x", fileKey{}, protocol.RequestPeek{Version: 1, Status: protocol.StatusPending, Round: 1, Gate: "a\tb"}},
		"long string":     {"00001_x", fileKey{}, protocol.RequestPeek{Version: 1, Status: protocol.StatusPending, Round: 1, Group: strings.Repeat("g", scanStringLimit+1)}},
		"newer version":   {"00001_x", fileKey{}, protocol.RequestPeek{Version: protocol.RequestVersion + 1, Status: protocol.StatusPending, Round: 1}},
		"year 1969":       {"00001_x", fileKey{}, protocol.RequestPeek{Version: 1, Status: protocol.StatusPending, Round: 1, Timestamp: protocol.At(time.Unix(-1, 0))}},
	}
	for why, e := range refused {
		c := &scanCache{started: scanClock()}
		c.keep(e.name, e.key, e.peek)
		if len(c.next()) != 0 {
			t.Errorf("%s: kept", why)
		}
	}
	c = &scanCache{started: time.Now()}
	c.keep("00001_x", fileKey{mtime: time.Now().UnixNano(), ctime: time.Now().UnixNano()}, edges)
	if len(c.next()) != 0 {
		t.Error("kept a file that changed just now")
	}
}

// A cache larger than a reader takes is not written: never write what
// would be refused on read.
func TestScanCacheTooLargeIsNotWritten(t *testing.T) {
	peek := protocol.RequestPeek{Version: 1, Status: protocol.StatusPassed, Round: 1,
		RequestID: strings.Repeat("r", scanStringLimit), Gate: strings.Repeat("g", scanStringLimit)}
	var entries []cachedPeek
	for i := 0; i < scanCacheLimit/(2*scanStringLimit)+1; i++ {
		entries = append(entries, cachedPeek{fmt.Sprintf("%06d_x", i), fileKey{ino: 1, mtime: 1, ctime: 1}, peek})
	}
	if data, ok := encodeScanCache(entries); ok {
		t.Fatalf("a cache of %d bytes (limit %d) would be written", len(data), scanCacheLimit)
	}
}

// The caches in .specdev are written without a lock, so their writer
// removes the temp files a killed writer left there: those a minute old
// or more, never a live writer's fresh one, nor anything else.
func TestCacheWriterRemovesStaleTemps(t *testing.T) {
	st := scanStore(t)
	old := time.Now().Add(-2 * staleTemp)
	files := map[string]bool{ // name → removed
		"..scan.cache.tmp-111":   true,
		".config.json.tmp-222":   true,
		"..config.valid.tmp-333": true,
		"..scan.cache.tmp-444":   false, // fresh: a live writer's
		".keep-me":               false, // not a temp file
	}
	for name, stale := range files {
		writeFiles(t, st.Dir, map[string]string{name: "x"})
		if stale || name == ".keep-me" {
			if err := os.Chtimes(filepath.Join(st.Dir, name), old, old); err != nil {
				t.Fatal(err)
			}
		}
	}
	dir := filepath.Join(st.Dir, ".dir.tmp-555") // old, but not a file
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(dir, old, old); err != nil {
		t.Fatal(err)
	}
	scan(t, st) // writes the poll cache
	readScanCacheFile(t, st)
	files[".dir.tmp-555"] = false
	for name, removed := range files {
		_, err := os.Lstat(filepath.Join(st.Dir, name))
		if gone := os.IsNotExist(err); gone != removed {
			t.Errorf("%s: removed %v, want %v (%v)", name, gone, removed, err)
		}
	}
}
