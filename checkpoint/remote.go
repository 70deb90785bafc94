package checkpoint

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"time"

	"github.com/specdev/specdev/protocol"
)

// Remote holds every assignment's review state where machines that share
// no disk all see it (internal/gitremote: a commit per state on a git
// remote). The store calls it around each transaction (remoteUpdate); the
// folders on this machine are copies of what it holds.
type Remote interface {
	Name() string // for messages ("origin")
	// List returns the state id of every assignment the remote holds, by name.
	List(ctx context.Context) (map[string]string, error)
	// Fetch returns the assignment's state as the remote holds it now
	// (nil when it holds none), or state id if given.
	Fetch(ctx context.Context, name, id string) (*RemoteState, error)
	// Push makes c the assignment's state, after base (nil: the first),
	// only if the remote still holds base: ErrRaced when it does not.
	Push(ctx context.Context, name string, base *RemoteState, c RemoteCommit) (id string, err error)
}

// RemoteState is an assignment's state as a remote holds it.
type RemoteState struct {
	ID     string            // the state's id (a commit)
	Ref    string            // where the remote keeps it
	Parent string            // the state before it ("" for the first)
	Time   time.Time         // when it was made, by its maker's clock
	Files  map[string][]byte // its state files (RemoteFiles) by name
}

// RemoteCommit is a new state to push.
type RemoteCommit struct {
	Files   map[string][]byte
	Message string
	Time    time.Time
	Sign    bool // a verdict, and config.json's sign_verdicts is on
}

// RemoteFiles are the files of an assignment's state that a remote holds,
// in the order a copy replaces them (a transaction's order: every reader
// copes with a progress one step ahead of its request).
var RemoteFiles = []string{protocol.ProgressFile, protocol.RequestFile, ReportFile, protocol.HistoryFile}

// RemoteFile records in an assignment folder the id of the remote state
// its files are a copy of (machine-local, in .gitignore), so that a poll
// fetches only the assignments that changed.
const RemoteFile = ".specdev.remote"

// ErrRaced: another machine changed the remote's state since it was fetched.
var ErrRaced = errors.New("the remote's state changed since it was fetched")

// maxRaces bounds how often one transaction is run again because another
// machine changed the state first.
const maxRaces = 8

// remoteUpdate is Update with a remote, under the local lock: fetch the
// assignment's state, make the folder's files exactly that state, run the
// transaction on a copy of them, and push the result unless nothing
// changed. A push another machine beat is retried from the fetch (the
// transaction then sees what that machine did: a claim loses to the
// holder as it would here). The folder's files change only to a state
// the remote held or accepted: on any failure they stay the fetched one.
func (a *Assignment) remoteUpdate(ctx context.Context, fn func(*Tx) error) error {
	known := a.read
	a.read = nil
	remote := a.store.Remote
	listed := a.listed(fn != nil)
	for try := 1; ; try++ {
		base, err := a.fetch(ctx, listed)
		if err == nil {
			err = a.match(base)
		}
		if err != nil || fn == nil {
			return err
		}
		c, err := a.stage(known, fn)
		known = nil
		if err != nil && listed != "" {
			listed = "" // judged on a state a poll saw: judge again on the remote's own
			continue
		}
		if err != nil || c == nil {
			return err
		}
		id, err := remote.Push(ctx, a.Name, base, *c)
		listed = ""
		switch {
		case errors.Is(err, ErrRaced) && try < maxRaces:
			a.store.logf("%s changed on %s meanwhile: running the change again on its new state", a.Name, remote.Name())
			continue
		case errors.Is(err, ErrRaced):
			return &hintedError[busyCondition]{Msg: fmt.Sprintf("assignment %s changed on %s each of the %d times this machine tried to change it", a.Name, remote.Name(), try),
				Hint: "retry in a moment: nothing was changed here, and the other machines' changes are on the remote"}
		case err != nil:
			return err
		}
		if err := a.match(&RemoteState{ID: id, Files: c.Files}); err != nil {
			a.store.warnf("the change to %s landed on %s, but this folder could not be updated (%v); the next specdev command updates it", a.Name, remote.Name(), err)
		}
		return nil
	}
}

