package protocol

import (
	"encoding/json"
	"fmt"
	"time"
)

const hintDuration = `write it like "15m", "90s" or "1h30m" (or a number of seconds); docs/design.md lists each setting's range`

// semantics: signing needs a remote to sign for, and a configured preflight
// gate's time limit is shorter than the lease, so a gate that runs to its
// limit is not taken over while it runs. Without a gate in the config the
// pair says nothing: a .specdev/verify-gates.sh is not part of the config.
func (c *Config) semantics(ch *check) {
	ch.agentSemantics(c.Agents)
	if c.SignVerdicts && c.Remote == "" {
		ch.failHint("sign_verdicts", `set "remote" (e.g. "remote": "origin") too, or leave sign_verdicts out`,
			"signs the verdict commits of a remote's review state, and no \"remote\" is set")
	}
	eff := c.WithDefaults()
	if ch.err != nil || len(c.Preflight) == 0 || eff.PreflightTimeout < eff.StaleAfter {
		return
	}
	ch.failHint("preflight_timeout", pairHint(time.Duration(eff.StaleAfter)),
		`%s%s is not shorter than "stale_after" (%s%s): a preflight gate could outlive the reviewer's lease, and another reviewer would take the review over while it runs`,
		ShortDuration(time.Duration(eff.PreflightTimeout)), defaultMark(c.PreflightTimeout),
		ShortDuration(time.Duration(eff.StaleAfter)), defaultMark(c.StaleAfter))
}

// duration is 0 (unset: the default applies) or within bounds.
func (c *check) duration(field string, d Duration, b DurationBounds) {
	if err := b.Check(time.Duration(d)); err != nil {
		c.failHint(field, hintDuration, "%v", err)
	}
}

// pairHint suggests a preflight_timeout below stale_after that its own
// bounds accept, or else a longer stale_after: never a value refused next.
func pairHint(staleAfter time.Duration) string {
	if half := staleAfter / 2; half >= PreflightTimeoutBounds.Min {
		return fmt.Sprintf(`set "preflight_timeout" below "stale_after" (e.g. "preflight_timeout": %q), or raise "stale_after"`, ShortDuration(half))
	}
	return fmt.Sprintf(`raise "stale_after" above %s (e.g. "stale_after": %q) and set "preflight_timeout" below it`,
		ShortDuration(PreflightTimeoutBounds.Min), ShortDuration(2*PreflightTimeoutBounds.Min))
}

func defaultMark(d Duration) string {
	if d == 0 {
		return ", the default"
	}
	return ""
}

// Validate applies the rules of one history event.
func (e *Event) Validate() error {
	return semantic(HistoryFile, "history", e)
}

func (e *Event) shape(c *check) {
	c.count("detail", len(e.Detail), MaxDetailKeys)
	if c.err != nil {
		return
	}
	switch depth, ok := e.detailDepth(); {
	case !ok:
		c.fail("detail", "cannot be written as JSON: it holds a number that is not finite, or a value JSON has no form for")
	case 1+depth > MaxDepth:
		c.fail("detail", "nests deeper than %d levels of objects and lists", MaxDepth)
	}
}

// detailDepth is how deeply the detail nests objects and lists written as
// JSON (1 for a flat one, 0 for none), and false if it cannot be written
// (a number that is not finite, say).
func (e *Event) detailDepth() (int, bool) {
	if len(e.Detail) == 0 {
		return 0, true
	}
	raw, err := json.Marshal(e.Detail)
	return depthOf(raw), err == nil
}

// EventNames are the events a history holds, the history schema's enum.
var EventNames = []EventName{
	EventRequested, EventClaimed, EventPreflight, EventFileReviewed, EventTakeover, EventReleased,
	EventResumeFallback, EventVerdictProposed, EventPassed, EventFailed, EventApproved, EventRejected,
	EventBlocked, EventUnblocked, EventContinued, EventCancelled, EventAgentRun, EventAgentIncomplete,
	EventGroupDropped, EventStopGateOverridden,
}
