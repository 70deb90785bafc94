package protocol

import "bytes"

// indent pretty-prints compact JSON exactly as json.Indent(dst, src, "",
// "  ") does, in one pass without json.Indent's validating scanner: src
// must be compact, valid JSON as json.Marshal produces it (the only input
// it is given). A property test holds it to json.Indent's output.
func indent(src []byte) []byte {
	return appendIndent(make([]byte, 0, indentedSize(src)+1), src, 0) // +1: the caller ends the file with a newline
}

// appendIndent appends indent(src) to out as if src stood depth levels
// deep in the document: the value of a member or an item there.
func appendIndent(out, src []byte, depth int) []byte {
	newline := func() {
		out = append(out, '\n')
		for i := 0; i < depth; i++ {
			out = append(out, ' ', ' ')
		}
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch c {
		case '"':
			end := stringEnd(src, i)
			out = append(out, src[i:end]...)
			i = end - 1
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

// stringEnd is the index after the string that starts at src[i] (the end
// of src if it is not closed, which json.Marshal's output never is).
func stringEnd(src []byte, i int) int {
	if end := closingQuote(src, i+1); end >= 0 {
		return end + 1
	}
	return len(src)
}

// indentedSize is the length of indent(src): what indent appends, counted
// without writing it, so that the output is allocated once (a 1,000-file
// progress would otherwise be copied as it grows).
func indentedSize(src []byte) int {
	n, depth := len(src), 0
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '"':
			i = stringEnd(src, i) - 1
		case '{', '[':
			if i+1 < len(src) && (src[i+1] == '}' || src[i+1] == ']') {
				i++
				continue
			}
			depth++
			n += 1 + 2*depth
		case '}', ']':
			depth--
			n += 1 + 2*depth
		case ',':
			n += 1 + 2*depth
		case ':':
			n++
		}
	}
	return n
}

// closingQuote returns the index of the quote that ends the string whose
// text starts at data[i], or -1.
func closingQuote(data []byte, i int) int {
	for {
		k := bytes.IndexByte(data[i:], '"')
		if k < 0 {
			return -1
		}
		q := i + k
		escapes := 0
		for b := q - 1; b >= i && data[b] == '\\'; b-- {
			escapes++
		}
		if escapes%2 == 0 {
			return q
		}
		i = q + 1
	}
}
