package review

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/specdev/specdev/internal/changeset"
	"github.com/specdev/specdev/protocol"
)

// `specdev gate --group NAME`: the seed's sync at the group's end. Each
// member is judged by the gate's own rules (gateCheck.result) on the files
// its loop covers — those its passing review saw and those its current
// request names — in the work tree, since the members' work is merged
// together; git is not needed. The group passes (exit 0) only when every
// member passed its gate and still matches that review. Otherwise each
// member that did not is named on one line with its state and the command
// that moves it on, and the exit code is the most pressing of theirs
// (mostPressing: 6 blocked or paused, then 4 failed, then 8 changed since
// its review, then 3 no passing review yet or a review under way).

// groupGateData is the --json data of `gate --group`.
type groupGateData struct {
	Group       string            `json:"group"`
	Passed      []string          `json:"passed"`
	NotPassed   []string          `json:"not_passed"`
	Assignments []groupGateMember `json:"assignments"`
}

// groupGateMember is one member's judgement: the gate's data, its state
// and the step that moves it on.
type groupGateMember struct {
	State string `json:"state"`
	Next  string `json:"next,omitempty"`
	gateData
}

// gateGroup judges every member of the group.
func (s *Service) gateGroup(ctx context.Context, c GateOptions) (Result, error) {
	switch {
	case c.Staged:
		return Result{}, usage("check the group's work tree: specdev gate --group "+c.Group+"; or one commit: specdev gate --staged",
			"--staged checks one commit against one assignment's review; it does not combine with --group")
	case s.Assignment != "":
		return Result{}, usage("keep one: --group "+c.Group+" (every assignment of it), or --assignment "+s.Assignment,
			"--group and --assignment both say what to check")
	}
	if err := checkGroupFlag(c.Group); err != nil {
		return Result{}, err
	}
	members, err := groupMembers(s.Store, c.Group)
	if err != nil {
		return Result{}, err
	}
	d := groupGateData{Group: c.Group, Passed: []string{}, NotPassed: []string{}}
	var codes []Code
	for _, e := range members {
		m, code, err := s.judgeMember(c, e.Name)
		if err != nil {
			return Result{}, err
		}
		d.Assignments = append(d.Assignments, m)
		codes = append(codes, code)
		if code == OK {
			d.Passed = append(d.Passed, m.Assignment)
		} else {
			d.NotPassed = append(d.NotPassed, m.Assignment)
		}
	}
	return groupGateResult(d, codes), nil
}

// judgeMember runs the gate on one member, over the files its loop covers.
func (s *Service) judgeMember(c GateOptions, name string) (groupGateMember, Code, error) {
	a, err := s.Store.Assignment(name)
	if err != nil {
		return groupGateMember{}, 0, err
	}
	snap, err := a.Snapshot()
	if err != nil {
		return groupGateMember{}, 0, err
	}
	g := &gateCheck{s: s, a: a, snap: snap, gate: requestGate(snap, c.Gate), named: true}
	if err := g.coverLoop(); err != nil {
		return groupGateMember{}, 0, err
	}
	res, err := g.result()
	if err != nil {
		return groupGateMember{}, 0, err
	}
	var d gateData
	switch v := res.Data.(type) { // unfinished reviews give a pointer
	case gateData:
		d = v
	case *gateData:
		d = *v
	}
	if res.State == "nothing_to_check" { // a request without files: only a pass of it counts
		res.State, res.Code = "no_review", Waiting
		if r := snap.Request; r != nil && r.Status == protocol.StatusPassed && !r.Checkpoint {
			res.State, res.Code = "passed", OK
		}
	}
	m := groupGateMember{State: res.State, gateData: d}
	m.Next = g.memberNext(res)
	return m, res.Code, nil
}

// coverLoop sets the files the gate covers for a group's member: those
// its last passing review saw (carried ones too) and those its current
// request of the gate names, with their content in the work tree now.
func (g *gateCheck) coverLoop() error {
	set := map[string]bool{}
	rec, ok, err := g.record()
	if err != nil {
		return err
	}
	if ok {
		for _, f := range rec.Files {
			set[f] = true
		}
		for f := range rec.FileDigests {
			set[f] = true
		}
	}
	if r := g.snap.Request; r != nil && r.Gate == g.gate {
		for _, f := range r.ChangedFiles {
			set[f] = true
		}
	}
	g.files = slices.Sorted(maps.Keys(set))
	sums, err := changeset.Digest(g.s.Store.Root, g.files)
	g.digests = sums.Files
	return err
}

