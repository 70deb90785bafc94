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
