package review

import (
	"context"
	"errors"
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
	Staged      *gateData         `json:"staged,omitempty"`  // the staged change, when it is not what the group's reviews passed
	ToJoin      int               `json:"to_join,omitempty"` // declared loops yet to join (--expect)
}

// groupGateMember is one member's judgement: the gate's data, its state
// and the step that moves it on.
type groupGateMember struct {
	State string `json:"state"`
	Next  string `json:"next,omitempty"`
	gateData
}

// gateGroup judges every member of the group (loops), and what is staged.
func (s *Service) gateGroup(ctx context.Context, group string, loops []*gateCheck) (Result, error) {
	decl, err := s.Store.Group(group)
	if err != nil {
		return Result{}, err
	}
	d := groupGateData{Group: group, Passed: []string{}, NotPassed: []string{}}
	var codes []Code
	for _, l := range loops {
		m, code, err := judgeMember(group, l)
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
	if decl != nil {
		d.ToJoin = decl.Waits()
	}
	return s.withStaged(ctx, groupGateResult(d, codes), loops)
}

// withStaged adds to a group's sync the staged change, judged by the
// group's loops: the sync never says "go ahead" while a file nobody
// reviewed is staged. Outside git there is nothing staged.
func (s *Service) withStaged(ctx context.Context, res Result, loops []*gateCheck) (Result, error) {
	scopes, _, err := s.gateScopes(ctx, GateOptions{Staged: true})
	if errors.Is(err, changeset.ErrNotGit) {
		return res, nil
	}
	if err != nil {
		return Result{}, err
	}
	staged := s.judge(scopes[0], loops)
	if staged.Code == OK {
		return res, nil
	}
	d := res.Data.(groupGateData)
	d.Staged = new(staged.Data.(gateData))
	code, at := mostPressing([]Code{res.Code, staged.Code})
	if at == 1 {
		res.State, res.Next = staged.State, staged.Next
	}
	res.Code, res.Data = code, d
	res.Text += "Staged: " + staged.Text
	return res, nil
}

// judgeMember runs the gate on one member, over the files its loop
// covers. A loop the group needs a human for — awaiting approval, or
// cancelled without a pass of its gate — is exit 6, as in work --group.
func judgeMember(group string, l *gateCheck) (groupGateMember, Code, error) {
	g := l.with(gateScope{}, true)
	if err := g.coverLoop(); err != nil {
		return groupGateMember{}, 0, err
	}
	res := g.result()
	m := groupGateMember{State: res.State, Next: res.Next, gateData: res.Data.(gateData)}
	r := g.snap.Request
	switch {
	case res.Code == OK:
		m.Next = "" // a member that passed has no step
	case res.State == "awaiting_approval":
		res.Code = Blocked
	case r != nil && r.Status == protocol.StatusCancelled && !g.passed: // withdrawn, and no review of it stands
		m.State, m.Review, m.Next, res.Code = "cancelled", nil, loopStep("cancelled", group, g.name, g.requestCommand()), Blocked
	}
	return m, res.Code, nil
}

// coverLoop sets the files the gate covers for a group's member: those
// its last passing review saw (carried ones too) and those its current
// request of the gate names (unless withdrawn), with their content now in
// the checkout the loop's request was made in.
func (g *gateCheck) coverLoop() error {
	var files []string
	if g.passed {
		files = append(slices.Clone(g.rec.Files), slices.Collect(maps.Keys(g.rec.FileDigests))...)
	}
	r := g.snap.Request
	if r != nil && r.Gate == g.gate && r.Status != protocol.StatusCancelled {
		files = append(files, r.ChangedFiles...)
	}
	slices.Sort(files)
	g.files = slices.Compact(files)
	root, err := g.s.Store.CheckoutOf(r)
	if err != nil {
		return err
	}
	sums, err := changeset.Digest(root, g.files)
	g.digests = sums.Files
	return err
}

// loopStep is the command that moves a loop on from its state (a request
// status, or paused), naming it unless name is ""; request is the `work
// request` that reviews it. "" for any other state.
func loopStep(state, group, name, request string) string {
	flag := ""
	if name != "" {
		flag = " --assignment " + name
	}
	switch state {
	case "cancelled":
		return "ask for its review again (" + request + "), or a human drops the loop from the group: specdev group drop " + group + " " + name
	case "pending", "in_progress":
		return "wait for the verdict: specdev work" + flag + " --timeout 10m"
	case "failed":
		return "fix the findings (specdev work" + flag + "), then run: " + request
	case "paused":
		return "a human reads the findings (specdev work" + flag + "), then runs: specdev work continue" + flag
	case "blocked":
		return "a human runs: specdev work unblock --rounds 1" + flag + " (or: specdev work cancel" + flag + ")"
	case "awaiting_approval":
		return "a human decides: specdev check approve|reject" + flag
	}
	return ""
}

// memberLine is one member that did not pass: its state, and how its
// loop moves on. files are the files to name (nil: those changed since
// its review, when it changed).
func memberLine(m groupGateMember, files []string) string {
	what := fmt.Sprintf("gate %s", m.Gate)
	if rv := m.Review; rv != nil && rv.Round > 0 && m.State != "no_review" {
		what += fmt.Sprintf(", round %d", rv.Round)
	}
	switch {
	case m.State == "in_progress":
		what += fmt.Sprintf(", %d/%d files reviewed", m.Review.FilesReviewed, m.Review.FilesTotal)
	case m.State == "changed" && files == nil:
		files = append(append([]string{}, m.Changed...), m.NotReviewed...)
	}
	if len(files) > 0 {
		what += ": " + strings.Join(files, ", ")
	}
	return fmt.Sprintf("  %s  %s (%s): %s\n", m.Assignment, stateText(m.State), what, m.Next)
}

// groupGateResult sums the members up: open only if all passed and no
// declared loop is yet to join.
func groupGateResult(d groupGateData, codes []Code) Result {
	code, at := mostPressing(codes)
	var b strings.Builder
	res := Result{State: "group_" + stateWord(code), Data: d, Code: code}
	switch n := len(d.Assignments); {
	case code == OK && d.ToJoin == 0:
		res.State, res.Next = "passed", "go ahead: merge, commit or push the group's work"
		fmt.Fprintf(&b, "Group %s open: %s passed their gate and still match their reviews.\n", d.Group, protocol.Plural(n, "assignment"))
	case code == OK: // every loop there passed; more are to join
		res.State, res.Code = "group_waiting", Waiting
		fallthrough
	default:
		fmt.Fprintf(&b, "Group %s closed: %d of %s passed their gate.\n", d.Group, len(d.Passed), protocol.Plural(n+d.ToJoin, "assignment"))
	}
	if d.ToJoin > 0 {
		res.Next = fmt.Sprintf("wait for %s to join the group: specdev work request --group %s", protocol.Plural(d.ToJoin, "more loop"), d.Group)
		fmt.Fprintf(&b, "  Not joined yet: %s\n", res.Next)
	}
	underReview := true // every member that did not pass waits on a reviewer
	for i, m := range d.Assignments {
		if codes[i] != OK {
			b.WriteString(memberLine(m, nil))
			underReview = underReview && slices.Contains([]string{"pending", "in_progress", "awaiting_approval"}, m.State)
		}
	}
	if len(d.Passed) > 0 {
		fmt.Fprintf(&b, "Passed (%d): %s\n", len(d.Passed), strings.Join(d.Passed, ", "))
	}
	switch {
	case code == Waiting && underReview:
		res.Next = "wait for the group: specdev work --group " + d.Group + " --timeout 10m"
	case code != OK:
		res.Next = d.Assignments[at].Next
	}
	res.Text = b.String()
	return res
}
