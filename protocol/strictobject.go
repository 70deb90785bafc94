package protocol

// The containers of a document: objects into structs (known keys into
// fields, unknown ones kept, refused or skipped), maps, and lists.

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// object decodes a JSON object into the struct v: known keys into their
// fields, unknown ones into its Extra if it has one (the top of a state
// file), refused if the object is closed, skipped otherwise.
func (r *reader) object(v reflect.Value, p *plan) error {
	var seen uint64            // the known fields given
	var others map[string]bool // the unknown keys given
	var unknown []string
	var extra Extra
	err := r.members(func(key string) error {
		if f := p.fields[key]; f != nil {
			if seen&f.bit != 0 {
				return r.duplicate(key)
			}
			seen |= f.bit
			return r.field(v.Field(f.index), f)
		}
		if others[key] {
			return r.duplicate(key)
		}
		if others == nil {
			others = map[string]bool{}
		}
		others[key] = true
		return r.unknownKey(p, key, &unknown, &extra)
	})
	if err != nil {
		return err
	}
	if err := r.complete(p, seen, unknown); err != nil {
		return err
	}
	if extra != nil {
		v.Field(p.extra).Set(reflect.ValueOf(extra))
	}
	return nil
}

// field decodes a known key's value.
func (r *reader) field(v reflect.Value, f *field) error {
	if err := r.value(v, f.plan); err != nil {
		return err
	}
	if f.nonzero && (v.IsZero() || v.Kind() == reflect.Slice && v.Len() == 0) {
		switch v.Kind() {
		case reflect.Int, reflect.Int64:
			return r.fail("is 0: leave the field out, or give a number from 1")
		case reflect.Slice:
			return r.fail("is an empty list: leave the field out, or give at least one item")
		}
		return r.fail("is empty: leave the field out, or give a value")
	}
	if r.version > 0 && len(r.path) == 1 && f.name == "version" && v.Int() > int64(r.version) {
		return invalid(r.file, "version", "upgrade specdev to a release that reads this version",
			"version %d is newer than this specdev supports (%d)", v.Int(), r.version)
	}
	return nil
}

// unknownKey reads the value of a key the struct has no field for: kept
// in extra, noted as unknown (a closed object), or skipped. A key equal
// to a field's name only when case is ignored is refused at once.
func (r *reader) unknownKey(p *plan, key string, unknown *[]string, extra *Extra) error {
	if exact, ok := p.folded[foldKey(key)]; ok {
		return invalid(r.file, r.where(), `rename it to "`+exact+`" (keys are case-sensitive), or remove it`,
			"key %s is not the field %q: keys must match exactly, without case folding", QuotePrefix(key), exact)
	}
	r.peek()
	start := r.i
	if _, err := r.anyValue(false); err != nil {
		return err
	}
	switch {
	case p.extra >= 0:
		if *extra == nil {
			*extra = Extra{}
		}
		(*extra)[key] = json.RawMessage(r.text[start:r.i])
	case r.strict || p.closed:
		*unknown = append(*unknown, key)
	}
	return nil
}

// complete refuses an object with unknown keys, naming the required ones
// missing as what they may be misspellings of, or one without a required
// key.
func (r *reader) complete(p *plan, seen uint64, unknown []string) error {
	var missing []string
	for _, f := range p.required {
		if seen&f.bit == 0 {
			missing = append(missing, f.name)
		}
	}
	if len(unknown) == 0 && len(missing) == 0 {
		return nil
	}
	here := r.where()
	if len(unknown) > 0 {
		slices.Sort(unknown)
		problem := "unknown field; valid fields are: " + strings.Join(p.names, ", ")
		if len(missing) > 0 {
			problem = fmt.Sprintf("unknown field (is it %s misspelt?); valid fields are: %s", strings.Join(missing, ", "), strings.Join(p.names, ", "))
		}
		return &InvalidError{File: r.file, Field: subField(here, strings.Join(unknown, ", ")), Problem: problem, Hint: "check the spelling; " + r.hint()}
	}
	if len(missing) > 0 {
		problem := "required field is missing"
		if len(missing) > 1 {
			problem += "; so are " + strings.Join(missing[1:], ", ")
		}
		return &InvalidError{File: r.file, Field: subField(here, missing[0]), Problem: problem, Hint: r.hint()}
	}
	return nil
}

func (r *reader) array(v reflect.Value, p *plan) error {
	if p.kind == kindStrings { // the lists of files: no reflection per item
		strs := []string{}
		err := r.items(func(int) error {
			if r.peek() != '"' {
				return r.mismatch("string")
			}
			s, err := r.str()
			strs = append(strs, s)
			return err
		})
		if err == nil {
			*v.Addr().Interface().(*[]string) = strs
		}
		return err
	}
	list := reflect.New(v.Type()).Elem() // addressable, so that it grows in place
	list.Set(reflect.MakeSlice(v.Type(), 0, 0))
	err := r.items(func(i int) error {
		list.Grow(1)
		list.SetLen(i + 1)
		return r.value(list.Index(i), p.elem)
	})
	if err == nil {
		v.Set(list)
	}
	return err
}

func (r *reader) mapOf(v reflect.Value, p *plan) error {
	m := reflect.MakeMap(v.Type())
	item := reflect.New(v.Type().Elem()).Elem()
	err := r.members(func(key string) error {
		k := reflect.ValueOf(key)
		if m.MapIndex(k).IsValid() {
			return r.duplicate(key)
		}
		item.SetZero()
		if err := r.value(item, p.elem); err != nil {
			return err
		}
		m.SetMapIndex(k, item)
		return nil
	})
	if err == nil {
		v.Set(m)
	}
	return err
}

// stringMap reads an object of strings (the digests of a review's
// files): no reflection per entry.
func (r *reader) stringMap(v reflect.Value) error {
	m := map[string]string{}
	err := r.members(func(key string) error {
		if _, dup := m[key]; dup {
			return r.duplicate(key)
		}
		if r.peek() != '"' {
			return r.mismatch("string")
		}
		s, err := r.str()
		m[key] = s
		return err
	})
	if err == nil {
		*v.Addr().Interface().(*map[string]string) = m
	}
	return err
}
