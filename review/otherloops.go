package review

import (
	"fmt"
	"strings"

	"github.com/specdev/specdev/checkpoint"
	"github.com/specdev/specdev/protocol"
)

// What a claim briefing adds about the loop the review belongs to: that
// it is a checkpoint review, and the seed's "other loops" summary — the
// other assignments of the request's group, one line each, just enough
// to spot an obvious conflict.

// otherLoop is one other assignment of the group, in a briefing.
type otherLoop struct {
	Assignment string `json:"assignment"`
	Status     string `json:"status"` // loopLabel: passed, in progress, checkpoint failed, paused…
	Round      int    `json:"round"`
	MaxRounds  int    `json:"max_rounds,omitempty"`
	Gate       string `json:"gate,omitempty"`
	Reviewer   string `json:"reviewer,omitempty"`
}

// otherLoops lists the other active assignments of r's group: every other
// member whose request is not cancelled. It is context, not a judgement:
// an assignment that cannot be read is left out (specdev status names it).
func otherLoops(a *checkpoint.Assignment, r *protocol.Request) []otherLoop {
	siblings, err := a.Siblings(r.Group)
	if err != nil {
		return nil
	}
	var out []otherLoop
	for _, e := range siblings {
		rp := e.Request
		if rp.Status == protocol.StatusCancelled {
			continue
		}
		l := otherLoop{Assignment: e.Name, Status: peekLabel(rp), Round: rp.Round, MaxRounds: rp.MaxRounds, Gate: rp.Gate}
		if e.Progress != nil && rp.Status == protocol.StatusInProgress {
			l.Reviewer = e.Progress.SessionID
		}
		out = append(out, l)
	}
	return out
}

// writeLoopContext adds to a briefing what kind of review it is, if a
// checkpoint review, and the other loops of its group.
func writeLoopContext(b *strings.Builder, d briefingData) {
	r := d.Request
	if r.Checkpoint {
		b.WriteString("Checkpoint review: work in progress. Your findings go to the implementer; the review is no round of the loop, and its pass does not open the gate.\n")
	}
	if r.Group == "" {
		return
	}
	if len(d.OtherLoops) == 0 {
		fmt.Fprintf(b, "Other loops of group %s: none active\n", r.Group)
		return
	}
	fmt.Fprintf(b, "Other loops of group %s (%d):\n", r.Group, len(d.OtherLoops))
	for _, l := range d.OtherLoops {
		round := "round " + roundOf(l.Round, l.MaxRounds)
		if l.Gate != "" && l.Gate != protocol.DefaultGate {
			round = "gate " + oneLine(l.Gate) + ", " + round
		}
		fmt.Fprintf(b, "  %s  %s, %s%s\n", l.Assignment, l.Status, round, byReviewer(l.Reviewer))
	}
}
