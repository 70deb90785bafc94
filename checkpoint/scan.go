package checkpoint

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/specdev/specdev/protocol"
)

// Entry is one assignment as a poll sees it: peeked, not validated, so
// that a poll over many assignments costs little more than reading them.
type Entry struct {
	Name     string
	Request  *protocol.RequestPeek  // nil: no request; may be the poll cache's own: read, never change
	Progress *protocol.ProgressPeek // read only for reviews in progress or awaiting approval
	Err      error                  // a file could not be read or decoded

	ProgressWritten time.Time // when the progress file was last written (with Progress)
}

// Idle is how long e's review has been idle at now, and whether its
// last_activity looks skewed (see Idle). e.Progress must be set.
func (e Entry) Idle(now time.Time) (time.Duration, bool) {
	return Idle(now, e.Progress.LastActivity.Time, e.ProgressWritten)
}

// Scan peeks at every assignment's request (and the progress of active
// reviews).
func (s *Store) Scan() ([]Entry, error) {
	folders, err := s.folders()
	if err != nil {
		return nil, err
	}
	cache := s.readScanCache()
	if !cache.off {
		cache.dir = openScanDir(filepath.Join(s.Dir, AssignmentsDir))
		defer closeScanDir(cache.dir)
	}
	entries := make([]Entry, 0, len(folders))
	for _, f := range folders {
		entries = append(entries, s.peek(f, cache))
	}
	s.writeScanCache(cache)
	return entries, nil
}

// peek reads the assignment in folder f: its request from the poll cache
// when the file is unchanged (scancache.go), else from the file. A folder
// that is a symlink is refused as the listing typed it, without a stat of
// its own: peeking only reads, and whatever acts on an assignment checks
// its folder again.
func (s *Store) peek(f fs.DirEntry, cache *scanCache) Entry {
	name := f.Name()
	e := Entry{Name: name}
	a := Assignment{Name: name, store: s} // Dir only when a file is read
	if !f.IsDir() {
		e.Err = linkError(a.RelDir(), f.Type(), true)
		return e
	}
	key, keyed, missing := cache.stat(&a)
	if missing {
		return e
	}
	if keyed {
		if rp, ok := cache.lookup(name, key); ok {
			e.Request = rp
			return e
		}
	}
	a.Dir = s.folder(name)
	data, err := a.readFile(protocol.RequestFile)
	if data == nil {
		e.Err = err
		return e
	}
	rp, err := protocol.PeekRequest(a.rel(protocol.RequestFile), data)
	if err != nil {
		e.Err = err
		return e
	}
	e.Request = &rp
	if rp.Status != protocol.StatusInProgress && rp.Status != protocol.StatusAwaitingApproval {
		if keyed {
			cache.keep(name, key, rp)
		}
		return e
	}
	data, err = a.readFile(protocol.ProgressFile)
	if data == nil {
		e.Err = err
		return e
	}
	pp, err := protocol.PeekProgress(a.rel(protocol.ProgressFile), data)
	if err != nil {
		e.Err = err
		return e
	}
	e.Progress = &pp
	e.ProgressWritten = a.written(protocol.ProgressFile)
	return e
}

// folder is the path of assignment name's folder.
func (s *Store) folder(name string) string { return filepath.Join(s.Dir, AssignmentsDir, name) }

