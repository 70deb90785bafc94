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
	tail, start, _, err := newBackLines(f, size).prev()
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
	f, size, err := openState(a.path(protocol.HistoryFile), a.rel(protocol.HistoryFile), os.O_RDONLY, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, 0, nil
	}
	if err != nil {
		return nil, 0, wrapFile("read", a.rel(protocol.HistoryFile), err)
	}
	return f, size, nil
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
	f, size, err := a.openHistory()
	if f == nil {
		return HistoryPart{Events: []protocol.Event{}}, err
	}
	defer f.Close()
	if n <= 0 {
		n = math.MaxInt
	}
	file, part := a.rel(protocol.HistoryFile), HistoryPart{Events: []protocol.Event{}}
	lines := newBackLines(f, size)
	for last := true; len(part.Events) < n; last = false {
		line, start, ok, err := lines.prev()
		if err != nil {
			return HistoryPart{}, fmt.Errorf("read %s: %w", file, err)
		}
		if !ok {
			break
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		e, err := protocol.DecodeEvent(file, 0, line)
		switch {
		case err != nil && last:
			part.Torn = true
			continue
		case err != nil:
			return HistoryPart{}, lineError(f, file, start, line)
		}
		part.Total++
		if keep == nil || keep(e) {
			part.Events = append(part.Events, e)
		}
		if len(part.Events) == n && count { // the lines before are only counted
			_, before, err := countLines(f, start)
			if err != nil {
				return HistoryPart{}, fmt.Errorf("read %s: %w", file, err)
			}
			part.Total += before
		}
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

// backLines reads a file's lines from the last to the first. Each read
// takes the chunk before what it has: small at first, since an event's
// line is a few hundred bytes, then larger for a longer line.
type backLines struct {
	f     *os.File
	pos   int64  // the file offset of buf[0]
	buf   []byte // what is read and not yet returned, up to the line returned last
	chunk int64
	done  bool
}

func newBackLines(f *os.File, size int64) *backLines {
	return &backLines{f: f, pos: size, chunk: 4 << 10}
}

// prev returns the line before the ones returned so far, without its
// newline, and the offset it starts at; ok is false before the first
// line. Its first answer is what follows the last newline: "" when the
// file ends with one.
func (r *backLines) prev() (line []byte, start int64, ok bool, err error) {
	for !r.done {
		if i := bytes.LastIndexByte(r.buf, '\n'); i >= 0 {
			line, start = r.buf[i+1:], r.pos+int64(i)+1
			r.buf = r.buf[:i]
			return line, start, true, nil
		}
		if r.pos == 0 {
			r.done = true
			return r.buf, 0, true, nil
		}
		if err := r.readMore(); err != nil {
			return nil, 0, false, err
		}
	}
	return nil, 0, false, nil
}

// readMore puts the chunk before buf in front of it.
func (r *backLines) readMore() error {
	from := max(r.pos-r.chunk, 0)
	size := int(r.pos - from)
	buf := make([]byte, size+len(r.buf))
	if k, err := r.f.ReadAt(buf[:size], from); k < size {
		if err == nil || err == io.EOF {
			err = io.ErrUnexpectedEOF // the file shrank while being read
		}
		return err
	}
	copy(buf[size:], r.buf)
	r.pos, r.buf = from, buf
	r.chunk = min(r.chunk*4, 256<<10)
	return nil
}
