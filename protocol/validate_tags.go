package protocol

import (
	"reflect"
	"slices"
	"strings"
	"sync"
)

// The shape half of Validate is stated on the struct fields themselves:
// a `check` tag names the rule of its field, as its schema states it
//
//	Notes string `json:"notes" check:"text"`
//
// (the path tags add path safety, which no schema states), and a type
// with rules no tag names adds them in a shape method, which runs after
// its fields' rules, then its kept unknown fields' rule, then a
// semantics method for what no schema states. An integer or a name whose
// key is omitted while zero ("omitzero", "omitempty") may be 0 or ""
// besides its range. The rules of a type are read once, with its
// decoding plan.

// rule checks the value v of the field named field.
type rule func(c *check, field string, v reflect.Value)

// shape applies the shape rules of *v, a struct.
func (c *check) shape(v any) {
	rv := reflect.ValueOf(v).Elem()
	c.fields(planOf(rv.Type()), rv)
}

// fields applies the rules of the struct v (addressable) of plan p, then
// its own shape method, its kept unknown fields' rule and its semantics
// method, those it has.
func (c *check) fields(p *plan, v reflect.Value) {
	for _, f := range p.checked {
		if c.err != nil {
			return
		}
		f.rule(c, f.name, v.Field(f.index))
	}
	if p.shaped {
		v.Addr().Interface().(shaper).shape(c)
	}
	if p.extra >= 0 && c.err == nil {
		c.extra(v.Field(p.extra).Interface().(Extra), p.names)
	}
	if p.semantic && !c.shapeOnly && c.err == nil {
		v.Addr().Interface().(semanticist).semantics(c)
	}
}

// shaper is a type with shape rules of its own.
type shaper interface{ shape(*check) }

// semanticist is a type with rules no schema can state (consistent
// counts, a path listed once), which run after its shape rules.
type semanticist interface{ semantics(*check) }

// ruleOf is the rule the check tag of sf names; version is the newest
// "version" of its type.
func ruleOf(tag string, sf reflect.StructField, version int) rule {
	omitted := strings.Contains(sf.Tag.Get("json"), ",omit")
	spec, ok := ruleSpecs()[tag]
	if tag == "version" {
		spec, ok = ruleSpec{lo: 1, hi: int64(version)}, true
	}
	switch {
	case spec.hi != 0 && sf.Type.Kind() == reflect.Slice: // a list of objects, of at most hi items
		p := planOf(sf.Type.Elem())
		return func(c *check, field string, v reflect.Value) {
			c.each(field, v.Len(), int(spec.hi), func(i int, c *check) { c.fields(p, v.Index(i)) })
		}
	case spec.hi != 0 && sf.Type.Kind() == reflect.Map: // objects by name, at most hi of them
		return func(c *check, field string, v reflect.Value) { c.named(field, v, int(spec.hi)) }
	case spec.hi != 0:
		return func(c *check, field string, v reflect.Value) {
			if v.Kind() == reflect.Pointer && v.IsNil() {
				return
			}
			if n := reflect.Indirect(v).Int(); n != 0 || !omitted {
				c.failErr(field, checkRange(n, spec.lo, spec.hi))
			}
		}
	case spec.valid != nil:
		return func(c *check, field string, v reflect.Value) { c.oneOf(field, v.String(), spec.valid...) }
	case spec.within.Max > 0:
		return func(c *check, field string, v reflect.Value) { c.duration(field, Duration(v.Int()), spec.within) }
	case spec.max > 0:
		return func(c *check, field string, v reflect.Value) { c.text(field, v.String(), spec.max) }
	case ok:
		return spec.rule
	case tag == "object":
		return nested
	case tag == "journal":
		return func(c *check, field string, v reflect.Value) { c.journal(field, v.Interface().(*Journal)) }
	case tag == "name":
		return func(c *check, field string, v reflect.Value) {
			if s := v.String(); s != "" || !omitted {
				c.failErr(field, CheckName(s))
			}
		}
	}
	panic("protocol: unknown check tag " + tag)
}

// ruleSpec is what a tag names: an integer's range (or a list's most
// items), a text's most characters, an enum's values, a duration's
// bounds (0 is unset: the default applies), or a rule.
type ruleSpec struct {
	lo, hi int64
	max    int
	valid  []string
	within DurationBounds
	rule   rule
}

