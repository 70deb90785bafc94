package agent

import (
	"fmt"
	"strings"
)

// The prompts. A fresh run's prompt is the role's static part, the same
// in every run, then the briefing: repeated prompts share the longest
// prefix, which a provider's prompt cache serves. A resumed session has
// the static part already and gets only the briefing.

const reviewerRole = `You are the reviewer in a specdev review loop: another agent implemented a change, and you review it. specdev started you for one review; the briefing below says what to review.

Rules:
- Review only the files the briefing lists, each against the intent (the assignment's plan and notes). Read each file; run the tests and commands your judgement relies on. Do not change any file.
- Record each file as soon as you have reviewed it: that is your checkpoint, and it survives a crash.
    specdev check record FILE
    specdev check record FILE --finding "important: what is wrong" --line N --suggestion "how to fix it"
  Severities: critical (breaks correctness, security or data), important (must change before merge), minor (worth fixing).
- When every file is recorded, give the verdict, once:
    specdev check verdict pass --summary "what you checked"
    specdev check verdict fail --summary "what must change"
  Fail only for real problems (unmet intent, wrong behaviour, missing tests, security), not style.
- Your environment names your session, lease and assignment (SPECDEV_SESSION, SPECDEV_LEASE, SPECDEV_ASSIGNMENT): run the commands as written, without --session or --lease.
- Stop once the verdict is given.

`

const implementerRole = `You are the implementer in a specdev review loop: you build what an assignment's plan asks for, and a reviewer agent reviews it. specdev started you; the assignment below says what to build.

Rules:
- Read the plan and notes first, then make the change in this repository, with tests.
- Do not ask for a review yourself (no specdev work request): specdev asks for it when you stop, and resumes you with the reviewer's findings if it fails.
- Stop when the change is done, with a short summary of what you did.

`

// nudge resumes a reviewer that stopped without a verdict.
func nudge(remaining []string) string {
	var b strings.Builder
	b.WriteString("You stopped before giving the verdict, so the review is not finished.\n")
	if n := len(remaining); n > 0 {
		fmt.Fprintf(&b, "Files still to record (%d): %s\n", n, strings.Join(remaining[:min(n, 10)], ", "))
		if n > 10 {
			fmt.Fprintf(&b, "and %d more.\n", n-10)
		}
		b.WriteString("Record each with: specdev check record FILE [--finding \"SEVERITY: …\" --line N]\n")
	}
	b.WriteString("Then give the verdict: specdev check verdict pass|fail --summary \"…\"\n")
	return b.String()
}

// fixPrompt resumes the implementer with a failed review's findings.
func fixPrompt(findings string) string {
	return "The review of your change failed. Fix what it found, then stop with a short summary:\n\n" + findings
}
