package checkpoint

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"slices"

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
	f, size, err := openState(path, a.rel(protocol.HistoryFile), os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return wrapFile("append", path, err)
	}
	defer f.Close()
	if err := a.repairTornTail(f, size); err != nil {
		return fmt.Errorf("repair %s: %w", path, err)
	}
	if _, err = f.Write(buf.Bytes()); err == nil {
		err = f.Sync()
	}
	if err != nil {
		return fmt.Errorf("append %s: %w", path, err)
	}
	return nil
}

// repairTornTail makes the file end with a newline again.
func (a *Assignment) repairTornTail(f *os.File, size int64) error {
	var tail []byte
	var start int64
	err := eachLineBack(f, size, func(line []byte, at int64) bool { // only the last line
		tail, start = line, at
		return false
	})
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

// HistoryPart is the end of a history: the last events a filter keeps,
// and how many events the whole history holds.
type HistoryPart struct {
	Events []protocol.Event // oldest first; never nil
	Total  int              // events in the whole history (a torn last line is none)
	Torn   bool             // the last line is torn by a crash, and skipped
}

// HistoryLast reads the last n events that keep accepts (keep nil: every
// event; n 0: all of them, as History reads them). It decodes from the
// end of the file back only until it has n, so that its cost follows n
// and not the length of the history; the lines before those are counted,
// not decoded, so a malformed one among them goes unreported here
// (History reports it). A torn last line is skipped, as History does.
func (a *Assignment) HistoryLast(n int, keep func(protocol.Event) bool) (HistoryPart, error) {
	return a.historyTail(n, keep, true)
}

// lastHistorySeq returns the sequence number of the history's last whole
// event: 0 for no history or one older than sequence numbers. A torn last
// line is skipped; only the end of the file is read.
func (a *Assignment) lastHistorySeq() (int64, error) {
	part, err := a.historyTail(1, nil, false)
	if err != nil || len(part.Events) == 0 {
		return 0, err
	}
	return part.Events[0].Seq, nil
}

// historyTail is HistoryLast; the lines before the events it keeps are
// counted only with count (Total is then the whole history's).
func (a *Assignment) historyTail(n int, keep func(protocol.Event) bool, count bool) (HistoryPart, error) {
	file, part := a.rel(protocol.HistoryFile), HistoryPart{Events: []protocol.Event{}}
	f, size, err := openState(a.path(protocol.HistoryFile), file, os.O_RDONLY, 0) // never through a link
	if errors.Is(err, fs.ErrNotExist) {
		return part, nil
	}
	if err != nil {
		return HistoryPart{}, wrapFile("read", file, err)
	}
	defer f.Close()
	if n <= 0 {
		n = math.MaxInt
	}
	var bad error // a malformed line, or a failed count of the lines before
	err = eachLineBack(f, size, func(line []byte, start int64) bool {
		torn := start+int64(len(line)) == size // only the text after the last newline can be torn
		if len(bytes.TrimSpace(line)) == 0 {
			return true
		}
		e, err := protocol.DecodeEvent(file, 0, line)
		switch {
		case err != nil && torn:
			part.Torn = true
			return true
		case err != nil:
			bad = lineError(f, file, start, line)
			return false
		}
		part.Total++
		if keep == nil || keep(e) {
			part.Events = append(part.Events, e)
		}
		if len(part.Events) == n && count { // the lines before are only counted
			if _, before, err := countLines(f, start); err != nil {
				bad = fmt.Errorf("read %s: %w", file, err)
			} else {
				part.Total += before
			}
		}
		return len(part.Events) < n
	})
	if err != nil {
		return HistoryPart{}, fmt.Errorf("read %s: %w", file, err)
	}
	if bad != nil {
		return HistoryPart{}, bad
	}
	slices.Reverse(part.Events)
	return part, nil
}

// lineError is the error of the malformed line at offset start, with its
// line number, which only a count of the lines before it tells.
func lineError(f *os.File, file string, start int64, line []byte) error {
	before, _, err := countLines(f, start)
	if err != nil {
		return fmt.Errorf("read %s: %w", file, err)
	}
	_, err = protocol.DecodeEvent(file, before+1, line)
	return err
}

// countLines counts the lines of f before offset end, which starts one:
// all of them, and those that are not blank (History's events, if they
// are well formed).
func countLines(f *os.File, end int64) (lines, nonBlank int, err error) {
	in := bufio.NewScanner(io.NewSectionReader(f, 0, end))
	in.Buffer(make([]byte, 64<<10), int(end)+1) // no line is longer than the file
	for in.Scan() {
		lines++
		if len(bytes.TrimSpace(in.Bytes())) > 0 {
			nonBlank++
		}
	}
	return lines, nonBlank, in.Err()
}

// eachLineBack calls fn with each line of f before offset size, from the
// last to the first, without its newline, and the offset it starts at,
// until fn returns false. Its first line is what follows the last
// newline: "" when the file ends with one. Each read takes the chunk
// before what it has: small at first, since an event's line is a few
// hundred bytes, then larger for a longer line.
func eachLineBack(f *os.File, size int64, fn func(line []byte, start int64) bool) error {
	var rest []byte // the start of a line the reads so far cut
	for pos, chunk := size, int64(4<<10); pos > 0; chunk = min(chunk*4, 256<<10) {
		from := max(pos-chunk, 0)
		buf := make([]byte, pos-from, pos-from+int64(len(rest)))
		if _, err := f.ReadAt(buf, from); err != nil {
			return err // io.EOF: the file shrank while being read
		}
		buf = append(buf, rest...)
		for i := bytes.LastIndexByte(buf, '\n'); i >= 0; i = bytes.LastIndexByte(buf, '\n') {
			if !fn(buf[i+1:], from+int64(i)+1) {
				return nil
			}
			buf = buf[:i]
		}
		rest, pos = buf, from
	}
	fn(rest, 0)
	return nil
}
