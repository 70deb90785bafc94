package checkpoint

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/specdev/specdev/protocol"
)

// Entry is one assignment as a poll sees it: peeked, not validated, so
// that a poll over many assignments costs little more than reading them.
type Entry struct {
	Name     string
	Request  *protocol.RequestPeek  // nil: no request
	Progress *protocol.ProgressPeek // read only for reviews in progress or awaiting approval
	Err      error                  // a file could not be read or decoded
}

// Scan peeks at every assignment's request (and the progress of active
// reviews).
func (s *Store) Scan() ([]Entry, error) {
	names, err := s.Names()
	if err != nil {
		return nil, err
	}
	entries := make([]Entry, 0, len(names))
	for _, name := range names {
		entries = append(entries, s.peek(name))
	}
	return entries, nil
}

func (s *Store) peek(name string) Entry {
	e := Entry{Name: name}
	a := &Assignment{Name: name, Dir: s.Dir + "/" + AssignmentsDir + "/" + name, store: s}
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
	return e
}

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
		case now.Sub(e.Progress.LastActivity.Time) >= s.StaleAfter():
			stale = append(stale, e)
		case force:
			live = append(live, e)
		}
	}
	byActivity := func(list []Entry) {
		sort.SliceStable(list, func(i, j int) bool {
			return list[i].Progress.LastActivity.Before(list[j].Progress.LastActivity.Time)
		})
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

// NextStale returns when the earliest live review of another session turns
// stale, or zero if none will: a waiting poll must look again then.
func (s *Store) NextStale(entries []Entry, session string) time.Time {
	var next time.Time
	for _, e := range entries {
		if e.Request == nil || e.Request.Status != protocol.StatusInProgress || e.Progress == nil || e.Progress.SessionID == session {
			continue
		}
		at := e.Progress.LastActivity.Add(s.StaleAfter())
		if next.IsZero() || at.Before(next) {
			next = at
		}
	}
	return next
}

// HeldBy finds the review session holds. If it holds several (claimed by
// name), a *protocol.UsageError lists them. If it holds none, the error says why: a
// *DisplacedError when another session took it over, a conflict when it
// was cancelled, released or decided.
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
	if err := s.lostReview(entries, session); err != nil {
		return nil, err
	}
	return nil, conflict("run specdev check to claim a review (and pass the same --session)",
		"session %s holds no review", session)
}

// lostReview explains what became of a review session once held.
func (s *Store) lostReview(entries []Entry, session string) error {
	for _, e := range entries {
		a, err := s.Assignment(e.Name)
		if err != nil || e.Request == nil {
			continue
		}
		snap, err := a.Snapshot()
		if err != nil || snap.Progress == nil || !snap.Current() {
			continue
		}
		if snap.Progress.SessionID != session {
			if err, ok := a.notHolder(session, snap.Progress).(*DisplacedError); ok {
				return err
			}
			continue
		}
		return conflict("run specdev check to pick up another review",
			"review %s is %s; session %s can no longer change it", a.Name, describeStatus(snap.Request.Status), session)
	}
	return nil
}
