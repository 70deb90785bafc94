package protocol

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// check collects the first rule a value breaks, as an *InvalidError whose
// Field is the JSON path of the field within its file (findings[3].line).
// The check tags of a struct's fields name these rules (validate_tags.go),
// and nested values report through sub and each, which prefix their path.
// shapeOnly applies only what a schema can state (the tests compare that
// with the schemas): no path safety, no semantics methods.
type check struct {
	err       *InvalidError
	shapeOnly bool
}

func (c *check) fail(field, format string, args ...any) {
	if c.err == nil {
		c.err = &InvalidError{Field: field, Problem: fmt.Sprintf(format, args...)}
	}
}

// failHint records a broken rule with its own fix.
func (c *check) failHint(field, hint, format string, args ...any) {
	if c.err == nil {
		c.fail(field, format, args...)
		c.err.Hint = hint
	}
}

// failErr records err (from a field rule such as CheckText) for field.
func (c *check) failErr(field string, err error) {
	if err != nil {
		c.fail(field, "%v", err)
	}
}

// result returns the first broken rule, naming file and, in the hint, the
// schema that states the rules; or nil.
func (c *check) result(file, schema string) error {
	if c.err == nil {
		return nil
	}
	c.err.File = file
	c.err.Hint = cmp.Or(c.err.Hint, "run `specdev schema "+schema+"` to see every field's type and bounds")
	return c.err
}

// sub validates a nested value and reports its first broken rule under
// field: "line" of sub("findings[3]", …) becomes "findings[3].line".
func (c *check) sub(field string, validate func(*check)) {
	if c.err != nil {
		return
	}
	validate(c)
	if c.err != nil {
		c.err.Field = subField(field, c.err.Field)
	}
}

// each validates the n items of a list of at most max nested values.
func (c *check) each(field string, n, max int, validate func(i int, c *check)) {
	c.count(field, n, max)
	for i := 0; i < n && c.err == nil; i++ {
		validate(i, c)
		if c.err != nil {
			c.err.Field = subField(field+indexField(i), c.err.Field)
		}
	}
}

func subField(parent, child string) string {
	switch {
	case child == "":
		return parent
	case parent == "":
		return child
	}
	return parent + "." + child
}

func (c *check) text(field, s string, max int) { c.failErr(field, CheckText(s, max)) }

// required is text that must not be empty (minLength 1).
func (c *check) required(field, s string, max int) {
	if s == "" {
		c.fail(field, "is empty")
		return
	}
	c.text(field, s, max)
}

// oneOf is a value that must be one of the listed ones.
func (c *check) oneOf(field, s string, valid ...string) {
	if !slices.Contains(valid, s) {
		c.fail(field, "%s is not one of %s", QuotePrefix(s), strings.Join(valid, ", "))
	}
}

// time is a timestamp that RFC 3339 can write (years 0–9999), or unset
// where it need not be set.
func (c *check) time(field string, t Timestamp, set bool) {
	switch year := t.UTC().Year(); {
	case t.IsZero() && set:
		c.fail(field, "is not set")
	case !t.IsZero() && (year < 0 || year > 9999):
		c.fail(field, "year %d cannot be written in RFC 3339 (0 to 9999)", year)
	}
}

// list is a list of at most max items, each 1 to MaxPathLength
// characters (review paths, argv). The field name of an item is built
// only when it fails.
func (c *check) list(field string, list []string, max int) {
	c.count(field, len(list), max)
	for i, s := range list {
		if s == "" || len(s) > MaxPathLength {
			c.required(field+indexField(i), s, MaxPathLength)
		}
	}
}

// safePaths applies CheckPath, which no schema can express, to every path.
func (c *check) safePaths(field string, paths []string) {
	for i, p := range paths {
		if c.err == nil && CheckPath(p) != nil {
			c.safePath(field+indexField(i), p)
		}
	}
}

// safePath applies CheckPath to a path that is given ("" is the shape
// rules' to refuse, or none).
func (c *check) safePath(field, p string) {
	if err := CheckPath(p); err != nil && p != "" && !c.shapeOnly {
		c.failHint(field, "use paths relative to the project root, without \"..\"", "%v", err)
	}
}

// count is the number of items of a list, at most max.
func (c *check) count(field string, n, max int) {
	if n > max {
		c.fail(field, "holds %d items, more than the limit of %d", n, max)
	}
}
