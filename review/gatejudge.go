package review

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/specdev/specdev/checkpoint"
	"github.com/specdev/specdev/protocol"
)

// Which loop judges which file. Several loops (assignments) share one
// checkout, each with its own files, so the gate judges every file it
// covers on its own:
//
//   - A file passes when some loop's passed review saw exactly its
//     content (the digest in that loop's pass record of the gate), in
//     whichever loop that is. The newest such pass is named.
//   - A file whose review is open (pending, in progress, awaiting
//     approval) or failed in one loop but passed unchanged in another
//     passes: the pass judged exactly this content, and the other loop's
//     open or failed review is about that loop's change as a whole, whose
//     other files stay out until it passes. The gate says so in a note.
//   - Any other file is refused, judged by the loop that can open the gate
//     for it: the loop whose open or failed request names it (the newest),
//     else the loop whose pass saw another content of it (the newest); a
//     file no loop knows is "not reviewed", to be reviewed in the loop
//     it belongs to. (With one loop there is, that loop judges every
//     file in its own words.)
//
// Only the loop --assignment (or SPECDEV_ASSIGNMENT) names counts when it
// is given, only the group's loops with --group; never "the newest".

// gateLoops are the loops that count: the named assignment, the group's
// members, or every assignment; as this checkout holds them, or with
// c.Remote as that git remote does.
func (s *Service) gateLoops(ctx context.Context, c GateOptions) ([]*gateCheck, error) {
	var entries []checkpoint.Entry
	var signed func(name, gate string) error
	var err error
	switch {
	case c.Remote != "":
		entries, signed, err = s.remoteEntries(ctx, c)
	case s.Assignment != "":
		var a *checkpoint.Assignment
		if a, err = s.Store.Resolve(s.Assignment); err == nil {
			entries = []checkpoint.Entry{{Name: a.Name}}
			entries[0].Snapshot, err = a.Snapshot()
		}
	case c.Group != "":
		_, entries, err = s.groupMembers(c.Group)
	default:
		entries, err = s.Store.Scan()
	}
	if err != nil {
		return nil, err
	}
	loops := make([]*gateCheck, 0, len(entries))
	for _, e := range entries {
		if e.Err != nil {
			return nil, e.Err
		}
		g := &gateCheck{s: s, name: e.Name, snap: e.Snapshot, gate: requestGate(e.Snapshot, c.Gate)}
		g.rec, g.passed = passRecord(e.Request, g.gate)
		if g.passed && signed != nil {
			// a pass whose commit is not trusted counts as none
			g.unsigned = signed(g.name, g.gate)
			g.passed = g.unsigned == nil
		}
		loops = append(loops, g)
	}
	return loops, nil
}

// judge decides what sc covers against the loops.
func (s *Service) judge(sc gateScope, loops []*gateCheck) Result {
	d := gateData{Gate: gateTitle(loops), Staged: sc.kind == staged, Pushed: sc.ref, Files: orEmpty(sc.files),
		Changed: []string{}, NotReviewed: []string{}, PassedBy: map[string]string{}}
	if len(sc.files) == 0 {
		if len(loops) == 1 {
			d.Assignment = loops[0].name
		}
		return Result{State: "nothing_to_check", Data: d, Code: OK, Next: sc.goAhead(),
			Text: fmt.Sprintf("Gate %s open: %s touches no file under review (outside .specdev/).", d.Gate, sc.what())}
	}
	if len(loops) == 1 {
		return loops[0].with(sc, s.Assignment != "").result() // one loop: its own words
	}
	covered := map[*gateCheck][]string{}
	refused := map[*gateCheck][]string{}
	var orphans []string
	for _, f := range sc.files {
		if l := coveredBy(loops, f, sc.digests[f]); l != nil {
			covered[l] = append(covered[l], f)
			d.PassedBy[f] = l.name
		} else if l := helper(loops, f); l != nil {
			refused[l] = append(refused[l], f)
		} else {
			orphans = append(orphans, f)
		}
	}
	notes := openElsewhere(loops, d.PassedBy)
	if len(refused)+len(orphans) == 0 {
		return passedResult(sc, d, covered, notes)
	}
	var codes []Code
	for _, l := range sortedLoops(refused) {
		only := sc
		only.files = refused[l]
		res := l.with(only, true).result()
		d.Loops = append(d.Loops, groupGateMember{State: res.State, Next: res.Next, gateData: res.Data.(gateData)})
		codes = append(codes, res.Code)
	}
	if len(orphans) > 0 {
		d.Loops = append(d.Loops, groupGateMember{State: "no_review", Next: orphanNext(sc, loops), gateData: gateData{Files: orphans, NotReviewed: orphans}})
		codes = append(codes, Waiting)
	}
	for _, m := range d.Loops {
		d.Changed, d.NotReviewed = append(d.Changed, m.Changed...), append(d.NotReviewed, m.NotReviewed...)
	}
	slices.Sort(d.Changed)
	slices.Sort(d.NotReviewed)
	return s.refusedResult(sc, d, codes, notes)
}

// coveredBy is the loop whose passed review saw exactly this content of
// file (the newest pass, if several did), or nil.
func coveredBy(loops []*gateCheck, file, sum string) *gateCheck {
	var best *gateCheck
	for _, l := range loops {
		if l.passed && sum != "" && l.rec.FileDigests[file] == sum && (best == nil || l.rec.CompletedAt.After(best.rec.CompletedAt.Time)) {
			best = l
		}
	}
	return best
}

