package checkpoint

import (
	"context"
	"errors"
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
// *DisplacedError or *LeaseError); otherwise nil once step returns.
func (a *Assignment) KeepAlive(ctx context.Context, h Holder, step func(context.Context)) error {
	stepCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	done := make(chan struct{})
	go func() {
		defer close(done)
		step(stepCtx)
	}()
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
			err = a.Heartbeat(ctx, h)
			lastBeat = a.store.Now()
		} else {
			err = a.stillHolds(h)
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
	return a.holding(ctx, h, func(tx *Tx, _ *protocol.Request, p *protocol.Progress) error {
		p.LastActivity = protocol.At(tx.Now)
		return nil
	})
}

// stillHolds looks, without the lock, whether h still holds the review.
func (a *Assignment) stillHolds(h Holder) error {
	data, err := a.readFile(protocol.ProgressFile)
	if err != nil || data == nil {
		return err
	}
	p, err := protocol.DecodeProgress(a.rel(protocol.ProgressFile), data)
	if err != nil {
		return err
	}
	if p.SessionID != h.Session {
		return a.notHolder(h.Session, p)
	}
	if p.Lease != h.Lease {
		return &LeaseError{Assignment: a.Name, Session: h.Session, Given: h.Lease}
	}
	return nil
}
