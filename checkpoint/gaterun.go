package checkpoint

import (
	"bytes"
	"os"
)

// GateRunFile records, in an assignment folder, the process group of the
// pre-flight gate running for its review on this machine, so that the
// next claim can end a gate whose specdev was killed (see
// internal/preflight). It is machine-local (in .gitignore), and its
// content is the caller's.
const GateRunFile = ".specdev.gate"

// maxGateRun bounds the record read back.
const maxGateRun = 4 << 10

// SetGateRun writes the record: by rename, never through a symlink, and
// not fsynced. It matters only while this machine runs (a power loss ends
// the gate too), and it must be on disk at once: a kill right after the
// gate started must find it.
func (a *Assignment) SetGateRun(data []byte) error {
	return replaceFile(a.Dir, fileWrite{GateRunFile, data})
}

// GateRun reads the record; nil when there is none.
func (a *Assignment) GateRun() ([]byte, error) {
	return readStateFile(a.path(GateRunFile), a.rel(GateRunFile), maxGateRun)
}

// ClearGateRun removes the record if it still holds data (another run
// may have replaced it since).
func (a *Assignment) ClearGateRun(data []byte) {
	if now, err := a.GateRun(); err == nil && now != nil && bytes.Equal(now, data) {
		os.Remove(a.path(GateRunFile))
	}
}
