package main

import (
	"fmt"
	"time"
)

// announceWait wraps a waiting command's look so that, the first time it
// finds nothing (the command is about to wait), a person at a terminal
// reads one line on stderr: what it waits for, until when in local time,
// and how to stop. Nothing is written when stderr is not a terminal (an
// agent's pipe), nor when the first look already has the answer.
func announceWait(app *App, what string, timeout time.Duration, look func() (bool, time.Time, error)) func() (bool, time.Time, error) {
	if !isTerminalOut(app.stderr) {
		return look
	}
	until := app.now().Add(timeout)
	said := false
	return func() (bool, time.Time, error) {
		done, next, err := look()
		if !done && err == nil && !said {
			said = true
			fmt.Fprintf(app.stderr, "Waiting for %s, up to %s (until %s). Ctrl+C to stop.\n", what, human(timeout), localClock(until, app.now()))
		}
		return done, next, err
	}
}

// localClock is t in local time: the time of day, with the date when it
// is not today.
func localClock(t, now time.Time) string {
	t, now = t.Local(), now.Local()
	if y, m, d := t.Date(); y == now.Year() && m == now.Month() && d == now.Day() {
		return t.Format("15:04:05")
	}
	return t.Format("Mon 2 Jan 15:04:05")
}

// waitingFor is what a waiting poll waits for, in words.
func (p *poller) waitingFor() string {
	if p.app.Assignment != "" {
		return fmt.Sprintf("review %s to claim (session %s)", oneLine(p.app.Assignment), oneLine(p.opt.Session))
	}
	return fmt.Sprintf("a review to claim (session %s)", oneLine(p.opt.Session))
}