// listed is the state a poll of the remote saw of the assignment within
// remote_poll, when the folder is a copy of it: a transaction starts from
// it without asking the remote again. Its push is refused if the remote
// moved on since, and a refusal or a failed transaction asks the remote.
// A repair (no change) always asks.
func (a *Assignment) listed(change bool) string {
	s := a.store
	s.mu.Lock()
	seen := s.seen[a.Name]
	s.mu.Unlock()
	if !change || seen.id == "" || s.Now().Sub(seen.last) > time.Duration(s.Config.RemotePoll) || seen.id != a.remoteID() {
		return ""
	}
	return seen.id
}

// fetch returns the remote's state of the assignment (or state id),
// checked as the state files are checked when read (a state this folder
// already copied was checked then).
func (a *Assignment) fetch(ctx context.Context, id string) (*RemoteState, error) {
	st, err := a.store.Remote.Fetch(ctx, a.Name, id)
	if err != nil || st == nil {
		return st, err
	}
	if st.ID != a.remoteID() {
		if _, err := st.Snapshot(a.store.Remote.Name()); err != nil {
			return nil, err
		}
	}
	a.store.checkClock(a.Name, st)
	return st, nil
}

// match makes the folder's state files exactly st's and records st's id.
// With no state on the remote yet (nil) the folder's files stand: the
// first transaction that changes them publishes them.
func (a *Assignment) match(st *RemoteState) error {
	if st == nil {
		return nil
	}
	var writes []fileWrite
	for _, name := range RemoteFiles {
		have, err := a.readFile(name)
		if errors.As(err, new(*LinkError)) {
			return err
		}
		data, ok := st.Files[name]
		switch {
		case ok && (have == nil || !bytes.Equal(have, data)):
			writes = append(writes, fileWrite{name, data})
		case !ok && have != nil:
			if err := os.Remove(a.path(name)); err != nil {
				return err
			}
		}
	}
	if a.remoteID() != st.ID {
		writes = append(writes, fileWrite{RemoteFile, []byte(st.ID + "\n")})
	}
	if len(writes) == 0 {
		return nil
	}
	return writeAtomic(a.Dir, writes...)
}

// stage runs fn as a transaction on a copy of the folder's state files,
// in a temp folder inside it, and returns the commit to push: nil when
// the transaction changed nothing.
func (a *Assignment) stage(known *Snapshot, fn func(*Tx) error) (*RemoteCommit, error) {
	dir, err := os.MkdirTemp(a.Dir, ".stage"+tempMarker)
	if err != nil {
		return nil, fmt.Errorf("stage %s: %w", a.RelDir(), err)
	}
	defer os.RemoveAll(dir)
	staged := &Assignment{Name: a.Name, Dir: dir, store: a.store, read: known}
	before, err := a.stateFiles()
	if err != nil {
		return nil, err
	}
	for name, data := range before {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return nil, fmt.Errorf("stage %s: %w", a.rel(name), err)
		}
	}
	tx, err := staged.update(fn)
	if err != nil {
		return nil, err
	}
	after, err := staged.stateFiles()
	if err != nil || maps.EqualFunc(before, after, bytes.Equal) {
		return nil, err
	}
	return &RemoteCommit{Files: after, Message: "specdev: " + a.Name + ": " + eventNames(tx.events), Time: tx.Now,
		Sign: a.store.Config.SignVerdicts && tx.verdict()}, nil
}

// stateFiles reads the state files the folder has.
func (a *Assignment) stateFiles() (map[string][]byte, error) {
	files := map[string][]byte{}
	for _, name := range RemoteFiles {
		data, err := a.readFile(name)
		if err != nil {
			return nil, err
		}
		if data != nil {
			files[name] = data
		}
	}
	return files, nil
}

// verdict reports whether the transaction gave or decided a verdict.
func (tx *Tx) verdict() bool {
	r := tx.Request
	if r == nil || tx.requestSeen != nil && r.Status == tx.requestRead.Status {
		return false
	}
	return r.Status == protocol.StatusPassed || r.Status == protocol.StatusFailed || r.Status == protocol.StatusAwaitingApproval
}

// remoteID is the id of the remote state the folder's files are a copy of.
func (a *Assignment) remoteID() string {
	data, _ := readStateFile(a.path(RemoteFile), a.rel(RemoteFile), 256) // nil when it cannot be read
	return string(bytes.TrimSpace(data))
}
