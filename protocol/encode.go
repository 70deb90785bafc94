package protocol

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
)

// Extra holds the fields of a state file that this version of specdev does
// not know. They are written back unchanged, so that a file another tool
// (or a newer specdev) wrote keeps its data when we rewrite it.
type Extra map[string]json.RawMessage

// appendExtra adds the extra fields, sorted by name, to an encoded object
// (which it may overwrite).
func appendExtra(encoded []byte, extra Extra) ([]byte, error) {
	if len(extra) == 0 {
		return encoded, nil
	}
	buf := bytes.NewBuffer(bytes.TrimSuffix(bytes.TrimSpace(encoded), []byte("}")))
	for _, name := range slices.Sorted(maps.Keys(extra)) {
		if !bytes.HasSuffix(buf.Bytes(), []byte("{")) {
			buf.WriteByte(',')
		}
		key, _ := json.Marshal(name)
		buf.Write(key)
		buf.WriteByte(':')
		if err := json.Compact(buf, extra[name]); err != nil { // as read, it may be indented
			return nil, err
		}
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

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

// compactLen is the length of a valid JSON value without insignificant
// white space.
func compactLen(raw []byte) int {
	var b bytes.Buffer
	_ = json.Compact(&b, raw) // valid: extraShape has checked it
	return b.Len()
}

// EncodeRequest is review_request.json as specdev writes it: indented,
// known fields in order, then the kept unknown ones, then a newline.
func EncodeRequest(r *Request) ([]byte, error) { return encodeState(RequestFile, r.fields(), r.Extra) }

// EncodeProgress is review_progress.json as specdev writes it.
func EncodeProgress(p *Progress) ([]byte, error) {
	return encodeState(ProgressFile, p.fields(), p.Extra)
}

// marshalState encodes the method-free alias type of a state file (no
// Marshaler round trip, which would re-scan the whole output), then the
// kept unknown fields.
func marshalState(fields any, extra Extra) ([]byte, error) {
	data, err := json.Marshal(fields)
	if err != nil {
		return nil, err
	}
	return appendExtra(data, extra)
}

// encodeState is marshalState indented. A file larger than the decoder
// reads is refused, not written.
func encodeState(file string, fields any, extra Extra) ([]byte, error) {
	data, err := marshalState(fields, extra)
	if err != nil {
		return nil, err
	}
	data = append(indent(data), '\n')
	if len(data) > MaxFileSize {
		return nil, invalid(file, "", "finish this review with fewer findings or files, or split the change",
			"would be %d bytes, more than the limit of %d that specdev reads", len(data), MaxFileSize)
	}
	return data, nil
}
