package protocol

import "strconv"

// anyValue reads any value: as the generic Go value encoding/json gives
// (map[string]any, []any, string, float64, bool, nil) when keep is set,
// or only checked and skipped.
func (r *reader) anyValue(keep bool) (any, error) {
	switch c := r.peek(); {
	case c == '{':
		return r.anyObject(keep)
	case c == '[':
		return r.anyArray(keep)
	case c == '"':
		return r.str()
	case c == '-' || c >= '0' && c <= '9':
		lit, err := r.number()
		if err != nil || !keep {
			return nil, err
		}
		f, err := strconv.ParseFloat(lit, 64)
		if err != nil {
			return nil, r.fail("number %s is out of range", QuotePrefix(lit))
		}
		return f, nil
	}
	word, err := r.literal()
	if word == "null" {
		return nil, err
	}
	return word == "true", err
}

func (r *reader) anyObject(keep bool) (any, error) {
	if err := r.open(); err != nil {
		return nil, err
	}
	obj := map[string]any{}
	for first := true; ; first = false {
		more, err := r.next('}', first)
		if !more || err != nil {
			return obj, err
		}
		key, err := r.key()
		if err != nil {
			return nil, err
		}
		r.push(key)
		if _, dup := obj[key]; dup {
			return nil, r.duplicate(key)
		}
		v, err := r.anyValue(keep)
		if err != nil {
			return nil, err
		}
		obj[key] = v
		r.pop()
	}
}

func (r *reader) anyArray(keep bool) (any, error) {
	if err := r.open(); err != nil {
		return nil, err
	}
	list := []any{}
	for i := 0; ; i++ {
		more, err := r.next(']', i == 0)
		if !more || err != nil {
			return list, err
		}
		r.pushIndex(i)
		v, err := r.anyValue(keep)
		if err != nil {
			return nil, err
		}
		if keep {
			list = append(list, v)
		}
		r.pop()
	}
}
