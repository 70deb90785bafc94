package protocol

// Verdict is a reviewer's structured verdict, as given on the command line
// or in a verdict file (validated against schemas/verdict.schema.json).
type Verdict struct {
	Passed            bool      `json:"passed" specdev:"required"`
	Summary           string    `json:"summary,omitempty"`
	InterpretedIntent string    `json:"interpreted_intent,omitempty"`
	IntentSatisfied   *bool     `json:"intent_satisfied,omitempty"`
	Issues            []Finding `json:"issues,omitempty"`
}

// Word is "pass" or "fail".
func (v *Verdict) Word() string {
	if v.Passed {
		return VerdictPass
	}
	return VerdictFail
}
