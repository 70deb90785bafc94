package review

import (
	"fmt"
	"time"
)

// announceWait wraps a waiting operation's look so that, the first time
// it finds nothing (the operation is about to wait), the caller's Notify
// gets one note: what it waits for, until when in local time, and how to
// stop. Nothing is said when the first look already has the answer. (The
// command line notifies only a person at a terminal, not an agent's pipe.)
func (s *Service) announceWait(what string, timeout time.Duration, look func() (bool, time.Time, error)) func() (bool, time.Time, error) {
	if s.Notify == nil {
		return look
	}
	until := s.now().Add(timeout)
	said := false
	return func() (bool, time.Time, error) {
		done, next, err := look()
		if !done && err == nil && !said {
			said = true
			s.notify(fmt.Sprintf("Waiting for %s, up to %s (until %s). Ctrl+C to stop.", what, Human(timeout), localClock(until, s.now())))
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
	if p.s.Assignment != "" {
		return fmt.Sprintf("review %s to claim (session %s)", oneLine(p.s.Assignment), oneLine(p.opt.Session))
	}
	return fmt.Sprintf("a review to claim (session %s)", oneLine(p.opt.Session))
}
