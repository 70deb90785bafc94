package protocol

// indent pretty-prints compact JSON exactly as json.Indent(dst, src, "",
// "  ") does, in one pass without json.Indent's validating scanner: src
// must be compact, valid JSON as json.Marshal produces it (the only input
// it is given). A property test holds it to json.Indent's output.
func indent(src []byte) []byte {
	out := make([]byte, 0, len(src)+len(src)/4)
	depth := 0
	inString, escaped := false, false
	newline := func() {
		out = append(out, '\n')
		for i := 0; i < depth; i++ {
			out = append(out, ' ', ' ')
		}
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		if inString {
			out = append(out, c)
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
		switch c {
		case '"':
			inString = true
			out = append(out, c)
		case '{', '[':
			out = append(out, c)
			if i+1 < len(src) && (src[i+1] == '}' || src[i+1] == ']') {
				out = append(out, src[i+1]) // empty object or array stays "{}" / "[]"
				i++
				continue
			}
			depth++
			newline()
		case '}', ']':
			depth--
			newline()
			out = append(out, c)
		case ',':
			out = append(out, c)
			newline()
		case ':':
			out = append(out, c, ' ')
		default:
			out = append(out, c)
		}
	}
	return out
}
