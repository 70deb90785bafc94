package review

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/specdev/specdev/checkpoint"
	"github.com/specdev/specdev/protocol"
)

// StatusRow is one assignment in specdev status.
type StatusRow struct {
	Assignment    string `json:"assignment"`
	Status        string `json:"status"`
	Description   string `json:"description"` // the status in plain words, as the table shows it
	Gate          string `json:"gate,omitempty"`
	Round         int    `json:"round,omitempty"`
	MaxRounds     int    `json:"max_rounds,omitempty"`
	Reviewer      string `json:"reviewer,omitempty"`
	FilesReviewed int    `json:"files_reviewed"`
	FilesTotal    int    `json:"files_total"`
	LastActivity  string `json:"last_activity,omitempty"`
	Stale         bool   `json:"stale"`
	Group         string `json:"group,omitempty"`
	Checkpoint    bool   `json:"checkpoint,omitempty"` // the request is a checkpoint review
	Paused        bool   `json:"paused,omitempty"`     // failed, and a manual-mode implementer waits for a human
	Stuck         bool   `json:"stuck,omitempty"`      // blocked: a rejection repeated the round before's findings
	ClockSkew     bool   `json:"clock_skew,omitempty"` // last_activity is ahead of this clock
	Error         string `json:"error,omitempty"`
	Mode          string `json:"mode,omitempty"` // the implementer's: auto, or manual (a human decides after a rejection)

	AgentCost *protocol.AgentCost `json:"agent_cost,omitempty"` // what the agents specdev started used, in the round and the loop

	Idle time.Duration `json:"-"` // since the last activity (checkpoint.Idle)
}

// StatusData is the data of specdev status.
type StatusData struct {
	Assignments []StatusRow   `json:"assignments"`
	Group       *GroupSummary `json:"group,omitempty"`
	NeedsHuman  []NeedItem    `json:"needs_human"`
	StaleAfter  string        `json:"stale_after"`
}

// GroupSummary sums a group up in one line.
type GroupSummary struct {
	Name    string `json:"name"`
	Summary string `json:"summary"`
}

// Status reads every assignment (of group, if named) once — each request
// in full, and the progress of the reviews under way — and says who must
// act. An unreadable one makes the outcome INVALID. (A finished review's
// progress is not read: specdev doctor checks every file.) The Result's
// Text is left to the caller, which knows how wide a table it may print;
// the group's summary line is in it.
func (s *Service) Status(ctx context.Context, group string) (Result, error) {
	if group != "" {
		if err := checkGroupFlag(group); err != nil {
			return Result{}, err
		}
	}
	entries, err := s.Store.Scan()
	if err != nil {
		return Result{}, err
	}
	return s.statusOf(entries, group)
}

// statusOf is the status of entries (of group, if named).
func (s *Service) statusOf(entries []checkpoint.Entry, group string) (Result, error) {
	entries, err := s.inGroup(entries, group)
	if err != nil {
		return Result{}, err
	}
	rows, needs := make([]StatusRow, 0, len(entries)), []NeedItem{}
	var labels []string
	for _, e := range entries {
		row := rowOf(e, s.now(), s.Store.StaleAfter())
		rows = append(rows, row)
		if n, ok := needOf(row); ok {
			needs = append(needs, n)
		}
		if e.Err == nil && e.Request != nil {
			labels = append(labels, peekLabel(e.Request))
		}
	}
	res := statusResult(rows, needs)
	d := StatusData{Assignments: rows, NeedsHuman: needs, StaleAfter: s.Store.StaleAfter().String()}
	if group != "" { // the group's summary line, in the text and the data
		d.Group = &GroupSummary{Name: group, Summary: groupSummary(group, labels)}
		res.Text += d.Group.Summary + "\n"
		if res.Code == OK {
			res.Next = "wait for the group: specdev work --group " + group + " --timeout 10m; then: specdev gate --group " + group
		}
	}
	res.Data = d
	return res, nil
}

