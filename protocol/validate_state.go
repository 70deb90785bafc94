package protocol

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strings"
)

// Validate applies every rule of review_request.json to r: the schema's,
// safe paths, and the kept unknown fields' bounds. A transaction calls it
// before it writes the request.
func (r *Request) Validate() error { return semantic(RequestFile, "request", r) }

func (r *Request) semantics(c *check) {
	c.unique("changed_files", r.ChangedFiles)
	c.unique("file_set", r.FileSet)
}

// Validate applies every rule of review_progress.json to p: the schema's,
// safe paths, the kept unknown fields' bounds, and consistency (every
// file of the review counted once, as reviewed or as remaining). A
// transaction calls it before it writes the progress.
func (p *Progress) Validate() error { return semantic(ProgressFile, "progress", p) }

// semantics: files_total counts every file once, as reviewed or as
// remaining (the seed's example: 7 = 3 + 4), and findings_so_far counts
// the recorded findings when they are listed (a seed-shaped file has only
// the count).
func (p *Progress) semantics(c *check) {
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
	if !fingerprintPattern().MatchString(s) {
		c.fail(field, "%s is not \"sha256:\" and 64 lowercase hex digits", QuotePrefix(s))
	}
}

// extra: every kept unknown field is one JSON value (it is written back
// as it is) nesting no deeper than the document may; and, beyond what a
// schema states, none repeats a known field or another kept one but for
// case (keys that differ only in case are one key to some readers), and
// together they stay within MaxExtraBytes of compact JSON.
func (c *check) extra(extra Extra, known []string) {
	names := slices.Sorted(maps.Keys(extra))
	total := 0
	for i, name := range names {
		raw := extra[name]
		folded := func(key string) bool { return strings.EqualFold(key, name) }
		switch {
		case !json.Valid(raw):
			c.fail(name, "is not a JSON value")
		case 1+depthOf(raw) > MaxDepth:
			c.fail(name, "nests deeper than %d levels", MaxDepth)
		case c.shapeOnly:
		case slices.ContainsFunc(known, folded):
			c.failHint(name, "rename or remove it", "unknown field %s differs from the field %q only in case; keys must match exactly",
				QuotePrefix(name), known[slices.IndexFunc(known, folded)])
		case slices.ContainsFunc(names[:i], folded):
			c.failHint(name, "keep one of them, spelt exactly", "unknown field %s repeats the field %s in another case",
				QuotePrefix(name), QuotePrefix(names[slices.IndexFunc(names, folded)]))
		default:
			var compact bytes.Buffer
			_ = json.Compact(&compact, raw)                                    // valid: checked above
			if total += len(name) + 4 + compact.Len(); total > MaxExtraBytes { // "name":value,
				c.failHint(name, "remove the fields specdev does not know, or shrink them", "the unknown fields kept in this file add up to more than %d bytes", MaxExtraBytes)
			}
		}
		if c.err != nil {
			return
		}
	}
}
