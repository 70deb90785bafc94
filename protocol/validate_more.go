package protocol

import (
	"fmt"
	"maps"
	"slices"
)

// Rules of the fields that carry a review across requests and crashes:
// the commit range and content digests of a request (the commit gate),
// each gate's last pass and open loop, the claim's lease, and the journal
// of history events, where a check tag cannot say them.

// MaxGates bounds the gates one request remembers (passes, loops).
const MaxGates = 100

// entry names the entry of a map for an error: field["key"] (keys are
// paths or gate names: dots and slashes stay readable).
func entry(field, key string) string { return field + `["` + key + `"]` }

// commit is "" or a full commit hash (SHA-1 or SHA-256), lowercase hex.
func (c *check) commit(field, s string) {
	if s != "" && (len(s) != 40 && len(s) != 64 || !lowerHex(s)) {
		c.fail(field, "%s is not a full commit hash (40 or 64 lowercase hex digits)", QuotePrefix(s))
	}
}

// digests maps review paths to a content digest (64 lowercase hex
// digits) or DigestDeleted. The first entry, in the order of the paths,
// that breaks a rule is reported; the paths are sorted only when one
// does: a valid map costs no allocation.
func (c *check) digests(field string, m map[string]string) {
	c.count(field, len(m), MaxFiles)
	rule := func(c *check, path, sum string) {
		if path == "" {
			c.fail(entry(field, path), "is an empty path")
		}
		if err := CheckText(path, MaxPathLength); err != nil {
			c.fail(field, "path %s: %v", QuotePrefix(path), err)
		}
		if sum != DigestDeleted && (len(sum) != 64 || !lowerHex(sum)) {
			c.fail(entry(field, path), "%s is not 64 lowercase hex digits or %q", QuotePrefix(sum), DigestDeleted)
		}
		if CheckPath(path) != nil {
			c.safePath(entry(field, path), path)
		}
	}
	var t check
	for path, sum := range m {
		if rule(&t, path, sum); t.err != nil {
			for _, path := range slices.Sorted(maps.Keys(m)) {
				rule(c, path, m[path])
			}
			return
		}
	}
}

// journalDepth is how deep an event sits in a state file's journal
// (document, journal, events, event) where a history line holds it at 1.
const journalDepth = 4

// journal checks the events a state file carries for the history.
func (c *check) journal(field string, j *Journal) {
	if j == nil {
		return
	}
	c.each(field+".events", len(j.Events), MaxJournalEvents, func(i int, c *check) {
		e := &j.Events[i]
		c.shape(e)
		if e.Seq < 1 {
			c.fail("seq", "is missing: a journalled event needs its sequence number")
		}
		if depth, ok := e.detailDepth(); c.err == nil && ok && journalDepth+depth > MaxDepth {
			c.fail("detail", "nests deeper than %d levels of objects and lists", MaxDepth)
		}
	})
}

// CheckLease reports why s cannot be a lease ("" passes: none given).
func CheckLease(s string) error {
	if s != "" && (len(s) != 19 || s[:3] != "ls-" || !lowerHex(s[3:])) {
		return fmt.Errorf("%s is not \"ls-\" and 16 lowercase hex digits", QuotePrefix(s))
	}
	return nil
}

// lowerHex reports whether s holds only lowercase hex digits. Without a
// branch per byte: digits and letters alternate at random in a digest,
// and a mispredicted branch a byte made it most of decoding a request.
func lowerHex(s string) bool {
	all := byte(1)
	for i := 0; i < len(s); i++ {
		all &= hexDigit[s[i]]
	}
	return all == 1
}

var hexDigit = [256]byte{'0': 1, '1': 1, '2': 1, '3': 1, '4': 1, '5': 1, '6': 1, '7': 1, '8': 1, '9': 1,
	'a': 1, 'b': 1, 'c': 1, 'd': 1, 'e': 1, 'f': 1}

// MaxStatLength bounds the stat (each changed file with its counts) a
// request carries.
const MaxStatLength = 20_000

// MaxLineCount bounds a count of lines.
const MaxLineCount = 1<<31 - 1
