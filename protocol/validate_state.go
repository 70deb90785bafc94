package protocol

import (
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"strings"
	"unicode"
)

// Validate applies every rule of review_request.json to r: the schema's,
// safe paths, and the kept unknown fields' bounds. A transaction calls it
// before it writes the request.
func (r *Request) Validate() error { return semantic(RequestFile, "request", r) }

func (r *Request) semantics(c *check) {
	c.unique("changed_files", r.ChangedFiles)
	c.unique("file_set", r.FileSet)
	c.extra(r.Extra, reflect.TypeFor[Request]())
}

// Validate applies every rule of review_progress.json to p: the schema's,
// safe paths, the kept unknown fields' bounds, and consistency (every
// file of the review counted once, as reviewed or as remaining). A
// transaction calls it before it writes the progress.
func (p *Progress) Validate() error { return semantic(ProgressFile, "progress", p) }

func (p *Progress) shape(c *check) {
	c.journal("journal", p.Journal)
	c.extraShape(p.Extra)
}

func (p *Progress) semantics(c *check) {
	c.extra(p.Extra, reflect.TypeFor[Progress]())
	p.consistency(c)
}

// consistency: files_total counts every file once, as reviewed or as
// remaining (the seed's example: 7 = 3 + 4), and findings_so_far counts
// the recorded findings when they are listed (a seed-shaped file has only
// the count).
func (p *Progress) consistency(c *check) {
	seen := make(map[string]bool, len(p.FilesReviewed)+len(p.FilesRemaining))
	c.uniqueIn("files_reviewed", p.FilesReviewed, seen)
	c.uniqueIn("files_remaining", p.FilesRemaining, seen)
	if c.err != nil {
		return
	}
	if n := len(p.FilesReviewed) + len(p.FilesRemaining); p.FilesTotal != n {
		c.failHint("files_total", hintHandEdit, "is %d, but %d files are reviewed and %d remain (%d in all)",
			p.FilesTotal, len(p.FilesReviewed), len(p.FilesRemaining), n)
		return
	}
	if len(p.Findings) > 0 && p.FindingsSoFar != len(p.Findings) {
		c.failHint("findings_so_far", hintHandEdit, "is %d, but %d findings are recorded", p.FindingsSoFar, len(p.Findings))
	}
}

// unique reports a path listed twice in list.
func (c *check) unique(field string, list []string) {
	if len(list) >= 2 {
		c.uniqueIn(field, list, make(map[string]bool, len(list)))
	}
}

// uniqueIn reports a path listed twice in list, or already in seen (the
// paths of the lists checked before it), and adds the list's paths to seen.
func (c *check) uniqueIn(field string, list []string, seen map[string]bool) {
	if c.err != nil {
		return
	}
	for i, p := range list {
		if seen[p] {
			c.failHint(field+indexField(i), hintHandEdit, "path %s is listed twice (each file of a review is either reviewed or remaining, once)", QuotePrefix(p))
			return
		}
		seen[p] = true
	}
}

// fingerprint is "" or "sha256:" and 64 lowercase hex digits.
func (c *check) fingerprint(field, s string) {
	if s != "" && (len(s) != 71 || s[:7] != "sha256:" || !lowerHex(s[7:])) {
		c.fail(field, "%s is not \"sha256:\" and 64 lowercase hex digits", QuotePrefix(s))
	}
}

// extraShape: every kept unknown field is one JSON value (it is written
// back as it is) nesting no deeper than the document may.
func (c *check) extraShape(extra Extra) {
	for _, name := range slices.Sorted(maps.Keys(extra)) {
		raw := extra[name]
		switch {
		case !json.Valid(raw):
			c.fail(name, "is not a JSON value")
		case 1+depthOf(raw) > MaxDepth:
			c.fail(name, "nests deeper than %d levels", MaxDepth)
		}
	}
}

// extra: kept unknown fields never shadow a known field of t or each
// other (keys that differ only in case are one key to some readers), and
// together stay within MaxExtraBytes of compact JSON.
func (c *check) extra(extra Extra, t reflect.Type) {
	if len(extra) == 0 {
		return
	}
	known := planOf(t).names
	seen := map[string]string{}
	for _, name := range known {
		seen[foldKey(name)] = name
	}
	total := 0
	for _, name := range slices.Sorted(maps.Keys(extra)) {
		first, ok := seen[foldKey(name)]
		switch {
		case ok && slices.Contains(known, first):
			c.failHint(name, "rename or remove it", "unknown field %s differs from the field %q only in case; keys must match exactly", QuotePrefix(name), first)
			return
		case ok:
			c.failHint(name, "keep one of them, spelt exactly", "unknown field %s repeats the field %s in another case", QuotePrefix(name), QuotePrefix(first))
			return
		}
		seen[foldKey(name)] = name
		total += len(name) + 4 + compactLen(extra[name]) // "name":value,
		if total > MaxExtraBytes {
			c.failHint(name, "remove the fields specdev does not know, or shrink them", "the unknown fields kept in this file add up to more than %d bytes", MaxExtraBytes)
			return
		}
	}
}

// foldKey maps s to one representative of all strings equal to it under
// Unicode simple case folding (strings.EqualFold's): each rune becomes
// the smallest rune of its orbit.
func foldKey(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		low := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			low = min(low, f)
		}
		b.WriteRune(low)
	}
	return b.String()
}
