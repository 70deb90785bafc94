package review

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/specdev/specdev/checkpoint"
	"github.com/specdev/specdev/protocol"
)

// `specdev work --group NAME [--timeout D]`: the seed's sync at the end of
// a group of parallel loops. With --timeout it waits until the group is
// settled — every loop passed, or one needs a human (blocked, stuck,
// paused, awaiting approval, cancelled) — and then shows each loop's
// state; a loop with its implementer (fixing findings, not started yet,
// working on after a checkpoint review) or its reviewer keeps it waiting,
// and so does a declared group still waiting for loops to join. Exit 0
// only if every loop passed its real review; otherwise the most pressing
// member's code (mostPressing): 6 a loop needs a human, 4 a loop has
// findings to fix, 3 a loop waits on its reviewer or implementer (or the
// time ran out).

// groupMember is one assignment in `work --group`.
type groupMember struct {
	Assignment string `json:"assignment"`
	State      string `json:"state"` // loopLabel
	Gate       string `json:"gate"`
	Round      int    `json:"round"`
	MaxRounds  int    `json:"max_rounds,omitempty"`
	Checkpoint bool   `json:"checkpoint,omitempty"`
	Summary    string `json:"summary,omitempty"`
	Findings   int    `json:"findings"`
	Next       string `json:"next,omitempty"`
	code       Code
}

// workGroupData is the --json data of `work --group`.
type workGroupData struct {
	Group       string        `json:"group"`
	Declared    bool          `json:"declared"` // the group has a declaration (specdev group create)
	Summary     string        `json:"summary"`
	Settled     bool          `json:"settled"`           // every loop passed, or one needs a human
	ToJoin      int           `json:"to_join,omitempty"` // declared loops yet to join (--expect)
	Assignments []groupMember `json:"assignments"`
}

// workGroup waits for the group and shows it: once it is settled, or
// when the timeout is up. Each look reads every member in full, so what
// is shown is what was judged settled.
func (s *Service) workGroup(ctx context.Context, c WorkOptions) (Result, error) {
	switch {
	case c.Mode != "":
		return Result{}, usage("switch the mode of one assignment: specdev work mode="+string(c.Mode)+" --assignment NAME",
			"--group shows a group; it does not switch modes")
	case s.Assignment != "":
		return Result{}, usage("keep one: --group "+c.Group+" (every assignment of it), or --assignment "+s.Assignment,
			"--group and --assignment both say what to show")
	}
	var view Result
	dirs := func() []string {
		return append(assignmentDirs(s.Store), filepath.Join(s.Store.Dir, checkpoint.GroupsDir))
	}
	err := s.waitFor(ctx, "group "+c.Group+" to pass, or a loop of it to need a human", c.Timeout, dirs, nil,
		func(ctx context.Context) (bool, time.Time, error) {
			var err error
			view, err = s.groupView(ctx, c.Group)
			return err == nil && view.Data.(workGroupData).Settled, time.Time{}, err
		})
	return view, err
}

// assignmentDirs are the folders to watch for a group: the assignments
// folder (a new member) and every assignment's own.
func assignmentDirs(st *checkpoint.Store) []string {
	root := filepath.Join(st.Dir, checkpoint.AssignmentsDir)
	dirs := []string{root}
	entries, _ := os.ReadDir(root) // unreadable: the slow poll covers it
	for _, e := range entries {
		if e.IsDir() {
			dirs = append(dirs, filepath.Join(root, e.Name()))
		}
	}
	return dirs
}

