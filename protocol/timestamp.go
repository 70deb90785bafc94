package protocol

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"
)

// timeLayout is RFC 3339 in UTC with milliseconds, so that staleness and
// ordering work below one second.
const timeLayout = "2006-01-02T15:04:05.000Z07:00"

// Timestamp is a point in time written as an RFC 3339 string in UTC. The
// zero Timestamp is written as "" (the seed files use "" for "not yet").
type Timestamp struct{ time.Time }

// At wraps t as a Timestamp in UTC.
func At(t time.Time) Timestamp { return Timestamp{t.UTC()} }

// MarshalJSON writes "" for the zero time and RFC 3339 UTC otherwise.
func (t Timestamp) MarshalJSON() ([]byte, error) { return []byte(strconv.Quote(t.String())), nil }

// String formats the timestamp as it is stored.
func (t Timestamp) String() string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(timeLayout)
}

// Duration is a length of time written in config.json either as Go syntax
// ("15m", "90s") or as a plain number of seconds (120).
type Duration time.Duration

// MarshalJSON writes the Go syntax form.
func (d Duration) MarshalJSON() ([]byte, error) {
	return []byte(strconv.Quote(time.Duration(d).String())), nil
}

// ParseDurationIn reads Go duration syntax ("2m", "1h30m") or a plain
// number of seconds ("120", "0.5") within bounds (0 passes: unset). It
// refuses NaN, infinities and negative durations. Its errors quote at
// most a short prefix of s; the caller names the field or flag.
func ParseDurationIn(s string, b DurationBounds) (time.Duration, error) {
	d, err := time.ParseDuration(s)
	if secs, ferr := strconv.ParseFloat(s, 64); ferr == nil || errors.Is(ferr, strconv.ErrRange) {
		if math.IsNaN(secs) || math.IsInf(secs, 0) && ferr == nil {
			return 0, notDuration(s)
		}
		// seconds: at most 1e9 (past every bound) so that they convert, and
		// a negative number, however small, a negative duration
		d, err = time.Duration(min(secs, 1e9)*float64(time.Second)), nil
		if secs < 0 {
			d = -1
		}
	}
	switch {
	case err != nil && durationSyntax().MatchString(s):
		return 0, outOfRange(s, b) // well formed, so it overflowed
	case err != nil:
		return 0, notDuration(s)
	case d < 0:
		return 0, fmt.Errorf("%s is negative; give a duration like 15m", QuotePrefix(s))
	case b.Check(d) != nil:
		return 0, outOfRange(s, b)
	}
	return d, nil
}

func outOfRange(s string, b DurationBounds) error {
	return fmt.Errorf("%s is out of range: it must be between %s and %s", QuotePrefix(s), ShortDuration(b.Min), ShortDuration(b.Max))
}

func notDuration(s string) error {
	return fmt.Errorf("%s is not a duration like 15m (Go syntax such as 90s or 1h30m, or a number of seconds)", QuotePrefix(s))
}

// durationSyntax matches what is written like a Go duration: numbers (at
// most one point each), each followed by a unit. A parse failure of such
// a string means it is too long. Compiled on first use: only a refused
// duration needs it.
var durationSyntax = lazyPattern(`^(?:(?:\d+\.?\d*|\.\d*)(?:ns|us|µs|ms|s|m|h))+$`)

// String formats the duration in Go syntax.
func (d Duration) String() string { return time.Duration(d).String() }