// statusResult is the state, outcome and next step of a status.
func statusResult(rows []StatusRow, needs []NeedItem) Result {
	res := Result{State: "ok", Next: "implementer: specdev work; reviewer: specdev check"}
	switch {
	case len(rows) == 0:
		res.Next = "create an assignment: mkdir -p .specdev/assignments/00001_my_feature, then: specdev work request"
	case len(needs) == 1:
		res.Next = "a human runs: " + needs[0].Command
	case len(needs) > 1:
		res.Next = "a human runs the commands listed under \"Needs a human\""
	}
	if slices.ContainsFunc(rows, func(r StatusRow) bool { return r.Error != "" }) {
		res.State, res.Code, res.Next = "invalid", Invalid, "fix or restore the file named above (specdev never overwrites a malformed file)"
	}
	return res
}

func rowOf(e checkpoint.Entry, now time.Time, staleAfter time.Duration) StatusRow {
	row := StatusRow{Assignment: e.Name, Status: "none"}
	if r := e.Request; r != nil {
		row.Status, row.Gate, row.Round, row.MaxRounds, row.Mode = string(r.Status), r.Gate, r.Round, r.MaxRounds, string(r.Mode)
		row.Paused = checkpoint.Paused(r)
		row.Group, row.Checkpoint, row.AgentCost = r.Group, r.Checkpoint, r.AgentCost
		row.Stuck = r.BlockedReason == protocol.BlockedStuck
	}
	if e.Err != nil {
		row.Status, row.Error = "invalid", e.Err.Error()
	}
	if p := e.Progress; p != nil {
		row.Reviewer, row.FilesReviewed, row.FilesTotal = p.SessionID, len(p.FilesReviewed), p.FilesTotal
		row.LastActivity = p.LastActivity.String()
		row.Idle, row.ClockSkew = e.Idle(now)
		row.Stale = e.Request.Status == protocol.StatusInProgress && row.Idle >= staleAfter
	}
	row.Description = StatusWords(row)[0]
	return row
}

// StatusWords is a row's status in plain words, then shorter; a
// checkpoint review says so.
func StatusWords(r StatusRow) []string {
	words := baseStatusWords(r)
	if r.Checkpoint {
		for i := range words {
			words[i] = "checkpoint " + words[i]
		}
	}
	return words
}

func baseStatusWords(r StatusRow) []string {
	switch {
	case r.Error != "":
		return []string{"invalid file", "invalid"}
	case r.Stale:
		return []string{"in review, STALE", "STALE"}
	case r.Paused:
		return []string{"paused for a human", "paused"}
	case r.Stuck:
		return []string{"stuck at round " + RoundWords(r), "stuck"}
	}
	switch protocol.Status(r.Status) {
	case protocol.StatusNone, "none":
		return []string{"not requested", "none"}
	case protocol.StatusPending:
		return []string{"waiting for a reviewer", "pending"}
	case protocol.StatusInProgress:
		return []string{"in review"}
	case protocol.StatusAwaitingApproval:
		return []string{"awaiting a human's decision", "awaiting human"}
	case protocol.StatusBlocked:
		return []string{"blocked at round " + RoundWords(r), "blocked"}
	}
	return []string{r.Status}
}

// `specdev status --group NAME`: the group's assignments only, and one
// line that sums the group up. An assignment that cannot be read stays
// in (it may belong to the group; status names its error and exits 7,
// as without a group).

// inGroup keeps the group's members and the unreadable assignments; all
// of them without a group. A group nobody declared or is in is a usage
// error.
func (s *Service) inGroup(entries []checkpoint.Entry, group string) ([]checkpoint.Entry, error) {
	if group == "" {
		return entries, nil
	}
	decl, err := s.Store.Group(group)
	if err != nil {
		return nil, err
	}
	members, unreadable := checkpoint.GroupOf(entries, group, decl)
	if decl == nil && len(members) == 0 && len(unreadable) == 0 {
		return nil, s.noSuchGroup(group, entries)
	}
	return append(members, unreadable...), nil
}

