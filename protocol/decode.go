package protocol

import (
	"bytes"
	"fmt"
)

// MaxFileSize bounds every file and input specdev decodes; anything larger
// is refused as invalid rather than read into memory.
const MaxFileSize = 32 << 20

const hintHandEdit = "fix the file by hand or restore it (e.g. from git); specdev never overwrites a malformed file"

// read is the one way a file is read: it refuses what no document of
// ours may be (too large, empty, or with a byte-order mark, which JSON as
// exchanged does not carry (RFC 8259): an editor that added a mark, or
// saved UTF-16, is the usual cause), decodes the JSON into v by its Go
// type (jsondecode.go; v2 refuses invalid UTF-8 where it meets it,
// naming line and column), and leaves the value's rules to its Validate.
// strict refuses unknown keys in every object.
func read(file, schema string, data []byte, v any, strict bool) error {
	const hintSave = "save the file as UTF-8 without a byte-order mark (BOM); most editors offer that when saving"
	switch {
	case len(data) > MaxFileSize:
		return invalid(file, "", "split or shrink the input", "is %d bytes, more than the limit of %d", len(data), MaxFileSize)
	case bytes.HasPrefix(data, []byte("\xef\xbb\xbf")):
		return invalid(file, "", hintSave, "starts with a UTF-8 byte-order mark; save it without one")
	case bytes.HasPrefix(data, []byte("\xfe\xff")) || bytes.HasPrefix(data, []byte("\xff\xfe")):
		return invalid(file, "", hintSave, "is UTF-16 (it starts with a UTF-16 byte-order mark); save it as UTF-8")
	case len(bytes.TrimSpace(data)) == 0:
		return invalid(file, "", hintHandEdit, "is empty")
	}
	return readJSON(file, schema, data, v, strict)
}

// semantic applies the rules of v (a pointer to a struct, or to a list
// of findings) and reports the first it breaks against file and schema:
// each type's Validate.
func semantic(file, schema string, v any) error {
	var c check
	if findings, ok := v.(*[]Finding); ok {
		c.each("", len(*findings), MaxIssues, func(i int, c *check) { c.shape(&(*findings)[i]) })
	} else {
		c.shape(v)
	}
	return c.result(file, schema)
}

// decode reads data into a T, applies the defaults of what it left out,
// and then its rules.
func decode[T any](file, schema string, data []byte, strict bool) (*T, error) {
	v := new(T)
	if err := read(file, schema, data, v, strict); err != nil {
		return nil, err
	}
	if d, ok := any(v).(interface{ applyDefaults() }); ok {
		d.applyDefaults()
	}
	if err := semantic(file, schema, v); err != nil {
		return nil, err
	}
	return v, nil
}

// decodeValue is decode for a value returned as it is, not by pointer.
func decodeValue[T any](file, schema string, data []byte, strict bool) (T, error) {
	v, err := decode[T](file, schema, data, strict)
	if err != nil {
		return *new(T), err
	}
	return *v, nil
}

// DecodeRequest reads and validates review_request.json. Fields a
// seed-shaped request leaves out take their defaults; unknown ones are
// kept in Extra.
func DecodeRequest(file string, data []byte) (*Request, error) {
	return decode[Request](file, "request", data, false)
}

// DecodeProgress reads and validates review_progress.json, including its
// consistency (every file counted once, as reviewed or remaining).
func DecodeProgress(file string, data []byte) (*Progress, error) {
	return decode[Progress](file, "progress", data, false)
}

// DecodeConfig reads and validates .specdev/config.json. Unknown fields
// are errors that list the valid ones.
func DecodeConfig(file string, data []byte) (Config, error) {
	return decodeValue[Config](file, "config", data, true)
}

// DecodeVerdict reads a verdict file written by a reviewer. Unknown fields
// are errors that list the valid ones.
func DecodeVerdict(file string, data []byte) (*Verdict, error) {
	return decode[Verdict](file, "verdict", data, true)
}

// DecodeFindings reads a findings file (a JSON array of findings) written
// by a reviewer. Unknown fields are errors that list the valid ones.
func DecodeFindings(file string, data []byte) ([]Finding, error) {
	return decodeValue[[]Finding](file, "findings", data, true)
}

// DecodeEvent reads one line of review_history.jsonl.
func DecodeEvent(file string, line int, data []byte) (Event, error) {
	return decodeValue[Event](fmt.Sprintf("%s line %d", file, line), "history", data, false)
}