// ruleSpecs are the rules by tag, made on first use (a map literal is
// built at every start-up).
var ruleSpecs = sync.OnceValue(func() map[string]ruleSpec {
	return map[string]ruleSpec{
		"round": {lo: 1, hi: MaxRound}, "rounds": {hi: MaxRound}, "files": {hi: MaxFiles}, "findings": {hi: MaxFindings},
		"number": {lo: 1, hi: MaxFindings}, "line": {hi: MaxLine}, "lines": {hi: MaxLineCount}, "ms": {hi: MaxDurationMS},
		"exit_code": {lo: MinExitCode, hi: MaxExitCode}, "tokens": {hi: MaxTokens}, "runs": {hi: MaxRound * MaxRound},
		"seq": {lo: 1, hi: MaxSeq}, "loops": {lo: 1, hi: MaxGroupLoops}, "config_rounds": {lo: 1, hi: MaxConfigRounds},
		"issues": {hi: MaxIssues}, "takeovers": {hi: MaxTakeovers}, "events": {hi: MaxJournalEvents},
		"gates": {hi: MaxGates}, "agents": {hi: MaxAgents}, "checkpoint_every": {hi: MaxCheckpointEvery},

		"id": {max: MaxIDLength}, "path": {max: MaxPathLength}, "text": {max: MaxTextLength},
		"finding": {max: MaxFindingText}, "category": {max: MaxCategoryLength}, "stat": {max: MaxStatLength},

		// the valid values of the enumerated fields, as the schemas list them
		"status": {valid: names(Statuses)}, "mode": {valid: []string{string(ModeAuto), string(ModeManual)}},
		"phase":    {valid: []string{string(PhasePreflight), string(PhaseReviewing), string(PhaseWritingReport), string(PhaseDone)}},
		"severity": {valid: names(Severities)}, "verdict": {valid: []string{"", VerdictPass, VerdictFail}},
		"plan": {valid: []string{"", PlanFollowUp, PlanFull}}, "kind": {valid: []string{PlanFollowUp, PlanFull}},
		"reason": {valid: []string{"", FallbackOtherSession, FallbackGateChanged, FallbackCommitGone, FallbackChangeTooLarge, FallbackChangeUnknown}},
		"prompt": {valid: []string{"", PromptArg, PromptStdin}}, "blocked": {valid: []string{"", BlockedStuck}},
		"effort": {valid: append([]string{""}, EffortLevels...)}, "event": {valid: names(EventNames)},

		"stale_after": {within: StaleAfterBounds}, "lock_timeout": {within: LockTimeoutBounds}, "remote_poll": {within: RemotePollBounds},
		"preflight_timeout": {within: PreflightTimeoutBounds}, "agent_timeout": {within: AgentTimeoutBounds},

		"agent_path":  {rule: agentOutputPath},
		"description": {rule: func(c *check, field string, v reflect.Value) { c.required(field, v.String(), MaxFindingText) }},
		"session":     {rule: func(c *check, field string, v reflect.Value) { c.failErr(field, CheckSession(v.String())) }},
		"set_session": {rule: func(c *check, field string, v reflect.Value) {
			c.required(field, v.String(), MaxSessionLength)
			c.failErr(field, CheckSession(v.String()))
		}},
		"lease":       {rule: func(c *check, field string, v reflect.Value) { c.failErr(field, CheckLease(v.String())) }},
		"commit":      {rule: func(c *check, field string, v reflect.Value) { c.commit(field, v.String()) }},
		"fingerprint": {rule: func(c *check, field string, v reflect.Value) { c.fingerprint(field, v.String()) }},
		"time": {rule: func(c *check, field string, v reflect.Value) {
			c.time(field, *v.Addr().Interface().(*Timestamp), false)
		}},
		"set": {rule: func(c *check, field string, v reflect.Value) { c.time(field, *v.Addr().Interface().(*Timestamp), true) }},
		"names": {rule: func(c *check, field string, v reflect.Value) {
			c.each(field, v.Len(), MaxGroupLoops, func(i int, c *check) { c.failErr("", CheckName(v.Index(i).String())) })
		}},
		"paths": {rule: func(c *check, field string, v reflect.Value) {
			c.list(field, *v.Addr().Interface().(*[]string), MaxFiles)
			c.safePaths(field, *v.Addr().Interface().(*[]string))
		}},
		"file": {rule: func(c *check, field string, v reflect.Value) {
			c.text(field, v.String(), MaxPathLength)
			c.safePath(field, v.String())
		}},
		"worktree": {rule: func(c *check, field string, v reflect.Value) {
			c.text(field, v.String(), MaxPathLength)
			if !c.shapeOnly {
				c.failErr(field, CheckWorktree(v.String()))
			}
		}},
		"command": {rule: func(c *check, field string, v reflect.Value) {
			c.count(field, v.Len(), MaxArgs)
			for i, arg := range *v.Addr().Interface().(*[]string) {
				if len(arg) > MaxPathLength {
					c.text(field+indexField(i), arg, MaxPathLength)
				}
			}
		}},
		"argv": {rule: func(c *check, field string, v reflect.Value) {
			c.list(field, *v.Addr().Interface().(*[]string), MaxArgs)
		}},
		"digests": {rule: func(c *check, field string, v reflect.Value) {
			c.digests(field, *v.Addr().Interface().(*map[string]string))
		}},
	}
})

// named checks a map of objects by name (gates, agents) of at most max
// entries, in the order of the names.
func (c *check) named(field string, m reflect.Value, max int) {
	c.count(field, m.Len(), max)
	names := m.MapKeys()
	slices.SortFunc(names, func(a, b reflect.Value) int { return strings.Compare(a.String(), b.String()) })
	for _, name := range names {
		if err := CheckName(name.String()); err != nil {
			c.fail(field, "key %v", err)
		}
		item := reflect.New(m.Type().Elem()).Elem() // addressable, for its shape method
		item.Set(m.MapIndex(name))
		nested(c, field+"."+name.String(), item)
	}
}

// nested checks a nested object (a struct, or a pointer to one: nil is
// none) under its field's name.
func nested(c *check, field string, v reflect.Value) {
	if v.Kind() == reflect.Pointer && !v.IsNil() {
		v = v.Elem()
	}
	if v.Kind() == reflect.Struct {
		c.sub(field, func(c *check) { c.fields(planOf(v.Type()), v) })
	}
}

// agentOutputPath is a path into an agent's JSON output, or "".
func agentOutputPath(c *check, field string, v reflect.Value) {
	if s := v.String(); s != "" && !agentPath().MatchString(s) {
		c.failHint(field, `write it like "usage.input_tokens": keys and list indexes joined with dots`,
			"%s is not a path of up to %d keys of letters, digits, '_' and '-' (%d characters each)",
			QuotePrefix(s), MaxAgentPathParts, MaxAgentPathPart)
	}
}
