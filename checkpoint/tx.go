package checkpoint

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
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

	requestSeen, progressSeen []byte // bytes as read, to skip unchanged writes
	events                    []protocol.Event
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
// the re-rendered report in one atomic batch, then the history events.
func (a *Assignment) Update(ctx context.Context, fn func(*Tx) error) error {
	unlock, err := a.lock(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	if removed, err := cleanTemps(a.Dir); err == nil && len(removed) > 0 {
		a.store.logf("removed temp files left by a killed writer in %s: %v", a.RelDir(), removed)
	}
	tx := &Tx{A: a, Now: a.store.Now()}
	if tx.Request, tx.requestSeen, err = a.readRequest(); err != nil {
		return err
	}
	if tx.Progress, tx.progressSeen, err = a.readProgress(); err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		return err
	}
	return tx.commit()
}

func (tx *Tx) commit() error {
	var writes []fileWrite
	changed := false
	if tx.Progress != nil {
		w, dirty, err := encodeIfChanged(protocol.ProgressFile, tx.Progress, tx.progressSeen)
		if err != nil {
			return err
		}
		if dirty {
			writes, changed = append(writes, w), true
		}
	}
	if tx.Request != nil {
		w, dirty, err := encodeIfChanged(protocol.RequestFile, tx.Request, tx.requestSeen)
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
	return tx.A.appendHistory(tx.events)
}

func encodeIfChanged(name string, v any, seen []byte) (fileWrite, bool, error) {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fileWrite{}, false, fmt.Errorf("encode %s: %w", name, err)
	}
	data = append(data, '\n')
	return fileWrite{name, data}, string(data) != string(seen), nil
}

// readRequest reads and validates review_request.json; nil if absent.
func (a *Assignment) readRequest() (*protocol.Request, []byte, error) {
	data, err := a.readFile(protocol.RequestFile)
	if data == nil || err != nil {
		return nil, nil, err
	}
	r, err := protocol.DecodeRequest(a.rel(protocol.RequestFile), data)
	return r, data, err
}

// readProgress reads and validates review_progress.json; nil if absent.
func (a *Assignment) readProgress() (*protocol.Progress, []byte, error) {
	data, err := a.readFile(protocol.ProgressFile)
	if data == nil || err != nil {
		return nil, nil, err
	}
	p, err := protocol.DecodeProgress(a.rel(protocol.ProgressFile), data)
	return p, data, err
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
	r, _, err := a.readRequest()
	if err != nil {
		return Snapshot{}, err
	}
	p, _, err := a.readProgress()
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
