package protocol

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// The bounds of every value specdev reads or writes. The JSON Schemas in
// schemas/ carry the same numbers (TestLimitsMatchSchemas holds them
// equal), Validate applies them to Go values before anything is written,
// and the CLI checks its flags against them, so a value is refused by the
// same rule wherever it enters.
const (
	MaxIDLength       = 200     // ids, sessions, commits, gate names, takeover reasons
	MaxPathLength     = 4096    // a repo-relative path, an argv element
	MaxTextLength     = 100_000 // notes, summaries, guidance, gate output (characters)
	MaxFindingText    = 20_000  // a finding's description and suggestion (characters)
	MaxCategoryLength = 200     // a finding's category (characters)
	MaxFiles          = 100_000 // files in one review
	MaxIssues         = 10_000  // findings in one findings file or verdict
	MaxFindings       = 100_000 // findings recorded in one review
	MaxRound          = 10_000  // a round number or round limit of a request
	MaxConfigRounds   = 1000    // config.json's max_rounds
	MaxTakeovers      = 10_000  // takeovers kept in one review
	MaxArgs           = 256     // elements of the preflight argv
	MaxDetailKeys     = 64      // keys of one history event's detail
	MaxLine           = 1<<31 - 1
	MinExitCode       = -1        // killed by a signal, or never started
	MaxExitCode       = 1<<32 - 1 // Windows exit codes are 32-bit unsigned
	MaxDurationMS     = 1<<53 - 1 // the largest integer every JSON reader keeps exactly
	MaxSeq            = 1<<53 - 1 // a history event's sequence number

	// MaxDepth bounds how deeply any document nests objects and arrays.
	MaxDepth = 32
	// MaxExtraBytes bounds the kept unknown fields of a state file
	// (compact JSON, all fields together).
	MaxExtraBytes = 64 << 10
)

// NamePattern is what a gate name (and an assignment folder name) matches.
const NamePattern = `^[A-Za-z0-9][A-Za-z0-9._-]*$`

// SessionPattern is what a session id matches ("" where a file may name
// none): printable characters, no spaces, so that an id is shown and
// pasted into a command as it is (quoted where the shell needs it).
const SessionPattern = `^[\p{L}\p{M}\p{N}\p{P}\p{S}]*$`

// MaxSessionLength bounds a session id.
const MaxSessionLength = 128

// CheckSession reports why s cannot be a session id: SessionPattern, at
// most MaxSessionLength characters. "" passes: a caller that needs one
// says so itself.
func CheckSession(s string) error {
	if err := CheckText(s, MaxSessionLength); err != nil {
		return err
	}
	if !sessionPattern().MatchString(s) {
		return fmt.Errorf("%s holds a space or a control character: a session id is printable characters without spaces", QuotePrefix(s))
	}
	return nil
}

// The patterns above, compiled.
var namePattern, sessionPattern, fingerprintPattern = lazyPattern(NamePattern), lazyPattern(SessionPattern), lazyPattern(FingerprintPattern)

// lazyPattern compiles pattern when it is first used: a command that never
// checks such a value does not pay for it at start-up.
func lazyPattern(pattern string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pattern) })
}

// FingerprintPattern is what a request's fingerprint matches ("" for none).
const FingerprintPattern = `^(sha256:[0-9a-f]{64})?$`

// CheckText reports a text longer than max characters. Characters are
// counted as the schemas count them: one per code point (and one per byte
// of invalid UTF-8, which is written as U+FFFD).
func CheckText(s string, max int) error {
	if len(s) <= max { // bytes >= characters: the common case costs nothing
		return nil
	}
	if n := utf8.RuneCountInString(s); n > max {
		return fmt.Errorf("is %d characters long, more than the limit of %d", n, max)
	}
	return nil
}

// CheckLine reports a finding line outside 0 (the whole file) to MaxLine.
func CheckLine(n int) error { return checkRange(int64(n), 0, MaxLine) }

// CheckRounds reports a round count outside 1 to MaxRound.
func CheckRounds(n int) error { return checkRange(int64(n), 1, MaxRound) }

func checkRange(n, lo, hi int64) error {
	switch {
	case n < lo:
		return fmt.Errorf("is %d, less than the minimum of %d", n, lo)
	case n > hi:
		return fmt.Errorf("is %d, more than the maximum of %d", n, hi)
	}
	return nil
}

// CheckName reports why s cannot be a gate name: NamePattern, at most
// MaxIDLength characters.
func CheckName(s string) error {
	if s == "" {
		return fmt.Errorf("is empty")
	}
	if err := CheckText(s, MaxIDLength); err != nil {
		return err
	}
	if !namePattern().MatchString(s) {
		return fmt.Errorf("%s must start with a letter or digit and hold only letters, digits, '.', '_' and '-'", QuotePrefix(s))
	}
	return nil
}

// DurationBounds is the range a configurable duration may take.
type DurationBounds struct{ Min, Max time.Duration }

// The bounds of every configurable duration (docs/design.md explains them).
var (
	StaleAfterBounds       = DurationBounds{time.Second, 7 * 24 * time.Hour}
	LockTimeoutBounds      = DurationBounds{time.Millisecond, 10 * time.Minute}
	PreflightTimeoutBounds = DurationBounds{time.Second, 24 * time.Hour}
	RemotePollBounds       = DurationBounds{100 * time.Millisecond, 10 * time.Minute}
	TimeoutBounds          = DurationBounds{0, 24 * time.Hour} // --timeout
)

// Check reports a duration outside the bounds; 0 passes (unset: the
// default applies).
func (b DurationBounds) Check(d time.Duration) error {
	if d != 0 && (d < b.Min || d > b.Max) {
		return fmt.Errorf("%s is out of range: it must be between %s and %s", ShortDuration(d), ShortDuration(b.Min), ShortDuration(b.Max))
	}
	return nil
}

// ShortDuration is Go syntax without trailing zero units: 168h, 10m, 1m30s.
func ShortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
