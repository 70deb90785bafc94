package checkpoint

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/specdev/specdev/protocol"
)

// TestMain keeps the poll caches of the tests out of the user's cache
// folder.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "specdev-cache-")
	if err == nil {
		os.Setenv("XDG_CACHE_HOME", dir)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// TestPollNeverDecidesOtherwise: whatever the poll cache holds, Poll
// returns exactly the entries of Scan that are not at rest. The requests
// of every status (and invalid ones) are polled cold, then warm, then
// after each kind of change a file can go through: rewritten by rename
// (as specdev writes), rewritten in place with the same size, made
// invalid in place, given a new mode (only the change time moves), and
// removed.
func TestPollNeverDecidesOtherwise(t *testing.T) {
	st := pollStore(t)
	defer movePollClock(time.Minute)()
	statuses := []protocol.Status{protocol.StatusPending, protocol.StatusInProgress, protocol.StatusAwaitingApproval,
		protocol.StatusPassed, protocol.StatusFailed, protocol.StatusCancelled, protocol.StatusBlocked}
	for i, status := range statuses {
		writeRequest(t, st, fmt.Sprintf("%05d_%s", i+1, status), status)
	}
	writeRequest(t, st, "00090_passed", protocol.StatusPassed)
	writeRequest(t, st, "00091_passed", protocol.StatusPassed)
	writeRequest(t, st, "00092_passed", protocol.StatusPassed)
	writeRequest(t, st, "00093_passed", protocol.StatusPassed)
	os.MkdirAll(st.folder("00098_invalid"), 0o755)
	writeFiles(t, st.folder("00098_invalid"), map[string]string{protocol.RequestFile: `{"version":1,"status":"passed","changed_files":[""]}`})
	os.MkdirAll(st.folder("00099_empty"), 0o755)

	check := func(when string) {
		t.Helper()
		all, err := st.Scan()
		if err != nil {
			t.Fatal(err)
		}
		polled, err := st.Poll()
		if err != nil {
			t.Fatal(err)
		}
		if got, want := entryNames(polled), entryNames(notAtRest(all)); !slices.Equal(got, want) {
			t.Fatalf("%s: Poll returned %q, want %q (Scan less what is at rest)", when, got, want)
		}
	}
	check("cold")
	if n := cachedNames(t, st); n != 4+4 {
		t.Fatalf("the cache holds %d requests at rest, want 8", n)
	}
	check("warm")

	path := func(name string) string { return filepath.Join(st.folder(name), protocol.RequestFile) }
	writeRequest(t, st, "00004_passed", protocol.StatusPending) // by rename
	inPlace(t, path("00090_passed"), `"passed"`, `"failed"`)    // same length, still at rest
	inPlace(t, path("00091_passed"), `"passed"`, `"Passed"`)    // same length, invalid now
	inPlace(t, path("00092_passed"), `"passed"`, `"failed"`)
	inPlace(t, path("00092_passed"), `"failed"`, `"blockd"`) // two writes, the second invalid
	if err := os.Chmod(path("00093_passed"), 0o600); err != nil {
		t.Fatal(err)
	}
	os.Remove(path("00005_failed"))
	check("after the changes")
	check("after the changes, warm")
}

// TestPollCacheWaitsForAFileToSettle: a request written within pollSettle
// of the poll is read again next time (a write in the same timestamp tick
// would not move its key); once it has rested, it is not.
func TestPollCacheWaitsForAFileToSettle(t *testing.T) {
	st := pollStore(t)
	writeRequest(t, st, "00001_x", protocol.StatusPassed)
	if _, err := st.Poll(); err != nil {
		t.Fatal(err)
	}
	if n := cachedNames(t, st); n != 0 {
		t.Fatalf("a request written just now is cached (%d entries)", n)
	}
	defer movePollClock(pollSettle)()
	if _, err := st.Poll(); err != nil {
		t.Fatal(err)
	}
	if n := cachedNames(t, st); n != 1 {
		t.Fatalf("a settled request at rest is not cached (%d entries)", n)
	}
}

// TestPollCacheIsBelievedWhole: a cache cut short, or
// written by another build, is not believed at all, so a pending request
// its other lines call at rest is polled. The cache lives in the cache
// folder, never in the project.
func TestPollCacheIsBelievedWhole(t *testing.T) {
	st := pollStore(t)
	defer movePollClock(time.Minute)()
	writeRequest(t, st, "00001_x", protocol.StatusPending)
	before := dirFiles(t, st.Dir)
	c := st.openPollCache()
	key, ok := restKeyOf(st.folder("00001_x"))
	if !ok {
		t.Skip("no poll cache on this system")
	}
	encode := func(build string) string {
		var b bytes.Buffer
		if err := gob.NewEncoder(&b).Encode(pollCacheFile{build, map[string]restKey{"00001_x": key}}); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	whole := encode(c.build)
	for name, content := range map[string]string{
		"malformed":     whole[:len(whole)-1],
		"another build": encode("0-0"),
	} {
		if err := os.WriteFile(c.path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		polled, err := st.Poll()
		if err != nil {
			t.Fatal(err)
		}
		if got := entryNames(polled); !slices.Equal(got, []string{"00001_x"}) {
			t.Errorf("%s: Poll returned %q, want the pending request", name, got)
		}
	}
	if !strings.HasPrefix(c.path, st.CacheDir) {
		t.Errorf("the cache %s is not in the cache folder %s", c.path, st.CacheDir)
	}
	if after := dirFiles(t, st.Dir); len(after) != len(before) {
		t.Errorf("polling wrote into the project: %v", after)
	}
}

func pollStore(t *testing.T) *Store {
	t.Helper()
	dir := filepath.Join(t.TempDir(), protocol.StateDir)
	if err := os.MkdirAll(filepath.Join(dir, AssignmentsDir), 0o755); err != nil {
		t.Fatal(err)
	}
	st, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	st.CacheDir = t.TempDir()
	return st
}

// movePollClock makes polls start d later; it returns the undo.
func movePollClock(d time.Duration) func() {
	old := pollClock
	pollClock = func() time.Time { return time.Now().Add(d) }
	return func() { pollClock = old }
}

// writeRequest writes a valid request of the status by rename, as
// specdev does.
func writeRequest(t *testing.T, st *Store, name string, status protocol.Status) {
	t.Helper()
	if err := os.MkdirAll(st.folder(name), 0o755); err != nil {
		t.Fatal(err)
	}
	data, err := protocol.EncodeRequest(&protocol.Request{Version: 1, Status: status, Mode: protocol.ModeAuto, Gate: "review",
		ChangedFiles: []string{"a.go"}, Timestamp: protocol.At(time.Now())}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := writeAtomic(st.folder(name), fileWrite{protocol.RequestFile, data}); err != nil {
		t.Fatal(err)
	}
}

// inPlace rewrites the file in place, replacing old with new.
func inPlace(t *testing.T, path, old, new string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(data), old) {
		t.Fatalf("%s: %v, or no %s in it", path, err, old)
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteAt([]byte(strings.Replace(string(data), old, new, 1)), 0); err != nil {
		t.Fatal(err)
	}
}

func notAtRest(entries []Entry) []Entry {
	var out []Entry
	for _, e := range entries {
		if e.Err != nil || e.Request == nil || e.Request.Status.Active() {
			out = append(out, e)
		}
	}
	return out
}

func entryNames(entries []Entry) []string {
	var names []string
	for _, e := range entries {
		names = append(names, e.Name)
	}
	return names
}

// cachedNames counts the entries of st's poll cache.
func cachedNames(t *testing.T, st *Store) int {
	t.Helper()
	return len(st.openPollCache().old)
}
