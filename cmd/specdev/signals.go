package main

import (
	"context"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"
)

// signalContext is a command's context: cancelled by SIGINT, SIGTERM or
// SIGHUP, so that a command stopped by one leaves its state consistent
// and exits 130.
//
// The handlers are installed the first time anything asks the context
// anything, which every long step does (a wait, a lock, a git run, a
// write of state all pass it on), and not before: installing them starts
// a thread and a goroutine, a good part of a short command's start-up.
// Until then a signal ends the process the default way, which is safe
// because nothing has been changed yet: the command has only parsed its
// arguments and read files. (A shell reports that death as 130 too.)
type signalContext struct {
	mu   sync.Mutex
	ctx  context.Context // nil until asked
	stop context.CancelFunc
}

var signals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

func (s *signalContext) get() context.Context {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ctx == nil {
		s.ctx, s.stop = signal.NotifyContext(context.Background(), signals...)
	}
	return s.ctx
}

func (s *signalContext) Deadline() (time.Time, bool) { return s.get().Deadline() }
func (s *signalContext) Done() <-chan struct{}       { return s.get().Done() }
func (s *signalContext) Err() error                  { return s.get().Err() }
func (s *signalContext) Value(key any) any           { return s.get().Value(key) }

// interrupted reports whether a signal cancelled the context; a context
// never asked was never listening, so it was not.
func (s *signalContext) interrupted() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ctx != nil && s.ctx.Err() != nil
}

// release stops listening, if the context ever did.
func (s *signalContext) release() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stop != nil {
		s.stop()
	}
}
