package review

import (
	"cmp"
	"context"
	"slices"
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
// progress is not read: the commands that read it name it when it is
// malformed.) The Result's
// Text is left to the caller, which knows how wide a table it may print;
// the group's summary line is in it.
func (s *Service) Status(ctx context.Context, group string) (Result, error) {
	entries, err := s.Store.Scan()
	if err != nil {
		return Result{}, err
	}
	return s.statusOf(entries, group)
}

// statusOf is the status of entries (of group, if named). With a group
// (status --group NAME): the group's assignments only, and one line that
// sums the group up (groupOf refuses a --group that is no name). An
// assignment that cannot be read stays in (it may belong to the group;
// status names its error and exits 7, as without a group).
func (s *Service) statusOf(entries []checkpoint.Entry, group string) (Result, error) {
	if group != "" {
		_, members, unreadable, err := s.groupOf(entries, group)
		if err != nil {
			return Result{}, err
		}
		entries = append(members, unreadable...)
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
	row.Description = StatusWords(row)
	return row
}

// StatusWords is a row's status in plain words; a checkpoint review says so.
func StatusWords(r StatusRow) string {
	state := r.Status
	if r.Paused {
		state = "paused"
	}
	words := stateText(state)
	switch {
	case r.Error != "":
		words = "invalid file"
	case r.Stale:
		words = "in review, STALE"
	case r.Stuck:
		words = "stuck at round " + RoundWords(r)
	case r.Status == string(protocol.StatusBlocked):
		words = "blocked at round " + RoundWords(r)
	}
	if r.Checkpoint {
		words = "checkpoint " + words
	}
	return words
}

// holderName is a review's session as shown: a progress file written by
// hand or by another tool may name none.
func holderName(session string) string { return cmp.Or(oneLine(session), "(none recorded)") }
