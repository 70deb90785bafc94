package checkpoint

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
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
	var journals []*protocol.Journal
	if tx.Request != nil {
		journals = append(journals, tx.Request.Journal)
	}
	if tx.Progress != nil {
		journals = append(journals, tx.Progress.Journal)
	}
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
// The report's state mark is compared first: an up-to-date report is not
// rendered again just to be thrown away.
func (tx *Tx) convergeReport() error {
	a := tx.A
	if !a.renders(tx.Request, tx.Progress) {
		return nil
	}
	have, err := a.readFile(ReportFile)
	if err != nil || string(stateMark(have)) == reportMark(tx.requestSum, tx.progressSum) {
		return err
	}
	want, _ := a.renderReport(tx.Request, tx.Progress, tx.requestSum, tx.progressSum)
	return writeAtomic(a.Dir, fileWrite{ReportFile, want})
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
// state mark; false when there is nothing to render.
func (a *Assignment) renderReport(r *protocol.Request, p *protocol.Progress, requestSum, progressSum string) ([]byte, bool) {
	if !a.renders(r, p) {
		return nil, false
	}
	return append(a.store.Render(r, p), reportMark(requestSum, progressSum)...), true
}

// reportMark is the last line of a report rendered from the state files
// whose sha256 sums are given.
func reportMark(requestSum, progressSum string) string {
	return stateMarkPrefix + stateDigest(requestSum, progressSum) + " -->\n"
}

// stateDigest names a pair of state files by content (their sums).
func stateDigest(requestSum, progressSum string) string {
	sum := sha256.Sum256([]byte(requestSum + "\n" + progressSum))
	return hex.EncodeToString(sum[:16])
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
func ReportBody(report []byte) []byte {
	if i := bytes.LastIndex(report, []byte(stateMarkPrefix)); i >= 0 {
		return report[:i]
	}
	return report
}

// lastHistorySeq returns the sequence number of the history's last whole
// event: 0 for no history or one older than sequence numbers. A torn last
// line is skipped, unless it is a whole event that only lacks its newline.
func (a *Assignment) lastHistorySeq() (int64, error) {
	f, err := openState(a.path(protocol.HistoryFile), a.rel(protocol.HistoryFile), os.O_RDONLY, 0)
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil || info.Size() == 0 {
		return 0, err
	}
	end := info.Size()
	last := make([]byte, 1)
	if _, err := f.ReadAt(last, end-1); err != nil {
		return 0, err
	}
	if last[0] == '\n' {
		end--
	}
	for range 2 { // the last line, then the one before if the last is torn
		start, err := lastLineStart(f, end)
		if err != nil {
			return 0, err
		}
		line := make([]byte, end-start)
		if _, err := f.ReadAt(line, start); err != nil && err != io.EOF {
			return 0, err
		}
		if e, err := protocol.DecodeEvent(a.rel(protocol.HistoryFile), 0, line); err == nil {
			return e.Seq, nil
		}
		if start == 0 {
			return 0, nil
		}
		end = start - 1 // before the newline that ends the previous line
	}
	return 0, nil
}

// Fresh is Snapshot for commands that show the state to a person: if a
// crash left the report behind the state files, or journalled events out
// of the history, it converges them first (under the lock, when the lock
// is free at once; a holder converges them itself) and reads again.
//
// With a remote, the folder is first made a copy of the remote's state
// (unless another process holds the lock: it does that itself).
func (a *Assignment) Fresh(ctx context.Context) (Snapshot, error) {
	if err := a.stillThere(); err != nil {
		return Snapshot{}, err
	}
	if a.store.Remote != nil {
		if err := a.withoutWait().Repair(ctx); err != nil && !errors.Is(err, ErrBusy) {
			return Snapshot{}, err
		}
		return a.Snapshot()
	}
	snap, err := a.Snapshot()
	if err != nil || !a.behind(snap) {
		return snap, err
	}
	if err := a.Repair(ctx); err != nil {
		a.store.logf("could not converge %s yet: %v", a.Name, err)
		return snap, nil
	}
	return a.Snapshot()
}

// behind reports whether the report or the history lags the state files.
func (a *Assignment) behind(snap Snapshot) bool {
	last, err := a.lastHistorySeq()
	if err != nil {
		return false // the next transaction warns about it
	}
	for _, j := range snap.journals() {
		if j.LastSeq() > last {
			return true
		}
	}
	if a.store.Render == nil || snap.Request == nil || snap.Progress == nil {
		return false
	}
	requestData, progressData := snap.requestData, snap.progressData
	if requestData == nil || progressData == nil { // a snapshot a transaction returned
		var err1, err2 error
		requestData, err1 = a.readFile(protocol.RequestFile)
		progressData, err2 = a.readFile(protocol.ProgressFile)
		if err1 != nil || err2 != nil {
			return false
		}
	}
	report, err := a.readFile(ReportFile)
	if err != nil {
		return false
	}
	return string(stateMark(report)) != reportMark(digest(requestData), digest(progressData))
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

// stillThere says if the assignment's folder is gone (removed while a
// command was waiting on it).
func (a *Assignment) stillThere() error {
	if _, err := os.Lstat(a.Dir); errors.Is(err, os.ErrNotExist) {
		return &StateError{Msg: fmt.Sprintf("the assignment folder %s is gone (it was removed)", a.RelDir()),
			Hint: "restore it if that was a mistake (e.g. from git), or see what is left: specdev status"}
	}
	return nil
}
