package protocol

import (
	"bytes"
	stdjson "encoding/json"

	json "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Extra holds the fields of a state file that this version of specdev does
// not know. They are written back unchanged, so that a file another tool
// (or a newer specdev) wrote keeps its data when we rewrite it.
type Extra map[string]stdjson.RawMessage

// depthOf is how deeply a valid JSON value nests objects and lists (0 for
// a scalar), counted over its bytes without allocating.
func depthOf(raw []byte) int {
	depth, deepest := 0, 0
	inString, escaped := false, false
	for _, c := range raw {
		switch {
		case escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case c == '"':
			inString = !inString
		case inString:
		case c == '{' || c == '[':
			depth++
			deepest = max(deepest, depth)
		case c == '}' || c == ']':
			depth--
		}
	}
	return deepest
}

// writeOptions write JSON as specdev writes a state file: each map's
// keys sorted, and invalid UTF-8 as U+FFFD. Names are not checked for a
// duplicate (which costs a large review's encoding a third): a map has
// none, and Validate refuses a kept unknown field that repeats a known one.
var writeOptions = json.JoinOptions(json.Deterministic(true), jsontext.AllowInvalidUTF8(true), jsontext.AllowDuplicateNames(true))

// EncodeRequest is review_request.json as specdev writes it: indented,
// known fields in order, then the kept unknown ones, then a newline.
// replacing is the size of the file it will replace (0 for none): the
// encoding is allocated that large at once instead of grown from nothing,
// which cost `check record` in a 5,000-file review a third more (its
// target is 25 ms).
func EncodeRequest(r *Request, replacing int) ([]byte, error) {
	return encodeState(RequestFile, (*requestFields)(r), replacing)
}

// EncodeProgress is review_progress.json as specdev writes it; replacing
// as for EncodeRequest.
func EncodeProgress(p *Progress, replacing int) ([]byte, error) {
	return encodeState(ProgressFile, (*progressFields)(p), replacing)
}

func encodeState(file string, fields any, size int) ([]byte, error) {
	buf := bytes.NewBuffer(make([]byte, 0, size+size/8))
	if err := json.MarshalWrite(buf, fields, writeOptions, jsontext.WithIndent("  ")); err != nil {
		return nil, err
	}
	data := append(buf.Bytes(), '\n')
	if len(data) > MaxFileSize {
		return nil, invalid(file, "", "finish this review with fewer findings or files, or split the change",
			"would be %d bytes, more than the limit of %d that specdev reads", len(data), MaxFileSize)
	}
	return data, nil
}