// helper is the loop that can open the gate for a file no pass covers
// (see the comment at the top), or nil.
func helper(loops []*gateCheck, file string) *gateCheck {
	var open, seen *gateCheck
	for _, l := range loops {
		if r := openRequest(l); r != nil && slices.Contains(r.ChangedFiles, file) &&
			(open == nil || r.Timestamp.After(open.snap.Request.Timestamp.Time)) {
			open = l
		}
		if _, ok := l.rec.FileDigests[file]; ok && l.passed && (seen == nil || l.rec.CompletedAt.After(seen.rec.CompletedAt.Time)) {
			seen = l
		}
	}
	return cmp.Or(open, seen)
}

// openRequest is the loop's current request of its gate while it is not
// passed: under review, awaiting a human, failed or blocked.
func openRequest(l *gateCheck) *protocol.Request {
	r := l.snap.Request
	if r == nil || r.Gate != l.gate || r.Status == protocol.StatusPassed || r.Status == protocol.StatusCancelled {
		return nil
	}
	return r
}

// openElsewhere notes each passing file that another loop's open or
// failed review names too.
func openElsewhere(loops []*gateCheck, passedBy map[string]string) []string {
	var notes []string
	for _, f := range slices.Sorted(maps.Keys(passedBy)) {
		for _, l := range loops {
			if r := openRequest(l); r != nil && l.name != passedBy[f] && slices.Contains(r.ChangedFiles, f) {
				notes = append(notes, fmt.Sprintf("Note: %s is also in the review of %s (%s); the pass of %s saw exactly this content, and that is what counts.",
					f, l.name, stateText(string(r.Status)), passedBy[f]))
				break
			}
		}
	}
	return notes
}

// passedResult is the open gate: every file is what a passed review saw.
func passedResult(sc gateScope, d gateData, covered map[*gateCheck][]string, notes []string) Result {
	loops := sortedLoops(covered)
	var b strings.Builder
	if len(loops) == 1 {
		l := loops[0].with(sc, true)
		d.Assignment = l.name
		d.Review = &gateReview{RequestID: l.rec.RequestID, Status: protocol.StatusPassed, Round: l.rec.Round, HeadCommit: l.rec.HeadCommit}
		b.WriteString(l.passedText() + "\n")
	} else {
		fmt.Fprintf(&b, "Gate %s open: the %s what passed reviews saw:\n", d.Gate, sc.countOf(len(sc.files)))
		for _, l := range loops {
			fmt.Fprintf(&b, "  %s (round %d%s): %s\n", l.name, l.rec.Round, atHead(l.rec.HeadCommit), strings.Join(covered[l], ", "))
		}
	}
	writeLines(&b, notes)
	return Result{State: "passed", Data: d, Code: OK, Text: b.String(), Next: sc.goAhead()}
}

// refusedResult is the closed gate: each loop that holds refused files on
// a line with its state, the files and the command that helps.
func (s *Service) refusedResult(sc gateScope, d gateData, codes []Code, notes []string) Result {
	code, at := mostPressing(codes)
	refused := len(d.Files) - len(d.PassedBy)
	var b strings.Builder
	fmt.Fprintf(&b, "Gate %s closed: %d of %s not what a passed review saw.\n", d.Gate, refused, sc.countOf(len(d.Files)))
	for _, m := range d.Loops {
		if m.Assignment != "" {
			b.WriteString(memberLine(m, m.Files))
		} else {
			writeFileList(&b, "Not reviewed", m.Files)
			b.WriteString("For those: " + m.Next + "\n")
		}
	}
	if len(d.PassedBy) > 0 {
		fmt.Fprintf(&b, "Passed (%d): %s\n", len(d.PassedBy), withLoops(d.PassedBy))
	}
	writeLines(&b, notes)
	if s.Assignment == "" {
		b.WriteString("Each command is for the implementer of that loop")
		if sc.kind == staged {
			b.WriteString("; to commit without a file, unstage it: git restore --staged FILE")
		}
		b.WriteString(".\n")
	}
	return Result{State: d.Loops[at].State, Data: d, Code: code, Text: b.String(), Next: d.Loops[at].Next}
}

// orphanNext is the step for files no loop knows: a review in the loop
// they belong to, which may be the one assignment no review was asked
// for yet (a loop about to start), never one under way.
func orphanNext(sc gateScope, loops []*gateCheck) string {
	cmd := "specdev work request"
	if sc.kind == staged {
		cmd += " --staged"
	}
	var fresh []string
	for _, l := range loops {
		if l.snap.Request == nil {
			fresh = append(fresh, l.name)
		}
	}
	switch {
	case len(loops) == 0:
		return "make an assignment for them (mkdir -p .specdev/assignments/00001_my_feature), then ask for a review: " + cmd
	case len(fresh) == 1:
		return fmt.Sprintf("ask for a review of them in the loop they belong to, e.g. the new %s: %s --assignment %s", fresh[0], cmd, fresh[0])
	}
	return "ask for a review of them in the loop they belong to: " + cmd + " --assignment NAME"
}

// gateTitle names the gate of the loops: theirs when they agree.
func gateTitle(loops []*gateCheck) string {
	gates := map[string]bool{}
	for _, l := range loops {
		gates[l.gate] = true
	}
	return cmp.Or(strings.Join(slices.Sorted(maps.Keys(gates)), "/"), protocol.DefaultGate)
}

// sortedLoops are the map's loops by name.
func sortedLoops(m map[*gateCheck][]string) []*gateCheck {
	return slices.SortedFunc(maps.Keys(m), func(a, b *gateCheck) int { return strings.Compare(a.name, b.name) })
}

func writeLines(b *strings.Builder, lines []string) {
	for _, l := range lines {
		b.WriteString(l + "\n")
	}
}
