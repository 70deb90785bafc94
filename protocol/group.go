package protocol

import "cmp"

// Groups of parallel loops and checkpoint reviews. A request may name a group: the assignments whose current
// request names the same group are one group of parallel loops, synced by
// `specdev gate --group` and waited for by `specdev work --group`. A
// request may be a checkpoint review: a review of work in progress that
// the gate's loop does not count as a round and whose pass is no pass of
// the gate. How often `specdev work` suggests one is config.json's
// checkpoint_every.

// MaxCheckpointEvery bounds config.json's checkpoint_every.
const MaxCheckpointEvery = 1000

// effortCheckpoints is the checkpoint_every of each effort level: the
// seed's intervals for high (every 3) and max (every 1); low and medium
// add no checkpoint reviews: only the higher levels review work in progress.
var effortCheckpoints = map[string]int{"low": 0, "medium": 0, "high": 3, "max": 1}

// CheckpointInterval is after how many commits since the assignment's last
// review `specdev work` suggests a checkpoint review: checkpoint_every if
// set, else the effort level's; 0 is never.
func (c Config) CheckpointInterval() int {
	if c.CheckpointEvery != nil {
		return *c.CheckpointEvery
	}
	return effortCheckpoints[cmp.Or(c.Effort, DefaultEffort)] // the effort is one of them: Validate holds it to the list
}
