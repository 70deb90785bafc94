package main

import (
	"fmt"
	"sync"
	"time"

	"github.com/specdev/specdev/internal/agent"
	"github.com/specdev/specdev/protocol"
	"github.com/specdev/specdev/review"
)

// maxParallel bounds --parallel.
const maxParallel = 64

// AgentsCmd lists the agents specdev can start.
type AgentsCmd struct{}

// Run lists them, with whether each is on PATH.
func (c *AgentsCmd) Run(app *App) error {
	return app.run(func(s *review.Service) (review.Result, error) { return agent.List(s), nil })
}

// LoopCmd runs an assignment's whole review loop with agents.
type LoopCmd struct {
	Implementer string `required:"" help:"The agent that implements the plan and fixes the findings (specdev agents lists them)." placeholder:"NAME"`
	Reviewer    string `required:"" help:"The agent that reviews each round." placeholder:"NAME"`
}

// Run runs the loop until a pass or until a human must decide.
func (c *LoopCmd) Run(app *App) error {
	progress, say, done := app.agentOutput()
	defer done()
	return app.run(func(s *review.Service) (review.Result, error) {
		return agent.Loop(app.ctx, s, c.Implementer, agent.Options{Agent: c.Reviewer, Progress: progress, Say: say})
	})
}

// runAgent is specdev check --agent: the agent reviews what the poll claims.
func (c *CheckPollCmd) runAgent(app *App, mode protocol.Mode) error {
	if c.Force || c.NewSession {
		return usage("leave --force and --new-session out: the agent claims under a session of its own",
			"--agent claims waiting reviews only")
	}
	if c.Parallel < 0 || c.Parallel > maxParallel {
		return usage(fmt.Sprintf("give --parallel from 1 to %d", maxParallel), fmt.Sprintf("--parallel %d: out of range", c.Parallel))
	}
	progress, say, done := app.agentOutput()
	defer done()
	return app.run(func(s *review.Service) (review.Result, error) {
		return agent.Check(app.ctx, s, agent.Options{Agent: c.Agent, Timeout: time.Duration(c.Timeout), Parallel: c.Parallel,
			Mode: mode, Progress: progress, Say: say})
	})
}

// agentOutput is where an agent runner reports: a line per step on
// stderr, and on a terminal a progress line kept up to date in place.
// done clears the progress line.
func (app *App) agentOutput() (progress, say func(string), done func()) {
	var mu sync.Mutex
	shown := false // a progress line is on the screen
	write := func(text string, isProgress bool) {
		mu.Lock()
		defer mu.Unlock()
		if shown || isProgress {
			text = "\r\x1b[K" + text
		}
		fmt.Fprint(app.stderr, text)
		shown = isProgress
	}
	say = func(line string) { write("specdev: "+line+"\n", false) }
	if isTerminal(app.stderr) {
		progress = func(line string) { write(cut(line, outWidth(app.stderr)-1), true) } // one line: it never wraps
	}
	return progress, say, func() { write("", false) }
}
