package main

import (
	"cmp"
	"fmt"
	"os"

	"github.com/specdev/specdev/protocol"
	"github.com/specdev/specdev/review"
)

// HistoryCmd prints an assignment's event log, or the part of it asked for.
type HistoryCmd struct {
	Name  string   `arg:"" optional:"" name:"assignment" help:"Assignment folder name or a unique prefix (same as --assignment; default: the newest)." placeholder:"ASSIGNMENT"`
	Last  int      `short:"n" name:"last" help:"Only the last N events (of those the other flags select)." placeholder:"N"`
	Round int      `help:"Only the events of this review round." placeholder:"N"`
	Event []string `help:"Only events of this kind; repeat for more (requested, claimed, file_reviewed, failed, …)." sep:"none" placeholder:"NAME"`
}

// Run reads review_history.jsonl. The argument names the assignment;
// SPECDEV_ASSIGNMENT is only a default, which it overrides, but a
// different --assignment is refused.
func (c *HistoryCmd) Run(app *App) error {
	fromEnv := app.Assignment == os.Getenv("SPECDEV_ASSIGNMENT")
	if c.Name != "" && app.Assignment != "" && c.Name != app.Assignment && !fromEnv {
		return usage("name the assignment once", fmt.Sprintf("history %s and --assignment %s name two assignments", protocol.SafeText(c.Name), protocol.SafeText(app.Assignment)))
	}
	app.Assignment = cmp.Or(c.Name, app.Assignment)
	return app.run(func(s *review.Service) (review.Result, error) {
		return s.History(review.HistoryOptions{Last: c.Last, Round: c.Round, Event: c.Event})
	})
}
