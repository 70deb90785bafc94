package protocol

import (
	"bytes"
	"fmt"
	"unicode/utf8"
)

// MaxFileSize bounds every file and input specdev decodes; anything larger
// is refused as invalid rather than read into memory.
const MaxFileSize = 32 << 20

const hintHandEdit = "fix the file by hand or restore it (e.g. from git); specdev never overwrites a malformed file"

// read is the one way a file is read: it refuses what no document of
// ours may be (too large, not UTF-8, a byte-order mark, empty), decodes
// the JSON into v by its Go type (strict.go), and leaves the value's
// rules to its Validate. strict refuses unknown keys in every object;
// version is the newest "version" the file may give.
func read(file, schema string, data []byte, v any, strict bool, version int) error {
	if len(data) > MaxFileSize {
		return invalid(file, "", "split or shrink the input", "is %d bytes, more than the limit of %d", len(data), MaxFileSize)
	}
	if err := checkEncoding(file, data); err != nil {
		return err
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return invalid(file, "", hintHandEdit, "is empty")
	}
	r := &reader{text: string(data), file: file, schema: schema, strict: strict, version: version}
	r.path = r.buf[:0]
	return r.document(v)
}

// checkEncoding refuses anything but UTF-8 without a byte-order mark, as
// JSON is exchanged (RFC 8259), naming the problem: an editor that added
// a mark, or saved UTF-16, is the usual cause.
func checkEncoding(file string, data []byte) error {
	const hintSave = "save the file as UTF-8 without a byte-order mark (BOM); most editors offer that when saving"
	switch {
	case bytes.HasPrefix(data, []byte("\xef\xbb\xbf")):
		return invalid(file, "", hintSave, "starts with a UTF-8 byte-order mark; save it without one")
	case bytes.HasPrefix(data, []byte("\xfe\xff")) || bytes.HasPrefix(data, []byte("\xff\xfe")):
		return invalid(file, "", hintSave, "is UTF-16 (it starts with a UTF-16 byte-order mark); save it as UTF-8")
	case !utf8.Valid(data):
		line, col := position(string(data), firstInvalidUTF8(data))
		return invalid(file, "", hintHandEdit, "is not valid UTF-8 (line %d, column %d)", line, col)
	}
	return nil
}

func firstInvalidUTF8(data []byte) int {
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 {
			return i
		}
		i += size
	}
	return len(data)
}

// semantic runs rules on one check and reports what they found against
// file and schema: each type's Validate (its shape, then its semantics).
func semantic(file, schema string, rules ...func(*check)) error {
	var c check
	for _, rule := range rules {
		rule(&c)
	}
	return c.result(file, schema)
}

// DecodeRequest reads and validates review_request.json. Fields a
// seed-shaped request leaves out take their defaults; unknown ones are
// kept in Extra.
func DecodeRequest(file string, data []byte) (*Request, error) {
	var r Request
	if err := read(file, "request", data, &r, false, RequestVersion); err != nil {
		return nil, err
	}
	r.applyDefaults()
	if err := semantic(file, "request", r.shape, r.semantics); err != nil {
		return nil, err
	}
	return &r, nil
}

// DecodeProgress reads and validates review_progress.json, including its
// consistency (every file counted once, as reviewed or remaining).
func DecodeProgress(file string, data []byte) (*Progress, error) {
	var p Progress
	if err := read(file, "progress", data, &p, false, ProgressVersion); err != nil {
		return nil, err
	}
	p.applyDefaults()
	if err := semantic(file, "progress", p.shape, p.semantics); err != nil {
		return nil, err
	}
	return &p, nil
}

// DecodeConfig reads and validates .specdev/config.json. Unknown fields
// are errors that list the valid ones.
func DecodeConfig(file string, data []byte) (Config, error) {
	var c Config
	if err := read(file, "config", data, &c, true, 1); err != nil {
		return Config{}, err
	}
	if err := semantic(file, "config", c.shape, c.semantics); err != nil {
		return Config{}, err
	}
	return c, nil
}

// DecodeVerdict reads a verdict file written by a reviewer. Unknown fields
// are errors that list the valid ones.
func DecodeVerdict(file string, data []byte) (*Verdict, error) {
	var v Verdict
	if err := read(file, "verdict", data, &v, true, 0); err != nil {
		return nil, err
	}
	if err := semantic(file, "verdict", v.shape, v.semantics); err != nil {
		return nil, err
	}
	return &v, nil
}

// DecodeFindings reads a findings file (a JSON array of findings) written
// by a reviewer. Unknown fields are errors that list the valid ones.
func DecodeFindings(file string, data []byte) ([]Finding, error) {
	var findings []Finding
	if err := read(file, "findings", data, &findings, true, 0); err != nil {
		return nil, err
	}
	err := semantic(file, "findings", func(c *check) {
		c.each("", len(findings), MaxIssues, func(i int, c *check) { findings[i].shape(c); findings[i].semantics(c) })
	})
	if err != nil {
		return nil, err
	}
	return findings, nil
}

// DecodeEvent reads one line of review_history.jsonl.
func DecodeEvent(file string, line int, data []byte) (Event, error) {
	var e Event
	where := fmt.Sprintf("%s line %d", file, line)
	if err := read(where, "history", data, &e, false, 0); err != nil {
		return Event{}, err
	}
	if err := semantic(where, "history", e.shape); err != nil {
		return Event{}, err
	}
	return e, nil
}
