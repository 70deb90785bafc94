package main

import (
	"fmt"
	"strings"

	"github.com/specdev/specdev/protocol"
	"github.com/specdev/specdev/review"
)

// StatusCmd shows every assignment at a glance, and who must act.
type StatusCmd struct {
	Group  string `help:"Only the assignments of this group, and a one-line summary of it." placeholder:"NAME"`
	Remote bool   `help:"Show the assignments as the git remote of config.json holds them."`
}

// Run shows the status table, fitted to the terminal.
func (c *StatusCmd) Run(app *App) error {
	return app.run(func(s *review.Service) (review.Result, error) {
		status := s.Status
		if c.Remote {
			status = s.RemoteStatus
		}
		res, err := status(app.ctx, c.Group)
		if err != nil || app.JSON {
			return res, err
		}
		d := res.Data.(review.StatusData)
		res.Text = statusText(d.Assignments, d.NeedsHuman, outWidth(app.stdout), colorOn(app.stdout, app.JSON)) + res.Text
		return res, nil
	})
}

// statusText is the table, the assignments that need a human with the
// command for each, and notes on rows the table cannot say enough about:
// an unreadable file, a clock that looks skewed.
func statusText(rows []review.StatusRow, needs []review.NeedItem, width int, color bool) string {
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
			fmt.Fprintf(&b, "%s: last activity %s\n", r.Assignment, review.ActivityAgo(r.Idle, true))
		}
	}
	for _, r := range rows {
		if c := r.AgentCost; c != nil {
			fmt.Fprintf(&b, "%s: agents in round %d: %s; in the loop: %s\n", r.Assignment, r.Round, c.Round, c.Loop)
		}
	}
	return b.String()
}

// oneLine makes agent or human text safe for the terminal, on one line.
func oneLine(s string) string { return protocol.SafeText(s) }