// Candidates orders what a reviewer session may claim: its own review
// first, then stale reviews (oldest activity first), then pending requests
// (oldest first). force adds live reviews of other sessions after the stale
// ones.
func (s *Store) Candidates(entries []Entry, session string, force bool) []string {
	var own, stale, live, pending []Entry
	now := s.Now()
	for _, e := range entries {
		switch {
		case e.Request == nil:
		case e.Request.Status == protocol.StatusPending:
			pending = append(pending, e)
		case e.Request.Status != protocol.StatusInProgress || e.Progress == nil:
		case e.Progress.SessionID == session && session != "":
			own = append(own, e)
		case idle(e, now) >= s.StaleAfter():
			stale = append(stale, e)
		case force:
			live = append(live, e)
		}
	}
	byActivity := func(list []Entry) {
		sort.SliceStable(list, func(i, j int) bool { return idle(list[i], now) > idle(list[j], now) })
	}
	byActivity(stale)
	byActivity(live)
	sort.SliceStable(pending, func(i, j int) bool {
		return pending[i].Request.Timestamp.Before(pending[j].Request.Timestamp.Time)
	})
	var names []string
	for _, group := range [][]Entry{own, stale, live, pending} {
		for _, e := range group {
			names = append(names, e.Name)
		}
	}
	return names
}

func idle(e Entry, now time.Time) time.Duration {
	d, _ := e.Idle(now)
	return d
}

// NextStale returns when the earliest live review of another session turns
// stale, or zero if none will: a waiting poll must look again then.
func (s *Store) NextStale(entries []Entry, session string) time.Time {
	var next time.Time
	now := s.Now()
	for _, e := range entries {
		if e.Request == nil || e.Request.Status != protocol.StatusInProgress || e.Progress == nil || e.Progress.SessionID == session {
			continue
		}
		active, _ := ActiveAt(now, e.Progress.LastActivity.Time, e.ProgressWritten)
		at := active.Add(s.StaleAfter())
		if next.IsZero() || at.Before(next) {
			next = at
		}
	}
	return next
}

// HeldBy finds the review session holds. If it holds several (claimed by
// name), a *protocol.UsageError lists them. If it holds none, the error says why: a
// *DisplacedError when another session took it over, a conflict when it
// was cancelled, released or decided. An assignment whose files cannot be
// read could be the session's: its error (a *protocol.InvalidError or
// *LinkError naming the file) is returned rather than "holds no review".
func (s *Store) HeldBy(session string) (*Assignment, error) {
	entries, err := s.Scan()
	if err != nil {
		return nil, err
	}
	var held []string
	for _, e := range entries {
		if e.Progress != nil && e.Progress.SessionID == session && e.Request.Status == protocol.StatusInProgress {
			held = append(held, e.Name)
		}
	}
	switch {
	case len(held) == 1:
		return s.Assignment(held[0])
	case len(held) > 1:
		return nil, &protocol.UsageError{Msg: fmt.Sprintf("session %s holds several reviews: %s", session, strings.Join(held, ", ")),
			Hint: "name one: --assignment " + held[0]}
	}
	for _, e := range entries {
		if e.Err != nil {
			return nil, unreadable(session, e.Name, e.Err)
		}
	}
	if err := s.lostReview(entries, session); err != nil {
		return nil, err
	}
	return nil, conflict("claim a review: "+ClaimCommand(session),
		"session %s holds no review", session)
}

// unreadable says that session may hold a review that cannot be read.
func unreadable(session, name string, err error) error {
	return fmt.Errorf("cannot tell whether session %s holds review %s: %w", session, name, err)
}

// lostReview explains what became of a review session once held. A review
// that peeks well but fails full validation, and may be the session's,
// is reported with its error.
func (s *Store) lostReview(entries []Entry, session string) error {
	for _, e := range entries {
		a, err := s.Assignment(e.Name)
		if err != nil || e.Request == nil {
			continue
		}
		snap, err := a.Snapshot()
		if err != nil && (e.Progress == nil || e.Progress.SessionID == session) {
			return unreadable(session, e.Name, err)
		}
		if err != nil || snap.Progress == nil || !snap.Current() {
			continue
		}
		if snap.Progress.SessionID != session {
			if err, ok := a.notHolder(session, snap.Progress).(*DisplacedError); ok {
				return err
			}
			continue
		}
		return conflict("pick up another review: "+ClaimCommand(session),
			"review %s is %s; session %s can no longer change it", a.Name, describeStatus(snap.Request.Status), session)
	}
	return nil
}
