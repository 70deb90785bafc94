package review

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/specdev/specdev/checkpoint"
	"github.com/specdev/specdev/protocol"
)

// Groups of parallel loops: the loops a
// group declares (specdev group create, or work request --group --expect)
// or, undeclared, the assignments whose current request names it, are
// reviewed each on its own and synced at the group's end. This file
// holds what status, gate, work and the claim briefing share about them:
// the flag, the members, the word for a loop's state, the one-line
// summary, which state is the most pressing, and the briefing's "other
// loops".

// checkGroupFlag refuses a --group that is no name.
func checkGroupFlag(group string) error {
	if err := protocol.CheckName(group); err != nil {
		return usage("use letters, digits, '.', '_' and '-', e.g. --group api", "--group: "+err.Error())
	}
	return nil
}

// groupOf reads group's declaration (nil when nobody declared it) and
// picks from entries its members — the declared loops, else the
// assignments whose request names it — and the assignments that could
// not be read, which may be members. A --group that is no name, and a
// group that is neither declared nor named by any of them, are usage
// errors (the second naming the groups there are).
func (s *Service) groupOf(entries []checkpoint.Entry, group string) (decl *protocol.Group, members, unreadable []checkpoint.Entry, err error) {
	if err := checkGroupFlag(group); err != nil {
		return nil, nil, nil, err
	}
	if decl, err = s.Store.Group(group); err != nil {
		return nil, nil, nil, err
	}
	members, unreadable = checkpoint.GroupOf(entries, group, decl)
	if decl == nil && len(members)+len(unreadable) == 0 {
		return nil, nil, nil, s.noSuchGroup(group, entries)
	}
	return decl, members, unreadable, nil
}

// groupMembers reads the group and its members (see groupOf). An
// assignment that cannot be read may be a member, so it is an error (its
// own: exit 7), never passed over; so is a declared loop whose folder is
// gone.
func (s *Service) groupMembers(group string) (*protocol.Group, []checkpoint.Entry, error) {
	entries, err := s.Store.Scan()
	if err != nil {
		return nil, nil, err
	}
	decl, members, unreadable, err := s.groupOf(entries, group)
	switch {
	case err != nil:
		return nil, nil, err
	case len(unreadable) > 0:
		return nil, nil, fmt.Errorf("cannot tell whether %s is in group %s: %w", unreadable[0].Name, group, unreadable[0].Err)
	}
	if decl != nil && len(members) < len(decl.Loops) {
		for _, l := range decl.Loops {
			if !slices.ContainsFunc(members, func(e checkpoint.Entry) bool { return e.Name == l }) {
				return nil, nil, &checkpoint.StateError{Msg: fmt.Sprintf("loop %s of group %s has no assignment folder", l, group),
					Hint: fmt.Sprintf("restore it, or drop it from the group: specdev group drop %s %s", group, l)}
			}
		}
	}
	if decl != nil && len(members) == 0 && decl.Waits() == 0 { // never judged open over nothing
		return nil, nil, usage(fmt.Sprintf("name its loops: specdev group create %s --loops NAME,NAME…", group),
			fmt.Sprintf("group %s has no loops left", group))
	}
	return decl, members, nil
}

// noSuchGroup is the error for a group nobody declared and no request
// names.
func (s *Service) noSuchGroup(group string, entries []checkpoint.Entry) error {
	hint := fmt.Sprintf("declare it: specdev group create %s --loops NAME,NAME…", group)
	declared, _ := s.Store.Groups() // a group file that cannot be read is named by the commands that read it
	if known := checkpoint.GroupNames(entries, declared); len(known) > 0 {
		hint = fmt.Sprintf("the groups are: %s; or %s", strings.Join(known, ", "), hint)
	}
	return usage(hint, fmt.Sprintf("no group %s: nobody declared it and no assignment is in it", group))
}

// peekLabel is the word for a loop's state in a group, from its request
// as a scan reads it: its status, "paused" for a manual-mode implementer
// waiting for a human, and "checkpoint …" while the latest review is a
// checkpoint review.
func peekLabel(r *protocol.Request) string {
	word := strings.ReplaceAll(string(r.Status), "_", " ") // in progress, awaiting approval
	switch {
	case checkpoint.Paused(r):
		return "paused"
	case r.Checkpoint:
		return "checkpoint " + word
	}
	return word
}

