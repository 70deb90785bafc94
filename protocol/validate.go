package protocol

// Validate methods of the values nested in state files and agent inputs.
// Each value has two halves: shape applies exactly the rules of its
// schema (types, bounds, lengths, enums, patterns; TestValidateAgreesWith
// Schemas holds the two together), semantics the checks no schema can
// express (safe paths, consistent counts). Validate runs both, and so
// does every decoder once the JSON is decoded. A broken rule is an
// *InvalidError naming the field; nested values prefix their path
// (findings[3].line). A valid value costs no allocation.

// Validate applies the rules of a finding.
func (f *Finding) Validate() error {
	return semantic("", "findings", f.shape, f.semantics)
}

func (f *Finding) shape(c *check) {
	c.text("file", f.File, MaxPathLength)
	c.between("line", int64(f.Line), 0, MaxLine)
	c.oneOf("severity", string(f.Severity), severityNames...)
	c.text("category", f.Category, MaxCategoryLength)
	c.required("description", f.Description, MaxFindingText)
	c.text("suggestion", f.Suggestion, MaxFindingText)
}

// semantics: a finding's file, if named, is a review path.
func (f *Finding) semantics(c *check) {
	if f.File != "" {
		c.safePath("file", f.File)
	}
}

// semanticsOutcome checks what a round produced beyond its shape (see
// shapeOutcome): the files its findings name.
func semanticsOutcome(c *check, findings []Finding, resolved []Resolved, v *Verdict) {
	c.each("findings", len(findings), MaxFindings, func(i int, c *check) { findings[i].semantics(c) })
	c.each("resolved", len(resolved), MaxFindings, func(i int, c *check) { c.sub("finding", resolved[i].Finding.semantics) })
	if v != nil {
		c.sub("verdict", v.semantics)
	}
}

func (r *Resolved) shape(c *check) {
	c.between("round", int64(r.Round), 1, MaxRound)
	c.between("number", int64(r.Number), 1, MaxFindings)
	c.sub("finding", r.Finding.shape)
}

// Validate applies the rules of a verdict.
func (v *Verdict) Validate() error {
	return semantic("", "verdict", v.shape, v.semantics)
}

func (v *Verdict) shape(c *check) {
	c.text("summary", v.Summary, MaxTextLength)
	c.text("interpreted_intent", v.InterpretedIntent, MaxTextLength)
	c.each("issues", len(v.Issues), MaxIssues, func(i int, c *check) { v.Issues[i].shape(c) })
}

func (v *Verdict) semantics(c *check) {
	c.each("issues", len(v.Issues), MaxIssues, func(i int, c *check) { v.Issues[i].semantics(c) })
}

func (d *Decision) shape(c *check) {
	c.text("notes", d.Notes, MaxTextLength)
	c.time("at", d.At)
}

func (t *Takeover) shape(c *check) {
	c.failErr("from", CheckSession(t.From))
	c.failErr("to", CheckSession(t.To))
	c.time("at", t.At)
	c.text("reason", t.Reason, MaxIDLength)
	c.text("idle", t.Idle, MaxIDLength)
	c.failErr("from_lease", CheckLease(t.FromLease))
}

func (p *PreflightResult) shape(c *check) {
	c.count("command", len(p.Command), MaxArgs)
	for i, arg := range p.Command {
		if len(arg) > MaxPathLength {
			c.text("command"+indexField(i), arg, MaxPathLength)
		}
	}
	c.between("exit_code", int64(p.ExitCode), MinExitCode, MaxExitCode)
	c.between("duration_ms", p.DurationMS, 0, MaxDurationMS)
	c.text("output", p.Output, MaxTextLength)
	c.text("error", p.Error, MaxTextLength)
	c.time("at", p.At)
}

func (r *RoundRecord) shape(c *check) {
	c.between("round", int64(r.Round), 1, MaxRound)
	c.optionalName("gate", r.Gate)
	c.text("head_commit", r.HeadCommit, MaxIDLength)
	c.text("since", r.Since, MaxIDLength)
	c.oneOf("plan", r.Plan, append([]string{""}, planKinds...)...)
	c.paths("unchanged", r.Unchanged)
	c.text("request_id", r.RequestID, MaxIDLength)
	c.oneOf("status", string(r.Status), statusNames...)
	c.paths("files_reviewed", r.FilesReviewed)
	c.between("files_total", int64(r.FilesTotal), 0, MaxFiles)
	shapeOutcome(c, r.Preflight, r.Findings, r.Resolved, r.Verdict, r.Decision)
}

// shapeOutcome checks what a round produced, kept alike in the progress
// and in each earlier round's record: the pre-flight result, the
// findings, the verdict and a human's decision.
func shapeOutcome(c *check, pf *PreflightResult, findings []Finding, resolved []Resolved, v *Verdict, d *Decision) {
	if pf != nil {
		c.sub("preflight", pf.shape)
	}
	c.each("findings", len(findings), MaxFindings, func(i int, c *check) { findings[i].shape(c) })
	c.each("resolved", len(resolved), MaxFindings, func(i int, c *check) { resolved[i].shape(c) })
	if v != nil {
		c.sub("verdict", v.shape)
	}
	if d != nil {
		c.sub("decision", d.shape)
	}
}

// semantics: safe paths, each file reviewed once, and no more files
// reviewed than the round had.
func (r *RoundRecord) semantics(c *check) {
	c.safePaths("files_reviewed", r.FilesReviewed)
	c.safePaths("unchanged", r.Unchanged)
	semanticsOutcome(c, r.Findings, r.Resolved, r.Verdict)
	c.unique("files_reviewed", r.FilesReviewed)
	if c.err == nil && len(r.FilesReviewed) > r.FilesTotal {
		c.failHint("files_total", hintHandEdit, "is %d, but %d files are reviewed", r.FilesTotal, len(r.FilesReviewed))
	}
}

func indexField(i int) string { return "[" + itoa(i) + "]" }

// The valid values of the enumerated fields, as the schemas list them.
var (
	severityNames = names(Severities)
	statusNames   = names(Statuses)
	modeNames     = []string{string(ModeAuto), string(ModeManual)}
	phaseNames    = []string{string(PhasePreflight), string(PhaseReviewing), string(PhaseWritingReport), string(PhaseDone)}
	verdictNames  = []string{"", VerdictPass, VerdictFail}
)

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
