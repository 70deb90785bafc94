package protocol

import "strconv"

// anyValue reads any value: as the generic Go value encoding/json gives
// (map[string]any, []any, string, float64, bool, nil) when keep is set,
// or only checked and skipped.
func (r *reader) anyValue(keep bool) (any, error) {
	switch c := r.peek(); {
	case c == '{':
		obj := map[string]any{}
		err := r.members(func(key string) error {
			if _, dup := obj[key]; dup {
				return r.duplicate(key)
			}
			v, err := r.anyValue(keep)
			obj[key] = v
			return err
		})
		return obj, err
	case c == '[':
		list := []any{}
		err := r.items(func(int) error {
			v, err := r.anyValue(keep)
			if keep {
				list = append(list, v)
			}
			return err
		})
		return list, err
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
