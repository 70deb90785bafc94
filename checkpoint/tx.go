package checkpoint

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"reflect"
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
	requestRead               protocol.Request // the request as read, to skip re-encoding an unchanged one
	events                    []protocol.Event
	lock                      *held
}

// Log records a history event, appended when the transaction commits.
func (tx *Tx) Log(name protocol.EventName, session string, detail map[string]any) {
	e := protocol.Event{TS: protocol.At(tx.Now), Event: name, Session: session, Detail: detail}
	if tx.Request != nil {
		e.RequestID = tx.Request.RequestID
		e.Round = tx.Request.Round
	}
	tx.events = append(tx.events, e)
}

// Update runs fn under the assignment's lock with the current request and
// progress, then durably writes whatever fn changed: progress, request and
// the re-rendered report (each file replaced atomically, in that order,
// then one folder fsync), then the history events. A crash between two
// renames leaves each file whole; every reader copes with a progress one
// step ahead of its request.
func (a *Assignment) Update(ctx context.Context, fn func(*Tx) error) error {
	lock, err := a.lock(ctx)
	if err != nil {
		return err
	}
	defer lock.unlock()
	if removed, err := cleanTemps(a.Dir); err == nil && len(removed) > 0 {
		a.store.logf("removed temp files left by a killed writer in %s: %v", a.RelDir(), removed)
	}
	tx := &Tx{A: a, Now: a.store.Now(), lock: lock}
	if tx.Request, tx.requestSeen, err = a.readRequest(lock.cache); err != nil {
		return err
	}
	if tx.Progress, tx.progressSeen, err = a.readProgress(lock.cache); err != nil {
		return err
	}
	if tx.Request != nil {
		tx.requestRead = tx.Request.Clone()
	}
	if err := fn(tx); err != nil {
		return err
	}
	return tx.commit()
}

func (tx *Tx) commit() error {
	if err := tx.validate(); err != nil {
		return err
	}
	var writes []fileWrite
	changed := false
	if tx.Progress != nil {
		w, dirty, err := encodeIfChanged(protocol.ProgressFile, func() ([]byte, error) { return protocol.EncodeProgress(tx.Progress) }, tx.progressSeen)
		if err != nil {
			return err
		}
		if dirty {
			writes, changed = append(writes, w), true
		}
	}
	if tx.Request != nil && (tx.requestSeen == nil || !reflect.DeepEqual(*tx.Request, tx.requestRead)) {
		w, dirty, err := encodeIfChanged(protocol.RequestFile, func() ([]byte, error) { return protocol.EncodeRequest(tx.Request) }, tx.requestSeen)
		if err != nil {
			return err
		}
		if dirty {
			writes, changed = append(writes, w), true
		}
	}
	if changed && tx.Progress != nil && tx.Request != nil && tx.A.store.Render != nil {
		writes = append(writes, fileWrite{ReportFile, tx.A.store.Render(tx.Request, tx.Progress)})
	}
	if len(writes) > 0 {
		if err := writeAtomic(tx.A.Dir, writes...); err != nil {
			return err
		}
	}
	for _, w := range writes {
		if w.name != ReportFile {
			tx.lock.cache.remember(w.name, w.data)
		}
	}
	tx.lock.write()
	return tx.A.appendHistory(tx.events)
}

func encodeIfChanged(name string, encode func() ([]byte, error), seen []byte) (fileWrite, bool, error) {
	data, err := encode()
	if err != nil {
		return fileWrite{}, false, fmt.Errorf("encode %s: %w", name, err)
	}
	return fileWrite{name, data}, !bytes.Equal(data, seen), nil
}

// readRequest reads review_request.json (nil if absent), validating it in
// full unless the cache knows these exact bytes to be valid.
func (a *Assignment) readRequest(cache validCache) (*protocol.Request, []byte, error) {
	return readState(a, cache, protocol.RequestFile, protocol.DecodeRequest, protocol.DecodeTrustedRequest)
}

// readProgress is readRequest for review_progress.json.
func (a *Assignment) readProgress(cache validCache) (*protocol.Progress, []byte, error) {
	return readState(a, cache, protocol.ProgressFile, protocol.DecodeProgress, protocol.DecodeTrustedProgress)
}

// readState reads one state file with the full decoder, or the trusted
// one when the cache vouches for its bytes, and remembers valid bytes.
func readState[T any](a *Assignment, cache validCache, name string, full, trusted func(string, []byte) (*T, error)) (*T, []byte, error) {
	data, err := a.readFile(name)
	if data == nil || err != nil {
		return nil, nil, err
	}
	decode := full
	if cache.trusts(name, data) {
		decode = trusted
	}
	v, err := decode(a.rel(name), data)
	if err == nil {
		cache.remember(name, data)
	}
	return v, data, err
}

// readFile returns nil, nil when the file does not exist.
func (a *Assignment) readFile(name string) ([]byte, error) {
	f, err := os.Open(a.path(name))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", a.rel(name), err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", a.rel(name), err)
	}
	if info.Size() > protocol.MaxFileSize {
		return nil, &protocol.InvalidError{File: a.rel(name),
			Problem: fmt.Sprintf("is %d bytes, more than the limit of %d", info.Size(), protocol.MaxFileSize),
			Hint:    "restore the file from git or remove it"}
	}
	data := make([]byte, info.Size())
	if _, err := f.ReadAt(data, 0); err != nil && info.Size() > 0 {
		return nil, fmt.Errorf("read %s: %w", a.rel(name), err)
	}
	return data, nil
}

// Snapshot is the state of an assignment as read without the lock. Every
// file is replaced atomically, so each one is whole, though the two may be
// from different transactions.
type Snapshot struct {
	Request  *protocol.Request
	Progress *protocol.Progress
}

// Snapshot reads and validates the request and progress without locking.
func (a *Assignment) Snapshot() (Snapshot, error) {
	cache := a.readCache()
	r, _, err := a.readRequest(cache)
	if err != nil {
		return Snapshot{}, err
	}
	p, _, err := a.readProgress(cache)
	if err != nil {
		return Snapshot{}, err
	}
	return Snapshot{Request: r, Progress: p}, nil
}

// Current reports whether the progress belongs to the request.
func (s Snapshot) Current() bool {
	return s.Request != nil && s.Progress != nil && progressBelongs(s.Progress, s.Request)
}

// progressBelongs: a seed-shaped progress without request_id belongs to
// whatever request is current.
func progressBelongs(p *protocol.Progress, r *protocol.Request) bool {
	return p.RequestID == "" || p.RequestID == r.RequestID
}
