package main

import (
	"cmp"
	"fmt"

	"github.com/specdev/specdev/protocol"
	"github.com/specdev/specdev/review"
)

// CheckVerdictCmd gives the reviewer's verdict.
type CheckVerdictCmd struct {
	Outcome         string `arg:"" optional:"" help:"pass or fail (may be left out with --file)." predictor:"outcome"`
	Summary         string `help:"One paragraph for the implementer." placeholder:"TEXT"`
	Intent          string `help:"What you understood the change to be for." placeholder:"TEXT"`
	IntentSatisfied *bool  `help:"Whether the change does what it is for." negatable:""`
	File            string `help:"A verdict JSON file (see specdev schema verdict), or - for stdin." placeholder:"FILE|-" predictor:"file"`
}

// Run records the verdict under the lock, if the session still holds the review.
func (c *CheckVerdictCmd) Run(app *App) error {
	err := cmp.Or(review.CheckFlagText("--summary", c.Summary, protocol.MaxTextLength), review.CheckFlagText("--intent", c.Intent, protocol.MaxTextLength))
	if err != nil {
		return err
	}
	v, err := c.verdict(app)
	if err != nil {
		return err
	}
	return app.run(func(s *review.Service) (review.Result, error) { return s.Verdict(app.ctx, v) })
}

// verdict builds the verdict from the file (strict) and the flags.
func (c *CheckVerdictCmd) verdict(app *App) (protocol.Verdict, error) {
	var v protocol.Verdict
	if c.File != "" {
		fromFile, _, err := readInput(app, c.File, protocol.DecodeVerdict)
		if err != nil {
			return v, err
		}
		v = *fromFile
	}
	switch c.Outcome {
	case "pass", "fail":
		if c.File != "" && v.Word() != c.Outcome {
			return v, usage("make the argument and the file's \"passed\" agree, or leave the argument out",
				fmt.Sprintf("the verdict file says %s but the argument says %s", v.Word(), c.Outcome))
		}
		v.Passed = c.Outcome == "pass"
	case "":
		if c.File == "" {
			return v, usage("specdev check verdict pass|fail --summary \"…\" --session ID", "verdict needs pass or fail")
		}
	default:
		return v, usage("use pass or fail", "unknown verdict "+protocol.QuotePrefix(c.Outcome))
	}
	v.Summary = cmp.Or(c.Summary, v.Summary)
	v.InterpretedIntent = cmp.Or(c.Intent, v.InterpretedIntent)
	v.IntentSatisfied = cmp.Or(c.IntentSatisfied, v.IntentSatisfied)
	return v, nil
}