// stateWords say a loop's state in plain words, the same wherever a view
// names one: a row of status, a member of gate --group, the gate's
// judgement of an unfinished review, work's note on the others that need
// a human. The keys are the --json state words (a request's status,
// paused, and the gate's no_review and changed), which stay as they are.
var stateWords = map[string]string{
	"none": "not requested", "pending": "waiting for a reviewer", "in_progress": "in review",
	"awaiting_approval": "awaiting a human's decision", "paused": "paused for a human",
	"blocked": "blocked at its round limit", "no_review": "no passing review yet", "changed": "changed since its review",
}

// stateText is a state in plain words: stateWords, else the state spaced.
func stateText(state string) string {
	return cmp.Or(stateWords[state], strings.ReplaceAll(state, "_", " "))
}

// labelOrder is the order of a group summary's counts: decided first.
var labelOrder = []string{"passed", "failed", "paused", "blocked", "cancelled", "awaiting approval", "in progress", "pending"}

// groupSummary is the one line that sums a group up:
// "group api: 1 passed, 1 failed, 1 in progress".
func groupSummary(group string, labels []string) string {
	counts := map[string]int{}
	order := append([]string{}, labelOrder...)
	for _, l := range labels {
		if counts[l] == 0 && !slices.Contains(order, l) {
			order = append(order, l) // the checkpoint states, after the rest
		}
		counts[l]++
	}
	var parts []string
	for _, l := range order {
		if counts[l] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[l], l))
		}
	}
	return fmt.Sprintf("group %s: %s", group, strings.Join(parts, ", "))
}

// pressingOrder ranks the exit codes of a group's members: what needs a
// human (6) before findings to fix (4), before work that changed since its
// review or a withdrawn loop (8), before waiting (3); 0 only if all are 0.
var pressingOrder = []Code{Blocked, ChangesRequested, Conflict, Waiting}

// mostPressing is the group's exit code from its members' codes, and the
// index of the first member with it (-1 when all are 0). A code outside
// the ranking wins over all (it is never taken for a pass).
func mostPressing(codes []Code) (code Code, at int) {
	if i := slices.IndexFunc(codes, func(c Code) bool { return c != OK && !slices.Contains(pressingOrder, c) }); i >= 0 {
		return codes[i], i
	}
	for _, want := range pressingOrder {
		if i := slices.Index(codes, want); i >= 0 {
			return want, i
		}
	}
	return OK, -1
}

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
// member with a request that is not cancelled (a declared loop not started
// yet has none). It is context, not a judgement: an assignment that cannot
// be read is left out (specdev status names it).
func otherLoops(a *checkpoint.Assignment, r *protocol.Request) []otherLoop {
	siblings, _ := a.Siblings(r.Group) // none when they cannot be read
	var out []otherLoop
	for _, e := range siblings {
		rp := e.Request
		if rp == nil || rp.Status == protocol.StatusCancelled {
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
// checkpoint review, and the other active loops of its group.
func writeLoopContext(b *strings.Builder, d briefingData) {
	r := d.Request
	if r.Checkpoint {
		b.WriteString("Checkpoint review: work in progress. Your findings go to the implementer; the review is no round of the loop, and its pass does not open the gate.\n")
	}
	if len(d.OtherLoops) == 0 { // no group, or none of its other loops is active
		return
	}
	fmt.Fprintf(b, "Other loops of group %s (%d):\n", r.Group, len(d.OtherLoops))
	for _, l := range d.OtherLoops {
		b.WriteString(loopLine(l.Assignment, l.Status, l.Gate, l.Round, l.MaxRounds) + byReviewer(l.Reviewer) + "\n")
	}
}

// loopLine is one loop of a group on a line, as work --group and a
// briefing's other loops show it: "  00002_b  in progress (gate review,
// round 1 of 3)"; a loop with no request yet has no gate or round to name.
func loopLine(name, state, gate string, round, max int) string {
	if gate == "" {
		return fmt.Sprintf("  %s  %s", name, state)
	}
	return fmt.Sprintf("  %s  %s (gate %s, round %s)", name, state, oneLine(gate), roundOf(round, max))
}
