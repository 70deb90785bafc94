package checkpoint

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"strings"

	"github.com/specdev/specdev/protocol"
)

// crashPoint marks the moments between the writes of a transaction where
// a crash leaves a state to recover from; tests kill the process there.
var crashPoint = func(point string) {}

// commit writes what the transaction changed. The status change, if any,
// must be one the state machine allows; the events go into a journal in the
// last state file renamed, so that they are never lost between the renames
// and the history append.
func (tx *Tx) commit() error {
	requestChanged := tx.Request != nil && (tx.requestSeen == nil || !tx.Request.Same(&tx.requestRead))
	if err := cmp.Or(tx.checkTransition(), tx.validate(requestChanged)); err != nil {
		return err
	}
	progressData, progressChanged, err := tx.encodeProgress(requestChanged)
	if err != nil {
		return fmt.Errorf("encode %s: %w", protocol.ProgressFile, err)
	}
	var writes []fileWrite
	progressSum := tx.progressSum
	if progressChanged {
		progressSum = digest(progressData)
		writes = append(writes, fileWrite{protocol.ProgressFile, progressData})
	}
	requestSum := tx.requestSum
	if requestChanged {
		if len(tx.events) > 0 {
			tx.Request.Journal = &protocol.Journal{Events: tx.events}
		}
		requestData, err := protocol.EncodeRequest(tx.Request, len(tx.requestSeen))
		if err != nil {
			return fmt.Errorf("encode %s: %w", protocol.RequestFile, err)
		}
		requestSum = digest(requestData)
		writes = append(writes, fileWrite{protocol.RequestFile, requestData})
	}
	if len(writes) > 0 {
		if report := tx.A.renderReport(tx.Request, tx.Progress, requestSum, progressSum); report != nil {
			writes = append(writes, fileWrite{ReportFile, report})
		}
		if err := writeAtomic(tx.A.Dir, writes...); err != nil {
			return err
		}
	}
	crashPoint("before history")
	if err := tx.A.appendHistory(tx.events); err != nil {
		// The state landed and the journal keeps the events: the next
		// transaction appends them. Say so instead of failing.
		tx.A.store.warnf("%s landed, but its history events could not be appended yet (%v); the next specdev command on %s appends them",
			eventNames(tx.events), err, tx.A.Name)
	}
	return nil
}

// encodeProgress encodes the progress and says whether it changed. When
// only the progress changes, it carries the transaction's journal. A
// progress whose last_activity moved has surely changed: it is encoded
// once, journal included; otherwise it is encoded first as it stands, to
// compare with the bytes read, and again with the journal if it changed.
func (tx *Tx) encodeProgress(requestChanged bool) (data []byte, changed bool, err error) {
	if tx.Progress == nil {
		return tx.progressSeen, false, nil
	}
	journal := !requestChanged && len(tx.events) > 0
	if !journal || tx.progressSeen != nil && tx.Progress.LastActivity.String() == tx.activityRead {
		data, err = protocol.EncodeProgress(tx.Progress, len(tx.progressSeen))
		if changed = !bytes.Equal(data, tx.progressSeen); err != nil || !changed || !journal {
			return data, changed, err
		}
	}
	tx.Progress.Journal = &protocol.Journal{Events: tx.events}
	data, err = protocol.EncodeProgress(tx.Progress, len(tx.progressSeen))
	return data, true, err
}

// checkTransition refuses a status change the state machine does not
// allow: every command goes through it here, where the change is written.
func (tx *Tx) checkTransition() error {
	if tx.Request == nil {
		return nil
	}
	from := tx.requestRead.Status // StatusNone when there was no request
	if from == tx.Request.Status && (tx.requestSeen == nil || tx.Request.RequestID == tx.requestRead.RequestID) {
		return nil
	}
	if err := protocol.Transition(from, tx.Request.Status); err != nil {
		return fmt.Errorf("refused to write %s (a bug in specdev): %w", tx.A.rel(protocol.RequestFile), err)
	}
	return nil
}

func eventNames(events []protocol.Event) string {
	var names []string
	for _, e := range events {
		names = append(names, string(e.Event))
	}
	if len(names) == 0 {
		return "the change"
	}
	return "the change (" + strings.Join(names, ", ") + ")"
}

// validate applies to what a transaction is about to write the same rules
// the full decoder applies when it reads it back (protocol's Validate
// methods: schema bounds, safe paths, consistency). A value that breaks
// one is a bug or bad input that slipped past a command's checks: nothing
// is written, and the error names the file and the field. It costs well
// under a millisecond for a 1,000-file review (no schema is compiled).
// An unchanged request is not written, so it is not validated again: it
// was validated when it was read.
func (tx *Tx) validate(requestChanged bool) error {
	if requestChanged {
		if err := tx.Request.Validate(); err != nil {
			return tx.refuse(protocol.RequestFile, err)
		}
	}
	if tx.Progress != nil {
		if err := tx.Progress.Validate(); err != nil {
			return tx.refuse(protocol.ProgressFile, err)
		}
	}
	for i := range tx.events {
		if err := tx.events[i].Validate(); err != nil {
			return tx.refuse(protocol.HistoryFile, err)
		}
	}
	return nil
}

func (tx *Tx) refuse(name string, err error) error {
	var inv *protocol.InvalidError
	if !errors.As(err, &inv) {
		return err
	}
	out := *inv
	out.File, out.Problem = tx.A.rel(name), inv.Problem+" (refused before writing: nothing was changed)"
	return &out
}
