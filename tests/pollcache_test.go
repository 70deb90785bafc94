package tests

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/specdev/specdev/checkpoint"
)

// TestPollCacheNeverHidesWork: with the poll cache holding every
// request at rest (cancelled), each request is asked for again (pending,
// written by rename as specdev writes), and 4 reviewers, each a loop of
// real specdev processes that all read and rewrite the cache, drain them.
// Every request is claimed exactly once: the cache hides no work, and
// racing writers leave a cache every poll can use.
func TestPollCacheNeverHidesWork(t *testing.T) {
	const reviewers, requests = 4, 40
	root, dir := newProject(t, "60s")
	ignoreMachineFiles(t, dir)
	st := testStore(t, dir)
	names := make([]string, requests)
	files := make([][]string, requests)
	for i := range names {
		files[i] = []string{fmt.Sprintf("src/pkg%03d/file.go", i)}
		a := addAssignment(t, st, fmt.Sprintf("%05d_cached", i+1), files[i]...)
		if _, err := a.Cancel(context.Background()); err != nil {
			t.Fatal(err)
		}
		names[i] = a.Name
	}
	time.Sleep(3500 * time.Millisecond) // the cache keeps a request once it has rested 3 s
	if _, stderr, code := runSpecdev(t, root, "check"); code != 0 {
		t.Fatalf("specdev check (a look): exit %d\n%s", code, stderr)
	}
	cache, err := os.ReadFile(filepath.Join(dir, checkpoint.ScanCacheFile))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(cache), "\tcancelled\t"); n != requests {
		t.Fatalf("the cache holds %d cancelled requests, want %d:\n%s", n, requests, cache)
	}

	for i, name := range names {
		a, err := st.Assignment(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := a.RequestReview(context.Background(), checkpoint.NewRequest{ChangedFiles: files[i], Notes: "again"}); err != nil {
			t.Fatal(err)
		}
	}
	claimed := make([][]string, reviewers)
	var wg sync.WaitGroup
	for i := range reviewers {
		wg.Go(func() { claimed[i] = drainAs(t, root, fmt.Sprintf("rv-%d", i)) })
	}
	wg.Wait()
	var all []string
	for _, c := range claimed {
		all = append(all, c...)
	}
	slices.Sort(all)
	if !slices.Equal(all, names) {
		t.Fatalf("the sessions claimed %v, want each of the %d requests exactly once", all, requests)
	}
	for _, name := range names {
		checkPassedOnce(t, st, name)
	}
	if _, stderr, code := runSpecdev(t, root, "check", "--session", "rv-last"); code != 3 {
		t.Errorf("a poll after the drain: exit %d, want 3 (nothing to do)\n%s", code, stderr)
	}
}

// TestPollCacheKill9MidWrite kills a poll at random moments while it
// writes the cache from scratch, 40 times. After each kill the cache is
// absent or whole (a killed writer leaves at most a temp file, which git
// ignores), and the next poll says exactly what a poll without the cache
// says.
func TestPollCacheKill9MidWrite(t *testing.T) {
	const kills, requests = 40, 60
	root, dir := newProject(t, "60s")
	st := testStore(t, dir)
	for i := range requests {
		a := addAssignment(t, st, fmt.Sprintf("%05d_kill", i+1), fmt.Sprintf("src/f%d.go", i))
		if i%2 == 0 {
			if _, err := a.Cancel(context.Background()); err != nil {
				t.Fatal(err)
			}
		}
	}
	time.Sleep(3500 * time.Millisecond)                     // every request has settled
	want, _, code := runSpecdev(t, root, "--json", "check") // no .gitignore line yet: no cache
	if code != 0 {
		t.Fatalf("specdev check without the cache: exit %d", code)
	}
	ignoreMachineFiles(t, dir)
	cachePath := filepath.Join(dir, checkpoint.ScanCacheFile)
	whole := 0
	for run := range kills {
		if err := os.Remove(cachePath); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		cmd := exec.Command(specdevBin(), "check")
		cmd.Dir = root
		cmd.Env = withoutSpecdevVars(os.Environ())
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(rand.IntN(12000)) * time.Microsecond)
		cmd.Process.Kill()
		cmd.Wait()
		if data, err := os.ReadFile(cachePath); err == nil {
			if !strings.HasPrefix(string(data), "specdev scan cache 1\n") || !strings.HasSuffix(string(data), "\n") {
				t.Fatalf("run %d: the killed poll left a cache that is not whole:\n%q", run, data)
			}
			whole++
		}
		for _, e := range readDir(t, dir) {
			if strings.HasPrefix(e, ".") && strings.Contains(e, ".tmp-") && !strings.HasPrefix(e, "."+checkpoint.ScanCacheFile+".tmp-") {
				t.Errorf("run %d: unexpected temp file %s", run, e)
			}
		}
		if got, _, code := runSpecdev(t, root, "--json", "check"); code != 0 || got != want {
			t.Fatalf("run %d: the poll after the kill (exit %d) says\n%s\nwithout the cache it says\n%s", run, code, got, want)
		}
	}
	t.Logf("%d kills: a whole cache was there after %d of them", kills, whole)
}

// ignoreMachineFiles writes the .gitignore init writes, which lets polls
// keep the cache (newProject writes none).
func ignoreMachineFiles(t *testing.T, dir string) {
	t.Helper()
	gitignore := strings.Join(checkpoint.Ignored, "\n") + "\n"
	if err := os.WriteFile(filepath.Join(dir, checkpoint.GitignoreFile), []byte(gitignore), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readDir(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, len(entries))
	for i, e := range entries {
		names[i] = e.Name()
	}
	return names
}
