package preflight

import (
	"crypto/rand"
	"encoding/hex"
)

// A gate runs in its own process group, and Run ends that group when the
// gate exits, times out or is stopped. If specdev itself is killed
// (SIGKILL) nothing of Run is left to do that: on Linux the kernel kills
// the gate's first process, but what it started (`sleep 300 &`) lives on
// in the group. So the caller records the group while the gate runs, and
// the next claim of that review calls Reap: it ends a group whose specdev
// is gone, so that the next gate never runs beside the last one.
//
// A pid can be reused, so Reap kills a group only when it is sure the
// group is the gate's: its first process with the start time recorded,
// or a process carrying the run's token in its environment (TokenEnv,
// which every process of the gate inherits unless it clears its
// environment). Telling that needs /proc, so Reap kills only on Linux.

// TokenEnv is the environment variable that marks the processes of one
// gate run.
const TokenEnv = "SPECDEV_GATE_RUN"

// Group is a running gate's process group, as recorded for Reap.
type Group struct {
	ID          int    `json:"pgid"`         // the group, led by the gate's first process
	Start       uint64 `json:"start"`        // that process's start time, in clock ticks after boot
	Token       string `json:"token"`        // the value of TokenEnv in the gate's processes
	Runner      int    `json:"runner"`       // the specdev process that runs the gate
	RunnerStart uint64 `json:"runner_start"` // its start time
	Boot        string `json:"boot"`         // the boot the start times count from
}

// newToken is a fresh value for TokenEnv.
func newToken() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}
