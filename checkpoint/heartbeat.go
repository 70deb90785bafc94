package checkpoint

import (
	"context"
	"errors"
	"os"
	"time"

	"github.com/specdev/specdev/protocol"
)

// maxBeatEvery caps the time between two heartbeats.
const maxBeatEvery = time.Minute

// BeatEvery is how often a long step renews its lease: a quarter of
// stale_after (at most a minute), so that a reviewer busy with the gate
// never looks stale.
func (s *Store) BeatEvery() time.Duration {
	return min(s.StaleAfter()/4, maxBeatEvery)
}

// KeepAlive runs step (a long step such as the preflight gate) while it
// renews h's lease: last_activity every BeatEvery, and between beats a
// cheap look (no lock) that h still holds the review. If the review was
// taken over, step's context is cancelled and KeepAlive returns why (a
// conflict: taken over, or over the lease); otherwise nil once step
// returns.
func (a *Assignment) KeepAlive(ctx context.Context, h Holder, step func(context.Context)) error {
	stepCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	done := make(chan struct{})
	go func() {
		defer close(done)
		step(stepCtx)
	}()
	// The beats go through a handle of their own: what a scan read of the
	// assignment (a.read) is for the step's next transaction, and the step
	// runs beside the beats.
	beat := &Assignment{Name: a.Name, Dir: a.Dir, store: a.store, noWait: a.noWait}
	every := a.store.BeatEvery()
	look := time.NewTicker(min(every, time.Second))
	defer look.Stop()
	lastBeat := a.store.Now()
	for {
		select {
		case <-done:
			return lostReview(context.Cause(stepCtx))
		case <-look.C:
		}
		var err error
		if a.store.Now().Sub(lastBeat) >= every {
			err = beat.Heartbeat(ctx, h)
			lastBeat = a.store.Now()
		} else {
			err = beat.stillHolds(h)
		}
		if lost := lostReview(err); lost != nil {
			cancel(lost) // the review is gone: stop the step now
			<-done
			return lost
		}
		if err != nil {
			a.store.logf("heartbeat of %s: %v", a.Name, err) // busy or interrupted: try again at the next tick
		}
	}
}

// lostReview is err if it says the review is gone (taken over, or its
// state unreadable): the error that cancels a step in KeepAlive.
func lostReview(cause error) error {
	if errors.Is(cause, protocol.ErrConflict) || errors.Is(cause, protocol.ErrInvalid) {
		return cause
	}
	return nil
}

// Heartbeat renews h's lease: last_activity is now. It logs no event.
func (a *Assignment) Heartbeat(ctx context.Context, h Holder) error {
	_, err := a.holding(ctx, h, func(tx *Tx, _ *protocol.Request, p *protocol.Progress) error {
		p.LastActivity = protocol.At(tx.Now)
		return nil
	})
	return err
}

// stillHolds looks, without the lock, whether h still holds the review.
func (a *Assignment) stillHolds(h Holder) error {
	p, _, err := readState(a, protocol.ProgressFile, protocol.DecodeProgress, nil, nil)
	if err != nil || p == nil {
		return err
	}
	return a.checkHolder(h, p)
}

// clockTolerance is how far a last_activity may lie ahead of this clock,
// or of the write of its own file, before it counts as skewed: timestamps
// are rounded to the millisecond, and some file systems keep modification
// times in whole seconds.
const clockTolerance = 2 * time.Second

// Idle is how long a review has been idle at now: the one rule for
// staleness and for every "last activity … ago". last is the progress
// file's last_activity, written the time that file was last written
// (zero if unknown).
//
// A last_activity ahead of now, or ahead of the write of its own file,
// comes from a clock running ahead or a hand edit: skewed is true, and the
// review counts as active when its file was written instead. So such a
// review goes stale stale_after after its last write, as any other, rather
// than holding its lease until the clock reaches the future time. Idle is
// never negative.
func Idle(now, last, written time.Time) (idle time.Duration, skewed bool) {
	skewed = last.After(now.Add(clockTolerance)) || (!written.IsZero() && last.After(written.Add(clockTolerance)))
	if skewed && !written.IsZero() && written.Before(last) {
		last = written
	}
	return max(0, now.Sub(last)), skewed
}

// written is when the assignment's file name was last written (zero if
// unknown): the evidence Idle uses against a last_activity in the future.
func (a *Assignment) written(name string) time.Time {
	info, err := os.Lstat(a.path(name))
	if err != nil {
		return time.Time{}
	}
	return info.ModTime()
}
