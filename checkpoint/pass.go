package checkpoint

import (
	"maps"

	"github.com/specdev/specdev/protocol"
)

// Coverage is what a new request covers besides its files: the commit its
// range starts from, whether it is the staged change, the content digest
// of each file, and the digests carried from earlier rounds and passes
// (see the protocol.Request fields of the same names).
type Coverage struct {
	BaseCommit     string
	Staged         bool
	FileDigests    map[string]string
	CarriedDigests map[string]string
}

// recordPass remembers r, which has just passed, as the passing review of
// its gate (protocol.PassRecord), beside those of other gates, so that
// `specdev gate` can check what is committed against what was reviewed.
// Call it once r.CompletedAt is set.
func recordPass(tx *Tx, r *protocol.Request) {
	passed := make(map[string]protocol.PassRecord, len(r.Passed)+1)
	maps.Copy(passed, r.Passed)
	var reviewed map[string]string // the files the round reviewed, with the content the request named
	if p := tx.Progress; p != nil && p.RequestID == r.RequestID {
		reviewed = protocol.ReviewedDigests(r, p)
		for f := range reviewed {
			if sum, ok := r.FileDigests[f]; ok {
				reviewed[f] = sum
			}
		}
	}
	passed[r.Gate] = r.PassRecord(protocol.At(tx.Now), reviewed)
	r.Passed = passed
}
