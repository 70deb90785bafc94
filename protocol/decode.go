package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"unicode/utf8"
)

// MaxFileSize bounds every file and input specdev decodes; anything larger
// is refused as invalid rather than read into memory.
const MaxFileSize = 32 << 20

const hintHandEdit = "fix the file by hand or restore it (e.g. from git); specdev never overwrites a malformed file"

// decodeJSON checks size, encoding, syntax, nesting depth and keys (exact,
// not repeated; see keys.go), and returns the document as generic values
// (numbers as json.Number) for schema validation.
func decodeJSON(file string, data []byte, s *shape) (any, error) {
	if len(data) > MaxFileSize {
		return nil, invalid(file, "", "split or shrink the input",
			"is %d bytes, more than the limit of %d", len(data), MaxFileSize)
	}
	if !utf8.Valid(data) {
		line, col := position(data, firstInvalidUTF8(data))
		return nil, invalid(file, "", hintHandEdit, "is not valid UTF-8 (line %d, column %d)", line, col)
	}
	doc, dec, err := walk(file, data, s)
	var inv *InvalidError
	switch {
	case errors.As(err, &inv):
		return nil, inv
	case errors.Is(err, errEmpty):
		return nil, invalid(file, "", hintHandEdit, "is empty")
	case err != nil:
		return nil, syntaxError(file, data, dec.InputOffset(), err)
	}
	if _, err := dec.Token(); err != io.EOF {
		line, col := position(data, int(dec.InputOffset()))
		return nil, invalid(file, "", hintHandEdit, "has more than one JSON value (line %d, column %d)", line, col)
	}
	return doc, nil
}

func syntaxError(file string, data []byte, offset int64, err error) error {
	var serr *json.SyntaxError
	if errors.As(err, &serr) {
		offset = serr.Offset
	}
	if errors.Is(err, io.EOF) || len(bytes.TrimSpace(data)) == 0 {
		return invalid(file, "", hintHandEdit, "is empty")
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		offset = int64(len(bytes.TrimRight(data, " \t\r\n"))) // cut off: say where it ends
	}
	line, col := position(data, int(offset))
	return invalid(file, "", hintHandEdit, "is not valid JSON (line %d, column %d): %v", line, col, err)
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

// position converts a byte offset into a 1-based line and column.
func position(data []byte, offset int) (line, col int) {
	offset = min(max(offset, 0), len(data))
	before := data[:offset]
	line = bytes.Count(before, []byte("\n")) + 1
	col = offset - bytes.LastIndexByte(before, '\n')
	return line, col
}

// checkVersion refuses a document whose version is newer than supported.
func checkVersion(file string, doc any, supported int) error {
	obj, ok := doc.(map[string]any)
	if !ok {
		return nil
	}
	num, ok := obj["version"].(json.Number)
	if !ok {
		return nil // absent, or the wrong type: the schema reports it
	}
	v, err := num.Int64()
	if err == nil && v > int64(supported) {
		return invalid(file, "version", "upgrade specdev to a release that reads this version",
			"version %d is newer than this specdev supports (%d)", v, supported)
	}
	return nil
}

// decodeDocument runs the whole pipeline: size, UTF-8, JSON syntax, keys
// and depth, version, schema; then decodes into v, whose Go type directs
// the key checks.
func decodeDocument(schema, file string, data []byte, supported int, v any) error {
	doc, err := decodeJSON(file, data, shapeFor(shapeType(v)))
	if err != nil {
		return err
	}
	if err := checkVersion(file, doc, supported); err != nil {
		return err
	}
	if schema == "config" {
		if err := checkConfigDurations(file, doc); err != nil {
			return err
		}
	}
	if err := validateSchema(schema, file, doc); err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return invalid(file, "", hintHandEdit, "%v", err)
	}
	return nil
}

// shapeType is the type whose fields the keys of v's document must match:
// the method-free field types of the state files, v's own type otherwise.
func shapeType(v any) reflect.Type {
	switch v.(type) {
	case *Request:
		return reflect.TypeFor[requestFields]()
	case *Progress:
		return reflect.TypeFor[progressFields]()
	}
	return reflect.TypeOf(v)
}

// semantic runs rules on one check and reports what they found against
// file and schema: the checks no schema can express on a decoded value,
// and each type's Validate (its shape, then its semantics).
func semantic(file, schema string, rules ...func(*check)) error {
	var c check
	for _, rule := range rules {
		rule(&c)
	}
	return c.result(file, schema)
}

// DecodeRequest reads and validates review_request.json.
func DecodeRequest(file string, data []byte) (*Request, error) {
	return decodeRequest(file, data, true)
}

