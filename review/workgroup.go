package review

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/specdev/specdev/checkpoint"
	"github.com/specdev/specdev/protocol"
)

// `specdev work --group NAME [--timeout D]`: the seed's sync at the end of
// a group of parallel loops. It waits until every loop of the group is
// decided — no request of it pending, in progress or awaiting a human's
// approval, so nobody waits on a reviewer — then shows each assignment's
// state. Exit 0 only if every loop passed its real review; otherwise the
// most pressing member's code (mostPressing): 6 a loop is blocked or
// paused for a human, 4 a loop has findings to fix (a review or a
// checkpoint review failed), 8 a loop was cancelled, 3 a loop still waits
// on a reviewer (the time ran out) or works on after a checkpoint review.

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
	Summary     string        `json:"summary"`
	Decided     bool          `json:"decided"`
	Assignments []groupMember `json:"assignments"`
}

// workGroup waits for the group and shows it.
func (s *Service) workGroup(ctx context.Context, c WorkOptions) (Result, error) {
	mode := c.Mode
	switch {
	case mode != "":
		return Result{}, usage("switch the mode of one assignment: specdev work mode="+string(mode)+" --assignment NAME",
			"--group shows a group; it does not switch modes")
	case s.Assignment != "":
		return Result{}, usage("keep one: --group "+c.Group+" (every assignment of it), or --assignment "+s.Assignment,
			"--group and --assignment both say what to show")
	}
	if err := checkGroupFlag(c.Group); err != nil {
		return Result{}, err
	}
	return s.waitForGroup(ctx, c.Group, c.Timeout)
}

// waitForGroup returns the group's view once no loop of it waits on a
// reviewer, or when the timeout is up. Each look reads every member in
// full, so what is shown is what was judged decided.
func (s *Service) waitForGroup(ctx context.Context, group string, timeout time.Duration) (Result, error) {
	st := s.Store
	var view Result
	look := func() (bool, time.Time, error) {
		var decided bool
		var err error
		view, decided, err = s.groupView(ctx, group)
		return decided, time.Time{}, err
	}
	if timeout <= 0 {
		_, _, err := look()
		return view, err
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	err := s.wait(ctx, func() []string { return assignmentDirs(st) }, look, nil)
	if errors.Is(err, context.DeadlineExceeded) {
		err = nil
	}
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
// shows one line each, the summary first; decided is true when no member
// waits on a reviewer.
func (s *Service) groupView(ctx context.Context, group string) (res Result, decided bool, err error) {
	entries, err := groupMembers(s.Store, group)
	if err != nil {
		return Result{}, false, err
	}
	d := workGroupData{Group: group, Decided: true}
	var labels []string
	var codes []Code
	for _, e := range entries {
		m, active, err := s.memberOf(ctx, e.Name)
		if err != nil {
			return Result{}, false, err
		}
		d.Decided = d.Decided && !active
		d.Assignments = append(d.Assignments, m)
		labels, codes = append(labels, m.State), append(codes, m.code)
	}
	d.Summary = groupSummary(group, labels)
	var b strings.Builder
	b.WriteString(upperFirst(d.Summary) + "\n")
	if !d.Decided {
		b.WriteString("Not every loop is decided: some still wait on a reviewer.\n")
	}
	for _, m := range d.Assignments {
		fmt.Fprintf(&b, "  %s  %s (gate %s, round %s)\n", m.Assignment, m.State, oneLine(m.Gate), roundOf(m.Round, m.MaxRounds))
		if m.Summary != "" && m.code != OK {
			fmt.Fprintf(&b, "    Summary: %s\n", oneLine(m.Summary))
		}
		if m.Next != "" && m.code != OK {
			fmt.Fprintf(&b, "    Next: %s\n", m.Next)
		}
	}
	code, at := mostPressing(codes)
	res = Result{State: "group_" + stateWord(code), Data: d, Text: b.String(), Code: code}
	switch {
	case code == OK:
		res.Next = "every loop passed; check that the work still matches its reviews: specdev gate --group " + group
	case code == Waiting:
		res.Next = "wait for the group: specdev work --group " + group + " --timeout 10m"
	default:
		res.Next = d.Assignments[at].Next
	}
	return res, d.Decided, nil
}

// memberOf is one member's state from its request and progress, and
// whether it waits on a reviewer.
func (s *Service) memberOf(ctx context.Context, name string) (m groupMember, active bool, err error) {
	a, err := s.Store.Assignment(name)
	if err != nil {
		return groupMember{}, false, err
	}
	snap, err := a.Fresh(ctx)
	if err != nil {
		return groupMember{}, false, err
	}
	r := snap.Request
	if r == nil { // removed by hand since the scan
		return groupMember{Assignment: name, State: "none", code: Conflict, Next: "ask for a review: specdev work request --assignment " + name}, false, nil
	}
	m = groupMember{Assignment: name, Gate: r.Gate, Round: r.Round, MaxRounds: r.MaxRounds, Checkpoint: r.Checkpoint,
		Summary: r.ReviewerNotes, Findings: len(findingsOf(snap))}
	m.State = loopLabel(r.Status, r.Checkpoint, checkpoint.Paused(r))
	m.code, m.Next = memberStep(name, r, m.State)
	return m, r.Status.Active(), nil
}

// memberStep is a member's exit code in the group and the command that
// moves its loop on.
func memberStep(name string, r *protocol.Request, state string) (Code, string) {
	flag := " --assignment " + name
	switch {
	case state == "paused":
		return Blocked, "a human reads the findings (specdev work" + flag + "), then runs: specdev work continue" + flag
	case r.Status == protocol.StatusBlocked:
		return Blocked, "a human runs: specdev work unblock --rounds 1" + flag + " (or: specdev work cancel" + flag + ")"
	case r.Status == protocol.StatusFailed:
		return ChangesRequested, "fix the findings (specdev work" + flag + "), then run: specdev work request" + flag
	case r.Status == protocol.StatusCancelled:
		return Conflict, "ask again when ready: specdev work request" + flag
	case r.Status == protocol.StatusAwaitingApproval:
		return Waiting, "a human decides: specdev check approve|reject" + flag
	case r.Status.Active():
		return Waiting, "wait for the verdict: specdev work" + flag + " --timeout 10m"
	case r.Checkpoint: // a checkpoint review passed: the loop works on
		return Waiting, "when the work is done: specdev work request" + flag
	}
	return OK, ""
}

// stateWord names a group's outcome for --json's state.
func stateWord(code Code) string {
	switch code {
	case OK:
		return "passed"
	case Blocked:
		return "blocked"
	case ChangesRequested:
		return "failed"
	case Conflict:
		return "cancelled"
	}
	return "waiting"
}

func roundOf(round, max int) string {
	if max > 0 {
		return fmt.Sprintf("%d of %d", round, max)
	}
	return fmt.Sprint(round)
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
