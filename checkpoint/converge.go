package checkpoint

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"slices"

	"github.com/specdev/specdev/protocol"
)

// converge brings the history and the report up to date with the state
// files, as a crash between the renames of a transaction and its history
// append may have left them, and returns the sequence number of the next
// event. Failing to append only warns: the journal keeps the events for
// the next transaction.
func (tx *Tx) converge() (nextSeq int64, err error) {
	a := tx.A
	journals := Snapshot{Request: tx.Request, Progress: tx.Progress}.journals()
	last, err := a.lastHistorySeq()
	if err != nil {
		a.store.warnf("cannot read the end of %s (%v); journalled events are appended once it reads again", a.rel(protocol.HistoryFile), err)
	} else if missing := eventsAfter(journals, last); len(missing) > 0 {
		if err := a.appendHistory(missing); err != nil {
			a.store.warnf("cannot append %d journalled events to %s yet: %v", len(missing), a.rel(protocol.HistoryFile), err)
		} else {
			a.store.logf("appended %d events a crash kept from %s", len(missing), a.rel(protocol.HistoryFile))
		}
	}
	for _, j := range journals {
		last = max(last, j.LastSeq())
	}
	return last + 1, tx.convergeReport()
}

// eventsAfter merges the journals' events with a sequence number above
// seq, in order, each once.
func eventsAfter(journals []*protocol.Journal, seq int64) []protocol.Event {
	var out []protocol.Event
	for _, j := range journals {
		out = append(out, j.After(seq)...)
	}
	slices.SortStableFunc(out, func(x, y protocol.Event) int { return int(x.Seq - y.Seq) })
	return slices.CompactFunc(out, func(x, y protocol.Event) bool { return x.Seq == y.Seq })
}

// convergeReport re-renders a report that does not match the state files.
func (tx *Tx) convergeReport() error {
	if lags, err := tx.A.reportLags(tx.Request, tx.Progress, tx.requestSum, tx.progressSum); !lags {
		return err
	}
	return writeAtomic(tx.A.Dir, fileWrite{ReportFile, tx.A.renderReport(tx.Request, tx.Progress, tx.requestSum, tx.progressSum)})
}

// reportLags reports whether the assignment's report is not the one of
// the state files whose sha256 sums are given. The report's state mark is
// compared: an up-to-date report is not rendered again just to be thrown
// away.
func (a *Assignment) reportLags(r *protocol.Request, p *protocol.Progress, requestSum, progressSum string) (bool, error) {
	if !a.renders(r, p) {
		return false, nil
	}
	have, err := a.readFile(ReportFile)
	return err == nil && string(stateMark(have)) != reportMark(requestSum, progressSum), err
}

// stateMarkPrefix starts the report's last line, which names the state
// files it was rendered from, so that a report a crash left behind its
// state files is recognised and rendered again.
const stateMarkPrefix = "<!-- specdev-state: "

// renders reports whether the assignment has a report to render.
func (a *Assignment) renders(r *protocol.Request, p *protocol.Progress) bool {
	return a.store.Render != nil && r != nil && p != nil
}

// renderReport is the report of the request and progress whose encoded
// bytes have the sha256 sums requestSum and progressSum, ending with its
// state mark; nil when there is nothing to render.
func (a *Assignment) renderReport(r *protocol.Request, p *protocol.Progress, requestSum, progressSum string) []byte {
	if !a.renders(r, p) {
		return nil
	}
	return append(a.store.Render(r, p), reportMark(requestSum, progressSum)...)
}

// reportMark is the last line of a report rendered from the state files
// whose sha256 sums are given: it names the pair by content.
func reportMark(requestSum, progressSum string) string {
	sum := sha256.Sum256([]byte(requestSum + "\n" + progressSum))
	return stateMarkPrefix + hex.EncodeToString(sum[:16]) + " -->\n"
}

// stateMark returns the report's state mark line, or nil.
func stateMark(report []byte) []byte {
	i := bytes.LastIndex(report, []byte(stateMarkPrefix))
	if i < 0 {
		return nil
	}
	return report[i:]
}

// ReportBody returns a rendered report without its state mark line.
func ReportBody(report []byte) []byte { return report[:len(report)-len(stateMark(report))] }

// Fresh is Snapshot for commands that show the state to a person: if a
// crash left the report behind the state files, or journalled events out
// of the history, it converges them first (under the lock, when the lock
// is free at once; a holder converges them itself) and reads again.
//
// With a remote, the folder is first made a copy of the remote's state
// (unless another process holds the lock: it does that itself).
func (a *Assignment) Fresh(ctx context.Context) (Snapshot, error) {
	if _, err := os.Lstat(a.Dir); errors.Is(err, os.ErrNotExist) { // removed while a command was waiting on it
		return Snapshot{}, &StateError{Msg: fmt.Sprintf("the assignment folder %s is gone (it was removed)", a.RelDir()),
			Hint: "restore it if that was a mistake (e.g. from git), or see what is left: specdev status"}
	}
	snap, err := a.Snapshot()
	if a.store.Remote == nil && (err != nil || !a.Lagging(snap)) {
		return snap, err
	}
	if err := a.withoutWait().Update(ctx, nil); err != nil && !errors.Is(err, ErrBusy) { // an update without a change only converges
		if a.store.Remote != nil { // the remote's state could not be copied: this folder's may be old
			return Snapshot{}, err
		}
		a.store.logf("could not converge %s yet: %v", a.Name, err)
	}
	return a.Snapshot()
}

// Lagging reports whether the report or the history lags the state files
// in snap (as Snapshot read them), as a crash in the middle of a
// transaction may leave them;
// Fresh (or the next change) brings them up to date.
func (a *Assignment) Lagging(snap Snapshot) bool {
	if last, err := a.lastHistorySeq(); err != nil || len(eventsAfter(snap.journals(), last)) > 0 {
		return err == nil // an unreadable history: the next transaction warns about it
	}
	lags, _ := a.reportLags(snap.Request, snap.Progress, digest(snap.requestData), digest(snap.progressData))
	return lags
}

func (s Snapshot) journals() []*protocol.Journal {
	var js []*protocol.Journal
	if s.Request != nil {
		js = append(js, s.Request.Journal)
	}
	if s.Progress != nil {
		js = append(js, s.Progress.Journal)
	}
	return js
}