// DecodeTrustedRequest decodes a review_request.json whose exact bytes are
// known to be valid (specdev wrote or validated them): it skips the schema
// pass, the key checks and the semantic checks, which cost time in
// proportion to the file.
func DecodeTrustedRequest(file string, data []byte) (*Request, error) {
	return decodeRequest(file, data, false)
}

func decodeRequest(file string, data []byte, validate bool) (*Request, error) {
	var r Request
	if err := decodeState("request", file, data, RequestVersion, &r, validate); err != nil {
		return nil, err
	}
	if validate {
		if err := semantic(file, "request", r.semantics); err != nil {
			return nil, err
		}
	}
	r.applyDefaults()
	return &r, nil
}

// DecodeProgress reads and validates review_progress.json, including its
// consistency (every file counted once, as reviewed or remaining).
func DecodeProgress(file string, data []byte) (*Progress, error) {
	return decodeProgress(file, data, true)
}

// DecodeTrustedProgress is DecodeTrustedRequest for review_progress.json.
func DecodeTrustedProgress(file string, data []byte) (*Progress, error) {
	return decodeProgress(file, data, false)
}

func decodeProgress(file string, data []byte, validate bool) (*Progress, error) {
	var p Progress
	if err := decodeState("progress", file, data, ProgressVersion, &p, validate); err != nil {
		return nil, err
	}
	if validate {
		if err := semantic(file, "progress", p.semantics); err != nil {
			return nil, err
		}
	}
	p.applyDefaults()
	return &p, nil
}

// decodeState runs the whole pipeline, or for trusted bytes only the
// typed decode.
func decodeState(schema, file string, data []byte, supported int, v any, validate bool) error {
	if validate {
		return decodeDocument(schema, file, data, supported, v)
	}
	if u, ok := v.(json.Unmarshaler); ok { // skip json.Unmarshal's extra validating pass
		if err := u.UnmarshalJSON(data); err != nil {
			return invalid(file, "", hintHandEdit, "%v", err)
		}
		return nil
	}
	if err := json.Unmarshal(data, v); err != nil {
		return invalid(file, "", hintHandEdit, "%v", err)
	}
	return nil
}

// DecodeConfig reads and validates .specdev/config.json.
func DecodeConfig(file string, data []byte) (Config, error) {
	var c Config
	if err := decodeDocument("config", file, data, 1, &c); err != nil {
		return Config{}, err
	}
	if err := semantic(file, "config", c.semantics); err != nil {
		return Config{}, err
	}
	return c, nil
}

// DecodeTrustedConfig decodes a config.json whose exact bytes passed
// DecodeConfig before: no schema pass. Its bounds are checked again, which
// costs nothing, so that a config an older specdev accepted cannot slip
// past a bound added since.
//
// The fast decoder reads it (see DecodeTrustedRequest): encoding/json's
// first use in a process was a tenth of an idle poll's start-up. Bytes
// that passed the schema have no unknown fields; if the fast decoder
// gives up or finds one anyway, encoding/json decides.
func DecodeTrustedConfig(file string, data []byte) (Config, error) {
	var c Config
	if extra, ok := decodeFast(data, &c, configTop().folded); !ok || len(extra) > 0 {
		c = Config{}
		if err := decodeState("config", file, data, 1, &c, false); err != nil {
			return Config{}, err
		}
	}
	if err := c.Validate(); err != nil {
		err.(*InvalidError).File = file
		return Config{}, err
	}
	return c, nil
}

// DecodeVerdict reads a verdict file written by a reviewer. Unknown fields
// are errors that list the valid ones.
func DecodeVerdict(file string, data []byte) (*Verdict, error) {
	var v Verdict
	if err := decodeDocument("verdict", file, data, 1, &v); err != nil {
		return nil, err
	}
	if err := semantic(file, "verdict", v.semantics); err != nil {
		return nil, err
	}
	return &v, nil
}

// DecodeFindings reads a findings file (a JSON array of findings) written
// by a reviewer. Unknown fields are errors that list the valid ones.
func DecodeFindings(file string, data []byte) ([]Finding, error) {
	var findings []Finding
	if err := decodeDocument("findings", file, data, 1, &findings); err != nil {
		return nil, err
	}
	err := semantic(file, "findings", func(c *check) {
		c.each("", len(findings), MaxIssues, func(i int, c *check) { findings[i].semantics(c) })
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
	if err := decodeDocument("history", where, data, 1, &e); err != nil {
		return Event{}, err
	}
	return e, nil
}
