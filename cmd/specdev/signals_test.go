package main

import (
	"syscall"
	"testing"
	"time"
)

func TestSignalContextListensOnceAsked(t *testing.T) {
	t.Run("never asked", func(t *testing.T) {
		var s signalContext
		if s.interrupted() {
			t.Fatal("a context nobody asked reports an interrupt")
		}
		s.release()
		if s.ctx != nil {
			t.Fatal("release installed the handlers")
		}
	})
	t.Run("asked, then signalled", func(t *testing.T) {
		var s signalContext
		defer s.release()
		done := s.Done()
		if s.interrupted() {
			t.Fatal("interrupted before any signal")
		}
		if err := syscall.Kill(syscall.Getpid(), syscall.SIGHUP); err != nil {
			t.Fatal(err)
		}
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatal("SIGHUP did not cancel the context")
		}
		if !s.interrupted() {
			t.Fatal("a cancelled context does not report the interrupt")
		}
	})
	t.Run("released", func(t *testing.T) {
		var s signalContext
		done := s.Done()
		s.release()
		select {
		case <-done:
		default:
			t.Fatal("release left the context running")
		}
	})
}
