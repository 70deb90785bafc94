package checkpoint

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/specdev/specdev/protocol"
)

// Sync brings this machine's folders up to the remote's state: each
// assignment whose state moved since its folder last copied it is
// fetched and copied under its lock (one another process holds is left to
// it: that process copies it), and one only the remote holds gets its
// folder. It says whether any folder changed, and which assignments could
// not be copied (a state that breaks the rules its files are read by).
// Without a remote there is nothing to do.
func (s *Store) Sync(ctx context.Context) (changed bool, problems []error, err error) {
	if s.Remote == nil {
		return false, nil, nil
	}
	names, err := s.Names()
	if err != nil {
		return false, nil, err
	}
	copied := map[string]string{} // read before the remote is: what it holds then is no older
	for _, name := range names {
		copied[name] = (&Assignment{Name: name, Dir: s.folder(name), store: s}).remoteID()
	}
	refs, err := s.Remote.List(ctx)
	if err != nil {
		return false, nil, err
	}
	s.noteSeen(refs)
	for _, name := range slices.Sorted(maps.Keys(refs)) {
		if protocol.CheckName(name) != nil {
			s.logf("skipping %s on %s: not a valid assignment name", name, s.Remote.Name())
			continue
		}
		if copied[name] == refs[name] {
			continue
		}
		a, err := s.makeFolder(name)
		if err == nil {
			err = a.copyState(ctx, refs[name], copied[name])
		}
		switch {
		case errors.Is(err, ErrBusy): // another process holds it, and copies it
		case errors.Is(err, protocol.ErrInvalid):
			problems = append(problems, err)
		case err != nil:
			return changed, problems, err
		default:
			changed = true
		}
	}
	return changed, problems, nil
}

// copyState makes the folder a copy of state id, which a poll of the
// remote saw after the folder was found a copy of state was, unless the
// folder moved on from was meanwhile (another process copied or made a
// state that may be newer than id). A lock another process holds is not
// waited for: BUSY.
func (a *Assignment) copyState(ctx context.Context, id, was string) error {
	lock, err := a.withoutWait().lock(ctx)
	if err != nil {
		return err
	}
	defer lock.unlock()
	if a.remoteID() != was {
		return nil
	}
	st, err := a.fetch(ctx, id)
	if err == nil {
		err = a.match(st)
	}
	return err
}

// makeFolder returns assignment name, making its folder if it has none.
func (s *Store) makeFolder(name string) (*Assignment, error) {
	a, err := s.Assignment(name) // refuses a link in the way
	if !errors.Is(err, ErrNotFound) {
		return a, err
	}
	if _, err := mkdir(s.folder(name)); err != nil {
		return nil, err
	}
	return s.Assignment(name)
}

// RemoteView is an assignment as a remote holds it, and as a poll of
// the folders would see it (Entry; Err: its state breaks the rules its
// files are read by).
type RemoteView struct {
	Entry
	State *RemoteState
	Snap  Snapshot
}

// RemoteViews reads every assignment's state from r, without touching
// the folders here.
func (s *Store) RemoteViews(ctx context.Context, r Remote) ([]RemoteView, error) {
	refs, err := r.List(ctx)
	if err != nil {
		return nil, err
	}
	var views []RemoteView
	for _, name := range slices.Sorted(maps.Keys(refs)) {
		if protocol.CheckName(name) != nil {
			continue
		}
		v := RemoteView{Entry: Entry{Name: name}}
		v.State, v.Err = r.Fetch(ctx, name, refs[name])
		if v.Err == nil && v.State != nil {
			v.Snap, v.Err = v.State.Snapshot(r.Name())
		}
		if v.Request = v.Snap.Request; v.Request != nil && (v.Request.Status == protocol.StatusInProgress || v.Request.Status == protocol.StatusAwaitingApproval) {
			v.Progress = v.Snap.Progress
		}
		if v.Err != nil && !errors.Is(v.Err, protocol.ErrInvalid) {
			return nil, v.Err
		}
		if v.State != nil || v.Err != nil {
			views = append(views, v)
		}
	}
	return views, nil
}

