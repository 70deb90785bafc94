package tests

import (
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/specdev/specdev/checkpoint"
	"github.com/specdev/specdev/protocol"
)

// TestDrainReviewers: 8 reviewers, each a loop of real specdev processes
// (check, record every file, verdict pass), drain 200 pending requests.
// Every review is claimed exactly once, in one session, and passes; no
// reviewer is ever refused a file it was told to review.
func TestDrainReviewers(t *testing.T) {
	const reviewers, requests = 8, 200
	root, dir := newProject(t, "60s")
	st := testStore(t, dir)
	names := make([]string, requests)
	for i := range names {
		files := make([]string, i%3+1)
		for j := range files {
			files[j] = fmt.Sprintf("src/pkg%03d/file%d.go", i, j)
		}
		names[i] = addAssignment(t, st, fmt.Sprintf("%05d_drain", i+1), files...).Name
	}

	start := time.Now()
	claimed := make([][]string, reviewers)
	var wg sync.WaitGroup
	for i := range reviewers {
		wg.Go(func() { claimed[i] = drainAs(t, root, fmt.Sprintf("rv-%d", i)) })
	}
	wg.Wait()
	t.Logf("%d reviewers drained %d requests in %v; claims per reviewer: %v", reviewers, requests, time.Since(start).Round(time.Millisecond), lens(claimed))

	var all []string
	for _, c := range claimed {
		all = append(all, c...)
	}
	slices.Sort(all)
	if !slices.Equal(all, names) {
		t.Errorf("the sessions claimed %d reviews (%d distinct), want each of the %d exactly once", len(all), len(slices.Compact(slices.Clone(all))), requests)
	}
	for _, name := range names {
		checkPassedOnce(t, st, name)
	}
}

// reply is the --json document of a specdev command.
type reply struct {
	OK    bool   `json:"ok"`
	State string `json:"state"`
	Data  struct {
		Assignment string   `json:"assignment"`
		Session    string   `json:"session"`
		Lease      string   `json:"lease"`
		Kind       string   `json:"kind"`
		Remaining  []string `json:"remaining"`
	} `json:"data"`
	Error *struct{ Code, Message string } `json:"error"`
}

// drainAs is one reviewer: poll, record every file, pass, until a poll
// finds nothing to do (exit 3). It returns the assignments it claimed and
// stops at the first unexpected answer.
func drainAs(t *testing.T, root, session string) (claimed []string) {
	lease := ""
	run := func(args ...string) (r reply, code int, ok bool) {
		out, stderr, code := runSpecdev(t, root, append([]string{"--json"}, append(args, "--session", session, "--lease", lease)...)...)
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Errorf("%s: specdev %v: exit %d, not one JSON document (%v):\n%s%s", session, args, code, err, out, stderr)
			return r, code, false
		}
		return r, code, true
	}
	expect := func(state string, args ...string) bool {
		r, code, ok := run(args...)
		if ok && (code != 0 || r.State != state) {
			t.Errorf("%s: specdev %v: exit %d, state %q, error %+v; want exit 0 and %s", session, args, code, r.State, r.Error, state)
			return false
		}
		return ok
	}
	for {
		poll, code, ok := run("check")
		switch {
		case !ok:
			return claimed
		case code == 3:
			return claimed
		case code != 0 || poll.State != "claimed" || poll.Data.Kind != "new":
			t.Errorf("%s: specdev check: exit %d, state %q, kind %q, error %+v; want a new claim, or exit 3",
				session, code, poll.State, poll.Data.Kind, poll.Error)
			return claimed
		}
		claimed = append(claimed, poll.Data.Assignment)
		lease = poll.Data.Lease
		for _, file := range poll.Data.Remaining {
			if !expect("recorded", "check", "record", file) {
				return claimed
			}
		}
		if !expect(string(protocol.StatusPassed), "check", "verdict", "pass", "--summary", "ok") {
			return claimed
		}
	}
}

// checkPassedOnce asserts the review passed with every file reviewed, and
// its history has one claim and one pass, by the same session.
func checkPassedOnce(t *testing.T, st *checkpoint.Store, name string) {
	t.Helper()
	a, err := st.Assignment(name)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := a.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	if snap.Request.Status != protocol.StatusPassed || !slices.Equal(snap.Progress.FilesReviewed, snap.Request.ChangedFiles) {
		t.Errorf("%s: status %s, reviewed %v of %v; want passed with all reviewed", name, snap.Request.Status,
			snap.Progress.FilesReviewed, snap.Request.ChangedFiles)
	}
	events, torn, err := a.History()
	if err != nil || torn {
		t.Fatalf("%s: History() torn=%v err=%v", name, torn, err)
	}
	count := map[protocol.EventName][]string{}
	for _, e := range events {
		count[e.Event] = append(count[e.Event], e.Session)
	}
	claims, passes := count[protocol.EventClaimed], count[protocol.EventPassed]
	if len(claims) != 1 || len(passes) != 1 || claims[0] != passes[0] || len(count[protocol.EventFileReviewed]) != len(snap.Request.ChangedFiles) {
		t.Errorf("%s: history has claimed by %v, passed by %v, %d file_reviewed; want one claim and one pass by the same session, one event per file",
			name, claims, passes, len(count[protocol.EventFileReviewed]))
	}
}

func lens(lists [][]string) []int {
	out := make([]int, len(lists))
	for i, l := range lists {
		out[i] = len(l)
	}
	return out
}
