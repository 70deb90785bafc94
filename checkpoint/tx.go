package checkpoint

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"time"

	"github.com/specdev/specdev/protocol"
)

// ReportFile is the rendered review report of an assignment.
const ReportFile = "review_report.md"

// Tx is one read-modify-write of an assignment, under its lock. The
// function given to Update changes Request and Progress and logs events;
// Update writes what changed only if the function succeeds.
type Tx struct {
	A        *Assignment
	Request  *protocol.Request  // nil: no request yet
	Progress *protocol.Progress // nil: no progress yet
	Now      time.Time

	requestSeen, progressSeen []byte           // bytes as read, to skip unchanged writes
	requestSum, progressSum   string           // their sha256 (the report's state mark), computed once
	requestRead               protocol.Request // the request as read, to skip re-encoding an unchanged one
	activityRead              string           // the progress's last_activity as read (see encodeProgress)
	events                    []protocol.Event
	nextSeq                   int64 // the history sequence number of the next event
}

// Log records a history event, appended when the transaction commits.
func (tx *Tx) Log(name protocol.EventName, session string, detail map[string]any) {
	e := protocol.Event{Seq: tx.nextSeq, TS: protocol.At(tx.Now), Event: name, Session: session, Detail: protocol.ClipDetail(detail)}
	tx.nextSeq++
	if tx.Request != nil {
		e.RequestID, e.Round = tx.Request.RequestID, tx.Request.Round
	}
	tx.events = append(tx.events, e)
}

// Update runs fn under the assignment's lock with the current request and
// progress, then durably writes whatever fn changed: progress, request and
// the re-rendered report (each file replaced atomically, in that order,
// then one folder fsync), then the history events. A crash between two
// renames leaves each file whole; every reader copes with a progress one
// step ahead of its request. Before fn runs, Update converges what a crash
// may have left behind: journalled events missing from the history are
// appended, and a report out of date with the state files is re-rendered,
// even if fn then fails.
//
// With a remote (Store.Remote), the state is the remote's: see remoteUpdate.
func (a *Assignment) Update(ctx context.Context, fn func(*Tx) error) error {
	lock, err := a.lock(ctx)
	if err != nil {
		return err
	}
	defer lock.unlock()
	if removed, err := cleanTemps(a.Dir); err == nil && len(removed) > 0 {
		a.store.logf("removed temp files left by a killed writer in %s: %v", a.RelDir(), removed)
	}
	if a.store.Remote != nil {
		return a.remoteUpdate(ctx, fn)
	}
	_, err = a.update(fn)
	return err
}

// update is Update once the lock is held.
func (a *Assignment) update(fn func(*Tx) error) (*Tx, error) {
	tx := &Tx{A: a, Now: a.store.Now()}
	snap, err := a.readSnapshot(a.read)
	a.read = nil // the transaction changes the values: they serve once
	if err != nil {
		return nil, err
	}
	tx.Request, tx.Progress, tx.requestSeen, tx.progressSeen = snap.Request, snap.Progress, snap.requestData, snap.progressData
	tx.requestSum, tx.progressSum = digest(tx.requestSeen), digest(tx.progressSeen)
	if tx.Request != nil {
		tx.requestRead = tx.Request.Clone()
	}
	if tx.Progress != nil {
		tx.activityRead = tx.Progress.LastActivity.String()
	}
	if tx.nextSeq, err = tx.converge(); err != nil {
		return nil, err
	}
	if fn == nil {
		return tx, nil
	}
	if err := fn(tx); err != nil {
		return nil, err
	}
	return tx, tx.commit()
}

// readState reads and validates the state file name (nil if absent) and
// returns its bytes; it does not decode them again when they are known,
// the bytes value was decoded from.
func readState[T any](a *Assignment, name string, decode func(string, []byte) (*T, error), known []byte, value *T) (*T, []byte, error) {
	data, err := a.readFile(name)
	if data == nil || err != nil {
		return nil, nil, err
	}
	if value != nil && bytes.Equal(data, known) {
		return value, data, nil
	}
	v, err := decode(a.rel(name), data)
	return v, data, err
}

// digest is the sha256 of a state file's bytes, "" for no file: the
// report's state mark names the state files by it.
func digest(data []byte) string {
	if data == nil {
		return ""
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// readFile returns nil, nil when the file does not exist. A symlink or
// anything but a regular file is a *LinkError: state is never read
// through a link.
func (a *Assignment) readFile(name string) ([]byte, error) {
	return readStateFile(a.path(name), a.rel(name), protocol.MaxFileSize)
}

// Report reads the rendered review_report.md, never through a symlink;
// nil when there is none yet (no review was claimed).
func (a *Assignment) Report() ([]byte, error) { return a.readFile(ReportFile) }

// Snapshot is the state of an assignment as read without the lock. Every
// file is replaced atomically, so each one is whole, though the two may be
// from different transactions.
type Snapshot struct {
	Request  *protocol.Request
	Progress *protocol.Progress

	ProgressWritten time.Time // when the progress file was last written, if known

	requestData, progressData []byte // the bytes read, if Snapshot or a scan read them
}

// Idle is how long the review has been idle at now, and whether its
// last_activity looks skewed (see Idle). s.Progress must be set.
func (s Snapshot) Idle(now time.Time) (time.Duration, bool) {
	return Idle(now, s.Progress.LastActivity.Time, s.ProgressWritten)
}

// Snapshot reads and validates the request and progress without locking.
func (a *Assignment) Snapshot() (Snapshot, error) {
	snap, err := a.readSnapshot(nil)
	if snap.Progress != nil {
		snap.ProgressWritten = a.written(protocol.ProgressFile)
	}
	return snap, err
}

// readSnapshot reads and validates the request and progress. A file whose
// bytes are known's (what a scan read of the assignment) is not decoded
// again: known's value is taken (the decoder is a function of the bytes
// alone). A record in a 5,000-file review decoded both files twice, a
// quarter of its time.
func (a *Assignment) readSnapshot(known *Snapshot) (snap Snapshot, err error) {
	known = cmp.Or(known, &Snapshot{})
	if snap.Request, snap.requestData, err = readState(a, protocol.RequestFile, protocol.DecodeRequest, known.requestData, known.Request); err != nil {
		return Snapshot{}, err
	}
	if snap.Progress, snap.progressData, err = readState(a, protocol.ProgressFile, protocol.DecodeProgress, known.progressData, known.Progress); err != nil {
		return Snapshot{}, err
	}
	return snap, nil
}

// Current reports whether the progress belongs to the request.
func (s Snapshot) Current() bool {
	return s.Request != nil && s.Progress.BelongsTo(s.Request)
}
