package main

import (
	"fmt"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/specdev/specdev/checkpoint"
	"github.com/specdev/specdev/protocol"
)

// StatusCmd shows every assignment at a glance.
type StatusCmd struct {
	Group string `help:"Only the assignments of this group, and a one-line summary of it." placeholder:"NAME"`
}

// statusRow is one assignment in specdev status.
type statusRow struct {
	Assignment    string `json:"assignment"`
	Status        string `json:"status"`
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
	res := Result{State: "ok", Next: "implementer: specdev work; reviewer: specdev check"}
	for _, e := range entries {
		row := rowOf(e, app.now(), st.StaleAfter())
		if row.Error != "" {
			res.State, res.Code = "invalid", exitInvalid
			res.Next = "fix or restore the file named above (specdev never overwrites a malformed file)"
		}
		rows = append(rows, row)
	}
	if len(rows) == 0 {
		res.Next = "create an assignment: mkdir -p .specdev/assignments/00001_my_feature, then: specdev work request"
	}
	res.Data = map[string]any{"assignments": rows, "stale_after": st.StaleAfter().String()}
	res.Text = statusTable(rows)
	c.summarize(&res, entries)
	return app.emit(res)
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
	return row
}

func statusTable(rows []statusRow) string {
	if len(rows) == 0 {
		return "No assignments yet."
	}
	var b strings.Builder
	w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "ASSIGNMENT\tSTATUS\tROUND\tREVIEWER\tPROGRESS\tLAST ACTIVITY")
	for _, r := range rows {
		round, progress, activity := "-", "-", "-"
		switch {
		case r.Round > 0 && r.MaxRounds > 0:
			round = fmt.Sprintf("%d/%d", r.Round, r.MaxRounds)
		case r.Round > 0: // a hand-written request names no limit
			round = fmt.Sprint(r.Round)
		}
		if r.FilesTotal > 0 {
			progress = bar(r.FilesReviewed, r.FilesTotal)
		}
		if r.LastActivity != "" {
			activity = activityAgo(r.idle, r.ClockSkew)
			if r.Stale {
				activity += "  STALE"
			}
		}
		status := r.Status
		if r.Paused {
			status = "paused for a human"
		}
		if r.Checkpoint {
			status = "checkpoint " + status
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\n", r.Assignment, status, round, dash(oneLine(r.Reviewer)), progress, activity)
	}
	w.Flush()
	for _, r := range rows {
		if r.Error != "" {
			fmt.Fprintf(&b, "%s: %s\n", r.Assignment, oneLine(r.Error))
		}
	}
	return b.String()
}

// bar is a ten-cell progress bar with the count: [###-------] 3/10. Any
// counts draw a bar (a full one past the total), never a panic.
func bar(done, total int) string {
	const width = 10
	filled := 0
	if total > 0 {
		filled = min(max(done, 0), total) * width / total
	}
	return fmt.Sprintf("[%s%s] %d/%d", strings.Repeat("#", filled), strings.Repeat("-", width-filled), done, total)
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// HistoryCmd prints an assignment's event log.
type HistoryCmd struct{}

// Run reads review_history.jsonl, tolerating a torn last line.
func (c *HistoryCmd) Run(app *App) error {
	a, err := app.Target()
	if err != nil {
		return err
	}
	events, torn, err := a.History()
	if err != nil {
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "History of %s (%d events):\n", a.Name, len(events))
	for _, e := range events {
		fmt.Fprintf(&b, "  %s  %-16s round %d  %s%s\n", e.TS, e.Event, e.Round, dash(oneLine(e.Session)), detailText(e.Detail))
	}
	if torn {
		b.WriteString("  (the last line is torn by a crash; the next change repairs it)\n")
	}
	if events == nil {
		events = []protocol.Event{}
	}
	return app.emit(Result{State: "history", Text: b.String(), Next: "specdev status",
		Data: map[string]any{"assignment": a.Name, "events": events, "torn": torn}})
}

func detailText(detail map[string]any) string {
	if len(detail) == 0 {
		return ""
	}
	keys := make([]string, 0, len(detail))
	for k := range detail {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, oneLine(fmt.Sprintf("%s=%v", k, detail[k])))
	}
	return "  " + strings.Join(parts, " ")
}
