package protocol

import (
	"bytes"
	"encoding/json"
	"fmt"
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
func (t Timestamp) MarshalJSON() ([]byte, error) {
	if t.IsZero() {
		return []byte(`""`), nil
	}
	return []byte(strconv.Quote(t.UTC().Format(timeLayout))), nil
}

// UnmarshalJSON reads "" as the zero time and any RFC 3339 string otherwise.
func (t *Timestamp) UnmarshalJSON(b []byte) error {
	s, err := unquote(b)
	if err != nil {
		return fmt.Errorf("a timestamp must be a string: %w", err)
	}
	if s == "" {
		*t = Timestamp{}
		return nil
	}
	parsed, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return fmt.Errorf("timestamp %q is not RFC 3339 (e.g. 2026-02-11T10:30:00Z)", s)
	}
	*t = Timestamp{parsed.UTC()}
	return nil
}

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

// UnmarshalJSON accepts "15m" or 900.
func (d *Duration) UnmarshalJSON(b []byte) error {
	var n json.Number
	if err := json.Unmarshal(b, &n); err == nil {
		parsed, err := ParseDuration(string(n))
		*d = Duration(parsed)
		return err
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("a duration must be a string such as \"15m\" or a number of seconds")
	}
	parsed, err := ParseDuration(s)
	*d = Duration(parsed)
	return err
}

// ParseDuration reads Go duration syntax ("2m", "1h30m") or a plain
// number of seconds ("120", "0.5").
func ParseDuration(s string) (time.Duration, error) {
	if secs, err := strconv.ParseFloat(s, 64); err == nil {
		if secs < 0 {
			return 0, fmt.Errorf("duration %q is negative", s)
		}
		return time.Duration(secs * float64(time.Second)), nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("duration %q is neither Go syntax (\"90s\", \"15m\") nor a number of seconds", s)
	}
	if d < 0 {
		return 0, fmt.Errorf("duration %q is negative", s)
	}
	return d, nil
}

// String formats the duration in Go syntax.
func (d Duration) String() string { return time.Duration(d).String() }

// unquote reads a JSON string, without a second decoder pass for the
// common case of no escapes (timestamps never have any).
func unquote(b []byte) (string, error) {
	if len(b) >= 2 && b[0] == '"' && b[len(b)-1] == '"' && bytes.IndexByte(b, '\\') < 0 {
		return string(b[1 : len(b)-1]), nil
	}
	var s string
	err := json.Unmarshal(b, &s)
	return s, err
}
