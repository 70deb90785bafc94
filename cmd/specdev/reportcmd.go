package main

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/specdev/specdev/protocol"
	"github.com/specdev/specdev/review"
)

// ReportCmd prints an assignment's review_report.md, or where it is.
type ReportCmd struct {
	Name string `arg:"" optional:"" name:"assignment" help:"Assignment folder name or a unique prefix (same as --assignment; default: the newest)." placeholder:"ASSIGNMENT"`
	Path bool   `help:"Print only the report's path (relative to the current folder, as git prints paths)."`
}

// Run brings the report up to date if a crash left it behind (as every
// view does), then prints it as it is (made safe for a terminal), or its
// path. Like schema, it prints just what it is asked for: no Next line.
func (c *ReportCmd) Run(app *App) error {
	app.Assignment = cmp.Or(c.Name, app.Assignment)
	s, err := app.Service()
	if err != nil {
		return err
	}
	r, err := s.Report(app.ctx)
	if err != nil {
		return err
	}
	if app.JSON {
		return app.emit(review.Result{State: "report", Data: r}, nil)
	}
	text := safeBlock(r.Content)
	if c.Path {
		text = shownPath(s.Store.Root, r.AbsolutePath) + "\n"
	}
	_, err = app.stdout.Write([]byte(text))
	return err
}

// shownPath is abs relative to the current folder when that lies in the
// project (as git prints paths), else absolute.
func shownPath(root, abs string) string {
	wd, _ := os.Getwd() // "" on an error, which Rel refuses: abs
	if inside, err := filepath.Rel(root, wd); err != nil || !filepath.IsLocal(inside) {
		return abs
	}
	rel, _ := filepath.Rel(wd, abs) // both absolute (wd lies in root): Rel cannot fail
	return rel
}

// safeBlock makes multi-line text safe for a terminal as protocol.SafeText
// makes one line safe, but keeps the lines and their spaces and tabs (a
// report holds a gate's output, aligned or indented): every run of other
// characters goes through SafeText, so no escape sequence or control
// character reaches the terminal.
func safeBlock(s string) string {
	var b strings.Builder
	for {
		i := strings.IndexAny(s, " \t\n")
		if i < 0 {
			return b.String() + protocol.SafeText(s)
		}
		b.WriteString(protocol.SafeText(s[:i]))
		b.WriteByte(s[i])
		s = s[i+1:]
	}
}

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