// Snapshot decodes the state by the rules its files are read by: it must
// hold a request, and its request, progress and every history event must
// be valid. A *protocol.InvalidError names the remote, the ref and the
// file.
func (st *RemoteState) Snapshot(remote string) (snap Snapshot, err error) {
	label := func(file string) string { return RemoteLabel(remote, st, file) }
	defer func() {
		var inv *protocol.InvalidError
		if errors.As(err, &inv) {
			inv.Hint = RemoteHint(remote, st.Ref)
		}
	}()
	data, ok := st.Files[protocol.RequestFile]
	if !ok {
		return Snapshot{}, &protocol.InvalidError{File: label(protocol.RequestFile), Problem: "is missing: this state holds no review request"}
	}
	if snap.Request, err = protocol.DecodeRequest(label(protocol.RequestFile), data); err != nil {
		return Snapshot{}, err
	}
	if data, ok := st.Files[protocol.ProgressFile]; ok {
		if snap.Progress, err = protocol.DecodeProgress(label(protocol.ProgressFile), data); err != nil {
			return Snapshot{}, err
		}
	}
	for i, line := range bytes.Split(st.Files[protocol.HistoryFile], []byte("\n")) {
		if len(bytes.TrimSpace(line)) > 0 {
			if _, err := protocol.DecodeEvent(label(protocol.HistoryFile), i+1, line); err != nil {
				return Snapshot{}, err
			}
		}
	}
	return snap, nil
}

// RemoteLabel names a file of a remote state in messages.
func RemoteLabel(remote string, st *RemoteState, file string) string {
	where := fmt.Sprintf("%s %s (commit %.12s)", remote, st.Ref, st.ID)
	if file == "" {
		return where
	}
	return file + " in " + where
}

// RemoteHint is the fix for a remote state specdev cannot read.
func RemoteHint(remote, ref string) string {
	return fmt.Sprintf("fix it on the remote: point %s back at a good state (git fetch %s %s; git log FETCH_HEAD; git push --force %s GOOD:%s), or delete it to start again from a folder (git push %s :%s)",
		ref, remote, ref, remote, ref, remote, ref)
}

// clockSlack is how far the clocks of two machines may differ before
// specdev says so: staleness takes them to agree (see checkClock).
const clockSlack = time.Minute

// seenRef is what polls of the remote saw of one assignment's ref: its
// id, when last, and when last at the id before (the state was made
// after that).
type seenRef struct {
	id          string
	last, after time.Time
}

// noteSeen records the ids a poll of the remote saw.
func (s *Store) noteSeen(refs map[string]string) {
	now := s.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.seen == nil {
		s.seen = map[string]seenRef{}
	}
	for name, id := range refs {
		seen := s.seen[name]
		if seen.id != id {
			seen = seenRef{id: id, after: seen.last}
		}
		seen.last = now
		s.seen[name] = seen
	}
}

// checkClock warns once (on stderr) when a fetched state's time and this
// clock disagree by more than clockSlack: the state is dated ahead of
// now, or before a poll that still saw the state it replaced. Staleness
// compares a review's last_activity, written by the reviewer's clock,
// with this one.
func (s *Store) checkClock(name string, st *RemoteState) {
	now := s.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	seen, off := s.seen[name], ""
	switch {
	case s.skewWarned || st.Time.IsZero():
		return
	case st.Time.After(now.Add(clockSlack)):
		off = fmt.Sprintf("is dated %s ahead of this machine's clock", st.Time.Sub(now).Round(time.Second))
	case seen.id == st.ID && !seen.after.IsZero() && st.Time.Before(seen.after.Add(-clockSlack)):
		off = fmt.Sprintf("is dated %s before this machine saw the state before it", seen.after.Sub(st.Time).Round(time.Second))
	default:
		return
	}
	s.skewWarned = true
	s.warnf("clock skew: the last change to %s on %s %s; the clocks of the machines sharing reviews must agree to within a minute (staleness compares the reviewer's clock with this one): set them right (e.g. with NTP)",
		name, s.Remote.Name(), off)
}
