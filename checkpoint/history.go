package checkpoint

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/specdev/specdev/protocol"
)

// appendHistory appends events to review_history.jsonl as one write and
// fsyncs it. A torn last line (a writer killed mid-append) is repaired
// first: kept with its newline if it is a whole event, cut off if not.
// Call it only under the assignment's lock.
func (a *Assignment) appendHistory(events []protocol.Event) error {
	if len(events) == 0 {
		return nil
	}
	var buf bytes.Buffer
	for _, e := range events {
		line, err := json.Marshal(e)
		if err != nil {
			return fmt.Errorf("encode history event: %w", err)
		}
		buf.Write(line)
		buf.WriteByte('\n')
	}
	path := a.path(protocol.HistoryFile)
	f, err := openState(path, a.rel(protocol.HistoryFile), os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return wrapFile("append", path, err)
	}
	defer f.Close()
	if err := a.repairTornTail(f); err != nil {
		return fmt.Errorf("repair %s: %w", path, err)
	}
	if _, err := f.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("append %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", path, err)
	}
	return nil
}

// repairTornTail makes the file end with a newline again.
func (a *Assignment) repairTornTail(f *os.File) error {
	info, err := f.Stat()
	if err != nil {
		return err
	}
	tail, start, _, err := newBackLines(f, info.Size()).prev()
	if err != nil || len(tail) == 0 { // empty, or ends with a newline
		return err
	}
	if _, err := protocol.DecodeEvent(protocol.HistoryFile, 0, tail); err == nil {
		a.store.logf("repaired %s: added the newline a crash left off", a.path(protocol.HistoryFile))
		_, err := f.Write([]byte{'\n'})
		return err
	}
	a.store.logf("repaired %s: removed a torn last line of %d bytes", a.path(protocol.HistoryFile), len(tail))
	return f.Truncate(start)
}

// History reads the assignment's event log. A torn last line is skipped
// (reported by torn); a malformed line elsewhere is an *InvalidError.
// The file is never read through a symlink (a *LinkError).
func (a *Assignment) History() (events []protocol.Event, torn bool, err error) {
	part, err := a.HistoryLast(0, nil)
	return part.Events, part.Torn, err
}

// openHistory opens the history to read, never through a link, and
// returns its size; a nil file when there is no history.
func (a *Assignment) openHistory() (*os.File, int64, error) {
	file := a.rel(protocol.HistoryFile)
	f, err := openState(a.path(protocol.HistoryFile), file, os.O_RDONLY, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, 0, nil
	}
	if err != nil {
		return nil, 0, wrapFile("read", file, err)
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, fmt.Errorf("read %s: %w", file, err)
	}
	return f, info.Size(), nil
}
