package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/specdev/specdev/checkpoint"
	"github.com/specdev/specdev/protocol"
)

// StatusCmd shows every assignment at a glance, and who must act.
type StatusCmd struct {
	Group string `help:"Only the assignments of this group, and a one-line summary of it." placeholder:"NAME"`
}

// statusRow is one assignment in specdev status.
type statusRow struct {
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
	ClockSkew     bool   `json:"clock_skew,omitempty"` // last_activity is ahead of this clock
	Error         string `json:"error,omitempty"`

	idle time.Duration // since the last activity (checkpoint.Idle)
}

// Run peeks at every assignment; an unreadable one makes the exit INVALID.
// The steps: read the entries, make the rows (a filter of rows goes
// after that), find who must act, present.
func (c *StatusCmd) Run(app *App) error {
	if err := c.checkFlags(); err != nil {
		return err
	}
	st, err := app.Store()
	if err != nil {
		return err
	}
	entries, err := st.Scan()
	if err != nil {
		return err
	}
	if entries, err = c.inGroup(entries); err != nil {
		return err
	}
	validate(app, st, entries)
	rows := make([]statusRow, 0, len(entries))
	for _, e := range entries {
		rows = append(rows, rowOf(e, app.now(), st.StaleAfter()))
	}
	needs := needsOf(rows)
	res := statusResult(rows, needs)
	res.Data = map[string]any{"assignments": rows, "needs_human": needs, "stale_after": st.StaleAfter().String()}
	if !app.JSON {
		res.Text = statusText(rows, needs, outWidth(app.stdout), colorOn(app.stdout, app.JSON))
	}
	c.summarize(&res, entries)
	return app.emit(res)
}

// statusResult is the state, exit code and next step of a status.
func statusResult(rows []statusRow, needs []needItem) Result {
	res := Result{State: "ok", Next: "implementer: specdev work; reviewer: specdev check"}
	switch {
	case len(rows) == 0:
		res.Next = "create an assignment: mkdir -p .specdev/assignments/00001_my_feature, then: specdev work request"
	case len(needs) == 1:
		res.Next = "a human runs: " + needs[0].Command
	case len(needs) > 1:
		res.Next = "a human runs the commands listed under \"Needs a human\""
	}
	for _, r := range rows {
		if r.Error != "" {
			res.State, res.Code = "invalid", exitInvalid
			res.Next = "fix or restore the file named above (specdev never overwrites a malformed file)"
		}
	}
	return res
}

// validate reads every assignment's files in full (schema, version), as
// a report must: a file a poll can peek at may still be one specdev
// refuses to act on, and status says so.
func validate(app *App, st *checkpoint.Store, entries []checkpoint.Entry) {
	for i, e := range entries {
		if e.Err != nil {
			continue
		}
		a, err := st.Assignment(e.Name)
		if err == nil {
			_, err = a.Fresh(app.ctx)
		}
		entries[i].Err = err
	}
}

func rowOf(e checkpoint.Entry, now time.Time, staleAfter time.Duration) statusRow {
	row := statusRow{Assignment: e.Name, Status: "none"}
	if r := e.Request; r != nil {
		row.Status, row.Gate, row.Round, row.MaxRounds = string(r.Status), r.Gate, r.Round, r.MaxRounds
		row.Paused = r.Status == protocol.StatusFailed && r.Mode == protocol.ModeManual && r.ContinuedAt.IsZero() && !r.Checkpoint
		row.Group, row.Checkpoint = r.Group, r.Checkpoint
	}
	if e.Err != nil {
		row.Status, row.Error = "invalid", e.Err.Error()
	}
	if p := e.Progress; p != nil {
		row.Reviewer, row.FilesReviewed, row.FilesTotal = p.SessionID, len(p.FilesReviewed), p.FilesTotal
		row.LastActivity = p.LastActivity.String()
		row.idle, row.ClockSkew = e.Idle(now)
		row.Stale = e.Request.Status == protocol.StatusInProgress && row.idle >= staleAfter
	}
	row.Description = statusWords(row)[0]
	return row
}

// statusText is the table, the assignments that need a human with the
// command for each, and notes on rows the table cannot say enough about:
// an unreadable file, a clock that looks skewed.
func statusText(rows []statusRow, needs []needItem, width int, color bool) string {
	if len(rows) == 0 {
		return "No assignments yet."
	}
	t := statusTable(rows)
	var b strings.Builder
	b.WriteString(t.render(t.fit(width), color))
	if len(needs) > 0 {
		fmt.Fprintf(&b, "\nNeeds a human (%d):\n", len(needs))
		for _, n := range needs {
			fmt.Fprintf(&b, "  %s: %s\n    %s\n", n.Assignment, n.Reason, n.Command)
		}
	}
	for _, r := range rows {
		switch {
		case r.Error != "":
			fmt.Fprintf(&b, "%s: %s\n", r.Assignment, oneLine(r.Error))
		case r.ClockSkew:
			fmt.Fprintf(&b, "%s: last activity %s\n", r.Assignment, activityAgo(r.idle, true))
		}
	}
	return b.String()
}
