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
		res.Text = statusText(d.Assignments, d.NeedsHuman, outWidth(app.stdout), colorOn(app.stdout)) + res.Text
		return res, nil
	})
}

// statusText is the table, the assignments that need a human with the
// command for each, and notes on rows the table cannot say enough about,
// each row's together: an unreadable file, a clock that looks skewed,
// what the agents specdev started used.
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
			fmt.Fprintf(&b, "%s: %s\n", r.Assignment, protocol.SafeText(r.Error))
		case r.ClockSkew:
			fmt.Fprintf(&b, "%s: last activity %s\n", r.Assignment, review.ActivityAgo(r.Idle, true))
		}
		if c := r.AgentCost; c != nil {
			fmt.Fprintf(&b, "%s: agents in round %d: %s; in the loop: %s\n", r.Assignment, r.Round, c.Round, c.Loop)
		}
	}
	return b.String()
}

// GroupCmd groups the commands that declare a group of parallel loops.
type GroupCmd struct {
	Create GroupCreateCmd `cmd:"" help:"Declare a group's loops: it is judged over exactly them, a loop not started yet included."`
	Drop   GroupDropCmd   `cmd:"" help:"(Human) remove an abandoned loop from its group; its history records it."`
	Show   GroupShowCmd   `cmd:"" default:"withargs" hidden:"" help:"The group's loops at a glance (as specdev status --group NAME)."`
}

// GroupShowCmd shows a group as specdev status --group does.
type GroupShowCmd struct {
	Name string `arg:"" help:"The group." placeholder:"NAME"`
}

// Run shows the group.
func (c *GroupShowCmd) Run(app *App) error { return (&StatusCmd{Group: c.Name}).Run(app) }

// GroupCreateCmd declares a group.
type GroupCreateCmd struct {
	Name  string   `arg:"" help:"The group's name, as --group names it." placeholder:"NAME"`
	Loops []string `required:"" help:"Its loops: assignment names or unique prefixes, comma-separated (again with more loops: adds them)." placeholder:"NAME,NAME…"`
}

// Run writes the group's declaration.
func (c *GroupCreateCmd) Run(app *App) error {
	return app.run(func(s *review.Service) (review.Result, error) { return s.GroupCreate(app.ctx, c.Name, c.Loops) })
}

// GroupDropCmd removes one loop from a group.
type GroupDropCmd struct {
	Name string `arg:"" help:"The group." placeholder:"NAME"`
	Loop string `arg:"" help:"The loop to drop: an assignment name or a unique prefix." placeholder:"LOOP"`
}

// Run drops the loop.
func (c *GroupDropCmd) Run(app *App) error {
	return app.run(func(s *review.Service) (review.Result, error) { return s.GroupDrop(app.ctx, c.Name, c.Loop) })
}