// groupView reads every member in full (validated, as a report must) and
// shows one line each, the summary first; its data says whether the
// group is settled: every loop passed, or one needs a human.
func (s *Service) groupView(ctx context.Context, group string) (Result, error) {
	decl, entries, err := s.groupMembers(group)
	if err != nil {
		return Result{}, err
	}
	d := workGroupData{Group: group, Declared: decl != nil}
	var labels []string
	var codes []Code
	for _, e := range entries {
		m, err := s.memberOf(ctx, group, e.Name)
		if err != nil {
			return Result{}, err
		}
		d.Assignments = append(d.Assignments, m)
		labels, codes = append(labels, m.State), append(codes, m.code)
	}
	if decl != nil && decl.Waits() > 0 {
		d.ToJoin = decl.Waits()
		codes = append(codes, Waiting)
	}
	code, at := mostPressing(codes)
	d.Settled = code == OK || slices.Contains(codes, Blocked)
	d.Summary = groupSummary(group, labels)
	var b strings.Builder
	b.WriteString("G" + strings.TrimPrefix(d.Summary, "g") + "\n") // "Group api: …"
	if d.ToJoin > 0 {
		fmt.Fprintf(&b, "Waiting for %s to join: specdev work request --group %s\n", protocol.Plural(d.ToJoin, "more loop"), group)
	}
	for _, m := range d.Assignments {
		b.WriteString(loopLine(m.Assignment, m.State, m.Gate, m.Round, m.MaxRounds) + "\n")
		if m.code != OK {
			writeLabelled(&b, "    Summary", m.Summary)
			writeLabelled(&b, "    Next", m.Next)
		}
	}
	res := Result{State: "group_" + stateWord(code), Data: d, Text: b.String(), Code: code}
	switch {
	case code == OK:
		res.Next = "every loop passed; check that the work still matches its reviews: specdev gate --group " + group
	case !d.Settled:
		res.Next = "wait for the group: specdev work --group " + group + " --timeout 10m"
	default:
		res.Next = d.Assignments[at].Next
	}
	return res, nil
}

// memberOf is one member's state from its request and progress.
func (s *Service) memberOf(ctx context.Context, group, name string) (groupMember, error) {
	a, err := s.Store.Assignment(name)
	if err != nil {
		return groupMember{}, err
	}
	snap, err := a.Fresh(ctx)
	if err != nil {
		return groupMember{}, err
	}
	r := snap.Request
	if r == nil { // declared, not started yet (or its request removed by hand)
		return groupMember{Assignment: name, State: "not started", code: Waiting,
			Next: "its implementer asks for a review when the work is ready: specdev work request --assignment " + name}, nil
	}
	m := groupMember{Assignment: name, State: peekLabel(r), Gate: r.Gate, Round: r.Round, MaxRounds: r.MaxRounds, Checkpoint: r.Checkpoint,
		Summary: r.ReviewerNotes, Findings: len(findingsOf(snap))}
	if _, passed := r.Passed[r.Gate]; passed && r.Status == protocol.StatusCancelled {
		m.State = "passed, then a request cancelled" // the pass stands: gate --group judges the work by it
	}
	m.code, m.Next = memberStep(group, name, r, m.State)
	return m, nil
}

// memberStep is a member's exit code in the group and the command that
// moves its loop on.
func memberStep(group, name string, r *protocol.Request, state string) (Code, string) {
	request := "specdev work request --assignment " + name
	code, key := Waiting, string(r.Status)
	switch {
	case state == "paused":
		code, key = Blocked, state
	case r.Status == protocol.StatusBlocked, r.Status == protocol.StatusAwaitingApproval, r.Status == protocol.StatusCancelled && state == "cancelled":
		code = Blocked
	case r.Status == protocol.StatusFailed:
		code = ChangesRequested
	case r.Status.Active():
	case r.Checkpoint: // a checkpoint review passed: the loop works on
		return Waiting, "when the work is done: " + request
	default:
		return OK, ""
	}
	return code, loopStep(key, group, name, request)
}

// stateWord names a group's outcome for --json's state.
func stateWord(code Code) string {
	return cmp.Or(map[Code]string{OK: "passed", Blocked: "blocked", ChangesRequested: "failed"}[code], "waiting")
}

func roundOf(round, max int) string {
	if max > 0 {
		return fmt.Sprintf("%d of %d", round, max)
	}
	return fmt.Sprint(round)
}