// overviewItem is one review in the read-only view of specdev check.
type overviewItem struct {
	Assignment string `json:"assignment"`
	Status     string `json:"status"`
	Round      string `json:"round"`
	Files      int    `json:"files"`
	Session    string `json:"session,omitempty"`
}

// overviewParts are the parts of the read-only view: the reviews of a
// status, under a title, each with a detail.
var overviewParts = []struct {
	status protocol.Status
	title  string
	detail func(overviewItem) string
}{
	{protocol.StatusPending, "Waiting for a reviewer", func(it overviewItem) string { return "round " + it.Round }},
	{protocol.StatusInProgress, "In progress", func(it overviewItem) string {
		return fmt.Sprintf("round %s, session %s", it.Round, holderName(it.Session))
	}},
	{protocol.StatusAwaitingApproval, "Awaiting a human's decision", func(it overviewItem) string {
		return "decide with: specdev decide --assignment " + it.Assignment
	}},
}

// Overview is what a reviewer poll shows without a session: the reviews
// there are and who may act on them. It claims nothing.
func (s *Service) Overview() Result {
	entries, err := s.Store.Scan()
	if err != nil {
		return Result{State: "overview", Text: "Cannot read the assignments: " + err.Error(), Code: Failure, Next: "fix what the message names, then: specdev check"}
	}
	lists := map[protocol.Status][]overviewItem{} // --json lists them even when empty
	var problems []string
	for _, e := range entries {
		if e.Err != nil {
			problems = append(problems, e.Err.Error())
		} else if r := e.Request; r != nil {
			item := overviewItem{Assignment: e.Name, Status: string(r.Status), Round: r.RoundText()}
			if e.Progress != nil {
				item.Files, item.Session = e.Progress.FilesTotal, e.Progress.SessionID
			}
			lists[r.Status] = append(lists[r.Status], item)
		}
	}
	var b strings.Builder
	b.WriteString("Reviews (a look only: claiming needs your session id):\n")
	for _, part := range overviewParts {
		if items := lists[part.status]; len(items) > 0 {
			fmt.Fprintf(&b, "%s (%d):\n", part.title, len(items))
			for _, it := range items {
				fmt.Fprintf(&b, "  %s  (%s)\n", it.Assignment, part.detail(it))
			}
		}
	}
	pending, active, awaiting := orEmpty(lists[protocol.StatusPending]), orEmpty(lists[protocol.StatusInProgress]), orEmpty(lists[protocol.StatusAwaitingApproval])
	if len(pending)+len(active)+len(awaiting) == 0 {
		b.WriteString("  nothing is waiting for a reviewer or a human\n")
	}
	for _, p := range problems {
		fmt.Fprintf(&b, "Unreadable: %s\n", p)
	}
	res := Result{State: "overview", Text: b.String(),
		Data: overviewData{Pending: pending, InProgress: active, AwaitingApproval: awaiting, Problems: orEmpty(problems)},
		Next: "to review, claim under your session id: specdev check --session ID (or --new-session)"}
	if len(pending) == 0 {
		res.Next = "to wait for a review to claim: specdev check --session ID --timeout 10m"
	}
	if len(problems) > 0 {
		res.Code = Invalid
		res.Next = "fix or restore the file named above (specdev never overwrites a malformed file), then: specdev check"
	}
	return res
}

// overviewData is the data of a read-only look.
type overviewData struct {
	AwaitingApproval []overviewItem `json:"awaiting_approval"`
	Claimed          bool           `json:"claimed"`
	InProgress       []overviewItem `json:"in_progress"`
	Pending          []overviewItem `json:"pending"`
	Problems         []string       `json:"problems"`
}

// holderName is a review's session as shown: a progress file written by
// hand or by another tool may name none.
func holderName(session string) string { return cmp.Or(oneLine(session), "(none recorded)") }
