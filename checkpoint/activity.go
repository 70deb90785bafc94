package checkpoint

import (
	"os"
	"time"
)

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
	active, skewed := ActiveAt(now, last, written)
	return max(0, now.Sub(active)), skewed
}

// ActiveAt is when a review was last active as far as this clock can
// tell (see Idle).
func ActiveAt(now, last, written time.Time) (active time.Time, skewed bool) {
	skewed = last.After(now.Add(clockTolerance)) || (!written.IsZero() && last.After(written.Add(clockTolerance)))
	if skewed && !written.IsZero() && written.Before(last) {
		return written, true
	}
	return last, skewed
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
