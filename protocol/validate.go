package protocol

// Validate methods of the values nested in state files and agent inputs.
// Each value has two halves: shape applies exactly the rules of its
// schema (types, bounds, lengths, enums, patterns: the check tags of its
// fields, validate_tags.go; TestValidateAgreesWithSchemas holds the two
// together), and the rules no schema can express: safe paths (in the
// same check tags) and a type's semantics method (consistent counts).
// Validate runs both, in one walk, and so does every decoder once the
// JSON is decoded. A broken rule is an *InvalidError naming the field;
// nested values prefix their path (findings[3].line). The lists and
// digests of a valid value cost no allocation (its maps by name, kept
// fields and an event's detail do).

// Validate applies the rules of a finding.
func (f *Finding) Validate() error { return semantic("", "findings", f) }

// Validate applies the rules of a verdict.
func (v *Verdict) Validate() error { return semantic("", "verdict", v) }

// semantics: each file reviewed once, and no more files reviewed than
// the round had.
func (r *RoundRecord) semantics(c *check) {
	c.unique("files_reviewed", r.FilesReviewed)
	if c.err == nil && len(r.FilesReviewed) > r.FilesTotal {
		c.failHint("files_total", hintHandEdit, "is %d, but %d files are reviewed", r.FilesTotal, len(r.FilesReviewed))
	}
}

func indexField(i int) string { return "[" + itoa(i) + "]" }

// EffortLevels are a loop's effort levels, from the fewest review rounds
// to the most (config.json "effort", work request --effort).
var EffortLevels = []string{"low", "medium", "high", "max"}

func names[T ~string](list []T) []string {
	out := make([]string, len(list))
	for i, v := range list {
		out[i] = string(v)
	}
	return out
}