// memberNext is the command that moves a member on, naming it.
func (g *gateCheck) memberNext(res Result) string {
	flag := " --assignment " + g.a.Name
	switch res.State {
	case "passed":
		return ""
	case "pending", "in_progress":
		return "wait for the verdict: specdev work" + flag + " --timeout 10m"
	case "failed":
		return "fix the findings (specdev work" + flag + "), then run: " + g.requestCommand()
	case "paused":
		return "a human reads the findings (specdev work" + flag + "), then runs: specdev work continue" + flag
	case "blocked":
		return "a human runs: specdev work unblock --rounds 1" + flag + " (or: specdev work cancel" + flag + ")"
	case "awaiting_approval":
		return res.Next // names the assignment already
	}
	return "ask for a review: " + g.requestCommand() // no_review, changed
}

// memberLine is one member that did not pass: its state, and how its
// loop moves on.
func memberLine(m groupGateMember) string {
	what := fmt.Sprintf("gate %s", m.Gate)
	if rv := m.Review; rv != nil && rv.Round > 0 && m.State != "no_review" {
		what += fmt.Sprintf(", round %d", rv.Round)
	}
	state := strings.ReplaceAll(m.State, "_", " ")
	switch m.State {
	case "in_progress":
		what += fmt.Sprintf(", %d/%d files reviewed", m.Review.FilesReviewed, m.Review.FilesTotal)
	case "no_review":
		state = "no passing review yet"
	case "changed":
		state = "changed since its review"
		what += ": " + strings.Join(append(append([]string{}, m.Changed...), m.NotReviewed...), ", ")
	case "paused":
		state = "paused for a human"
	case "blocked":
		state = "blocked at its round limit"
	}
	return fmt.Sprintf("  %s  %s (%s): %s\n", m.Assignment, state, what, m.Next)
}

// groupGateResult sums the members up: open only if all passed.
func groupGateResult(d groupGateData, codes []Code) Result {
	code, at := mostPressing(codes)
	var b strings.Builder
	n := len(d.Assignments)
	if code == OK {
		fmt.Fprintf(&b, "Group %s open: %s passed their gate and still match their reviews.\n", d.Group, all(n))
		fmt.Fprintf(&b, "Passed (%d): %s\n", len(d.Passed), strings.Join(d.Passed, ", "))
		return Result{State: "passed", Data: d, Text: b.String(), Code: code, Next: "go ahead: merge, commit or push the group's work"}
	}
	fmt.Fprintf(&b, "Group %s closed: %d of %s passed their gate.\n", d.Group, len(d.Passed), plural(n, "assignment"))
	for i, m := range d.Assignments {
		if codes[i] != OK {
			b.WriteString(memberLine(m))
		}
	}
	if len(d.Passed) > 0 {
		fmt.Fprintf(&b, "Passed (%d): %s\n", len(d.Passed), strings.Join(d.Passed, ", "))
	}
	res := Result{State: "group_" + stateWord(code), Data: d, Text: b.String(), Code: code, Next: d.Assignments[at].Next}
	if code == Waiting && onlyUnderReview(d, codes) {
		res.Next = "wait for the group: specdev work --group " + d.Group + " --timeout 10m"
	}
	return res
}

// onlyUnderReview: every member that did not pass waits on a reviewer.
func onlyUnderReview(d groupGateData, codes []Code) bool {
	for i, m := range d.Assignments {
		if codes[i] != OK && m.State != "pending" && m.State != "in_progress" && m.State != "awaiting_approval" {
			return false
		}
	}
	return true
}

func all(n int) string {
	if n == 1 {
		return "its 1 assignment"
	}
	return fmt.Sprintf("all %d assignments", n)
}

// beneathCheckpoint judges a gate whose current request is a checkpoint
// review, which the gate ignores: while the gate's loop is open its last
// real round failed (exit 4); otherwise (ok false) the gate's last pass
// decides, as if the checkpoint review were not there.
func (g *gateCheck) beneathCheckpoint(d *gateData) (Result, bool) {
	loop, open := g.snap.Request.Loops[g.gate]
	if !open {
		return Result{}, false
	}
	d.Review = &gateReview{Status: protocol.StatusFailed, Round: loop.RoundsFailed}
	text := fmt.Sprintf("Gate %s closed: round %d of %d of the review of %s failed (the checkpoint reviews since do not count).",
		g.gate, loop.RoundsFailed, loop.MaxRounds, g.a.Name)
	return Result{State: "failed", Data: d, Code: ChangesRequested, Text: text,
		Next: "fix the findings, then run: " + g.requestCommand()}, true
}
