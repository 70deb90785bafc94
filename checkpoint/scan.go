package checkpoint

import (
	"cmp"
	"fmt"
	"io/fs"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/specdev/specdev/protocol"
)

// Entry is one assignment as a poll sees it: its request, and the
// progress of a review in progress or awaiting approval (with when its
// file was last written), each read and validated as every command reads
// them, without the lock. Poll keeps the bytes decoded, for HeldBy.
type Entry struct {
	Name string
	Snapshot
	Err error // a file could not be read or is invalid
}

// Scan reads every assignment's request (and the progress of active
// reviews), in name order. The assignments are read on every core:
// status over 10,000 assignments is to take at most 300 ms, and reading
// and decoding 10,000 requests one after another took more.
func (s *Store) Scan() ([]Entry, error) {
	folders, err := s.folders()
	if err != nil {
		return nil, err
	}
	entries := make([]Entry, len(folders))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(folders)) {
		wg.Go(func() {
			for i := next.Add(1) - 1; i < int64(len(folders)); i = next.Add(1) - 1 {
				entries[i] = s.entry(folders[i])
				entries[i].requestData, entries[i].progressData = nil, nil // the bytes are not kept for every assignment
			}
		})
	}
	wg.Wait()
	return entries, nil
}

// entry reads the assignment in folder f. A folder that is a symlink is
// refused as the listing typed it, without a stat of its own: a scan only
// reads, and whatever acts on an assignment checks its folder again.
func (s *Store) entry(f fs.DirEntry) Entry {
	e := Entry{Name: f.Name()}
	a := Assignment{Name: e.Name, store: s, Dir: s.folder(e.Name)}
	if !f.IsDir() {
		e.Err = linkError(a.RelDir(), f.Type(), true)
		return e
	}
	if e.Request, e.requestData, e.Err = readState(&a, protocol.RequestFile, protocol.DecodeRequest, nil, nil); e.Request == nil || e.Err != nil {
		return e
	}
	if st := e.Request.Status; st != protocol.StatusInProgress && st != protocol.StatusAwaitingApproval {
		return e
	}
	if e.Progress, e.progressData, e.Err = readState(&a, protocol.ProgressFile, protocol.DecodeProgress, nil, nil); e.Progress != nil {
		e.ProgressWritten = a.written(protocol.ProgressFile)
	}
	return e
}

// folder is the path of assignment name's folder.
func (s *Store) folder(name string) string { return filepath.Join(s.Dir, AssignmentsDir, name) }

// Candidates orders what a reviewer session may claim: its own review
// first, then stale reviews (oldest activity first), then pending requests
// (oldest first). force adds live reviews of other sessions after the stale
// ones.
func (s *Store) Candidates(entries []Entry, session string, force bool) []string {
	var own, stale, pending []Entry // stale: with force, live ones too
	now := s.Now()
	for _, e := range entries {
		switch {
		case e.Request == nil:
		case e.Request.Status == protocol.StatusPending:
			pending = append(pending, e)
		case e.Request.Status != protocol.StatusInProgress || e.Progress == nil:
		case e.Progress.SessionID == session && session != "":
			own = append(own, e)
		case force || idle(e, now) >= s.StaleAfter():
			stale = append(stale, e)
		}
	}
	// most idle first: the stale ones come before any live one
	slices.SortStableFunc(stale, func(x, y Entry) int { return cmp.Compare(idle(y, now), idle(x, now)) })
	slices.SortStableFunc(pending, func(x, y Entry) int { return x.Request.Timestamp.Compare(y.Request.Timestamp.Time) })
	var names []string
	for _, group := range [][]Entry{own, stale, pending} {
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
		at := now.Add(s.StaleAfter() - idle(e, now))
		if next.IsZero() || at.Before(next) {
			next = at
		}
	}
	return next
}

// HeldBy finds the review session holds. A lease the session lost to a
// takeover names the review it was given for, whatever the session holds
// since: the transaction's fencing check then says who took it. If it
// holds several (claimed by name), a *protocol.UsageError lists them. If
// it holds none, the error says why: who took it over, when another
// session did, a conflict when it was cancelled, released or
// decided. An assignment whose files cannot be read could be the
// session's: its error (a *protocol.InvalidError or *LinkError naming
// the file) is returned rather than "holds no review".
func (s *Store) HeldBy(session, lease string) (*Assignment, error) {
	entries, err := s.Poll() // what a session can hold is never at rest
	if err != nil {
		return nil, err
	}
	if name := lostLease(entries, session, lease); name != "" {
		return s.Assignment(name)
	}
	var held []string
	var heldRead Snapshot
	for _, e := range entries {
		if e.Progress != nil && e.Progress.SessionID == session && e.Request.Status == protocol.StatusInProgress {
			held, heldRead = append(held, e.Name), e.Snapshot
		}
	}
	switch {
	case len(held) == 1:
		a, err := s.Assignment(held[0])
		if a != nil {
			a.read = &heldRead
		}
		return a, err
	case len(held) > 1:
		return nil, &protocol.UsageError{Msg: fmt.Sprintf("session %s holds several reviews: %s", session, strings.Join(held, ", ")),
			Hint: "name one: --assignment " + held[0]}
	}
	if i := slices.IndexFunc(entries, func(e Entry) bool { return e.Err != nil }); i >= 0 {
		return nil, unreadable(session, entries[i].Name, entries[i].Err)
	}
	return nil, s.lostReview(session)
}

// lostLease is the review that took the session's lease over: "" when
// none did (or there is no lease).
func lostLease(entries []Entry, session, lease string) string {
	for _, e := range entries {
		if p := e.Progress; lease != "" && p != nil && p.Lease != lease && slices.ContainsFunc(p.Takeovers,
			func(t protocol.Takeover) bool { return t.From == session && t.FromLease == lease }) {
			return e.Name
		}
	}
	return ""
}

// unreadable says that session may hold a review that cannot be read.
func unreadable(session, name string, err error) error {
	return fmt.Errorf("cannot tell whether session %s holds review %s: %w", session, name, err)
}

// lostReview is the error of a session that holds no review: what became
// of the one it held, if any. A review whose files cannot be read could
// be the one: it is reported with its error (HeldBy has reported those
// in progress; this reads the ones at rest, progress and all).
func (s *Store) lostReview(session string) error {
	names, err := s.Names()
	if err != nil {
		return err
	}
	for _, name := range names {
		a, err := s.Assignment(name)
		if err != nil {
			continue
		}
		snap, err := a.Snapshot()
		switch {
		case err != nil:
			return unreadable(session, name, err)
		case !snap.Current():
		case snap.Progress.SessionID == session:
			return conflict("pick up another review: "+ClaimCommand(session),
				"review %s is %s; session %s can no longer change it", a.Name, describeStatus(snap.Request.Status), session)
		case takenFrom(session, snap.Progress) != nil:
			return a.notHolder(session, snap.Progress)
		}
	}
	return conflict("claim a review: "+ClaimCommand(session), "session %s holds no review", session)
}
