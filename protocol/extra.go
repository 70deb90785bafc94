package protocol

import (
	"bytes"
	"encoding/json"
	"sort"
)

// Extra holds the fields of a state file that this version of specdev does
// not know. They are written back unchanged, so that a file another tool
// (or a newer specdev) wrote keeps its data when we rewrite it.
type Extra map[string]json.RawMessage

// appendExtra adds the extra fields, sorted by name, to an encoded object.
func appendExtra(encoded []byte, extra Extra) ([]byte, error) {
	if len(extra) == 0 {
		return encoded, nil
	}
	names := make([]string, 0, len(extra))
	for name := range extra {
		names = append(names, name)
	}
	sort.Strings(names)
	var buf bytes.Buffer
	buf.Write(bytes.TrimSuffix(bytes.TrimSpace(encoded), []byte("}")))
	needComma := !bytes.HasSuffix(bytes.TrimSpace(buf.Bytes()), []byte("{"))
	for _, name := range names {
		if needComma {
			buf.WriteByte(',')
		}
		needComma = true
		key, _ := json.Marshal(name)
		buf.Write(key)
		buf.WriteByte(':')
		if err := json.Compact(&buf, extra[name]); err != nil { // as read, it may be indented
			return nil, err
		}
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// depthOf is how deeply a valid JSON value nests objects and lists (0 for
// a scalar); compactLen is its length without insignificant white space.
// Both scan bytes and allocate nothing.
func depthOf(raw []byte) int {
	depth, deepest := 0, 0
	scanJSON(raw, func(c byte) {
		switch c {
		case '{', '[':
			depth++
			deepest = max(deepest, depth)
		case '}', ']':
			depth--
		}
	}, nil)
	return deepest
}

func compactLen(raw []byte) int {
	n := 0
	scanJSON(raw, func(c byte) {
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			n++
		}
	}, func(int) { n++ })
	return n
}

// scanJSON calls outside for every byte outside strings and inside(n) for
// every byte of a string literal (quotes included).
func scanJSON(raw []byte, outside func(byte), inside func(int)) {
	inString, escaped := false, false
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if inString {
			if inside != nil {
				inside(i)
			}
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		if c == '"' {
			inString = true
			if inside != nil {
				inside(i)
			}
			continue
		}
		outside(c)
	}
}
