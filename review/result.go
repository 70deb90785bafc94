package review

import (
	"cmp"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/specdev/specdev/checkpoint"
	"github.com/specdev/specdev/protocol"
)

// Result is what an operation reports: a state name, typed data (what
// --json and the MCP tools carry), text for people and agents, the one
// next step, and the outcome's Code.
type Result struct {
	State string
	Data  any
	Text  string
	Next  string
	Code  Code
}

// Code is an outcome of the protocol, the same on every face: the
// command line exits with it, --json and MCP name it. The numbers are
// stable and documented.
type Code int

// The outcomes.
const (
	OK               Code = 0
	Failure          Code = 1 // an unexpected failure
	Usage            Code = 2
	Waiting          Code = 3 // nothing to do yet, or still waiting
	ChangesRequested Code = 4
	Busy             Code = 5
	Blocked          Code = 6 // a loop limit, or paused for a human
	Invalid          Code = 7
	Conflict         Code = 8
	Interrupted      Code = 130 // stopped by a signal, as shells report it
)

var codeNames = map[Code]string{
	OK: "OK", Failure: "ERROR", Usage: "USAGE", Waiting: "WAITING", ChangesRequested: "CHANGES_REQUESTED",
	Busy: "BUSY", Blocked: "BLOCKED", Invalid: "INVALID", Conflict: "CONFLICT", Interrupted: "INTERRUPTED",
}

// String is the code's name: OK, WAITING, CHANGES_REQUESTED…
func (c Code) String() string { return cmp.Or(codeNames[c], "ERROR") }

// CodeOf is the one place that decides which outcome an error is.
func CodeOf(err error) Code {
	var stopped *StoppedError
	switch {
	case err == nil:
		return OK
	case errors.As(err, &stopped):
		return Interrupted
	case errors.Is(err, protocol.ErrUsage), errors.Is(err, checkpoint.ErrNotFound):
		return Usage
	case errors.Is(err, protocol.ErrInvalid):
		return Invalid
	case errors.Is(err, checkpoint.ErrBusy):
		return Busy
	case errors.Is(err, checkpoint.ErrBlocked):
		return Blocked
	case errors.Is(err, protocol.ErrConflict):
		return Conflict
	}
	return Failure
}

// HintOf returns the fix an error suggests, if any.
func HintOf(err error) string {
	var h interface{ HintText() string }
	if errors.As(err, &h) {
		return h.HintText()
	}
	return ""
}

// StoppedError is an operation stopped by its context (a signal), and
// what it left behind in a few words ("the review was given back").
type StoppedError struct{ What string }

// It wraps no error and carries no hint: what the stopped operation left
// behind is in its message.
func (e *StoppedError) Error() string { return "interrupted: " + e.What }

func usage(hint, msg string) error { return &protocol.UsageError{Msg: msg, Hint: hint} }

// Envelope is the one JSON shape of an operation's outcome: what --json
// prints, and an MCP tool's structured content (which names the code of
// a success too: CHANGES_REQUESTED or WAITING is an answer, not an error).
type Envelope struct {
	OK    bool       `json:"ok"`
	Code  string     `json:"code,omitempty"`
	State string     `json:"state,omitempty"`
	Data  any        `json:"data,omitempty"`
	Next  string     `json:"next,omitempty"`
	Error *ErrorBody `json:"error,omitempty"`
}

// ErrorBody is an Envelope's error: the code's name, the message, and
// the hint that says what to do.
type ErrorBody struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Hint    string `json:"hint,omitempty"`
}

// The checks of flag values against the rules of the files they end up
// in: the same limits and rule functions protocol's Validate applies when
// a transaction commits, so that bad input is refused as a usage error
// naming the flag, before anything is read or written.

// CheckFlagText refuses flag text that is not UTF-8 or longer than max
// characters (a protocol limit such as protocol.MaxTextLength).
func CheckFlagText(flag, value string, max int) error {
	if !utf8.ValidString(value) {
		return usage("pass text in UTF-8", flag+": is not valid UTF-8")
	}
	if err := protocol.CheckText(value, max); err != nil {
		return usage(fmt.Sprintf("shorten it to at most %d characters (or put the detail in a file the reviewer can read)", max),
			flag+": "+err.Error())
	}
	return nil
}

func (c RequestOptions) check() error {
	if err := CheckFlagText("--notes", c.Notes, protocol.MaxTextLength); err != nil {
		return err
	}
	switch {
	case c.Gate != "" && protocol.CheckName(c.Gate) != nil:
		return usage("use letters, digits, '.', '_' and '-'", "--gate: "+protocol.CheckName(c.Gate).Error())
	case c.Effort != "" && !slices.Contains(protocol.EffortLevels, c.Effort):
		return usage("use --effort low, medium, high or max", "--effort: "+protocol.QuotePrefix(c.Effort)+" is not an effort level")
	case c.Expect != 0 && c.Group == "":
		return usage("name the group: specdev work request --group NAME --expect N", "--expect says how many loops a group waits for: it needs --group")
	case c.Expect < 0 || c.Expect > protocol.MaxGroupLoops:
		return usage("use --expect 1 or more", fmt.Sprintf("--expect %d: a group has 1 to %d loops", c.Expect, protocol.MaxGroupLoops))
	case c.Group != "":
		return checkGroupFlag(c.Group)
	}
	return nil
}

func checkRounds(rounds int) error {
	if protocol.CheckRounds(rounds) != nil {
		return usage("use --rounds 1 or more", fmt.Sprintf("--rounds %d: must be 1 to %d", rounds, protocol.MaxRound))
	}
	return nil
}

// A command printed as a next step or a hint acts, without --assignment,
// on the assignment with the highest name. When the caller named another
// one, following the line as printed would act on the wrong assignment,
// so Qualify names it in every command that takes one.

// assignmentCommand is a command that acts on one assignment (a group
// command is left as it is). Compiled when first needed: compiling it
// at start-up was a twentieth of an idle check's time.
var assignmentCommand = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`specdev (work(?: request| cancel| continue| unblock)?|check approve\|reject|check approve|check reject|decide)( --group)?`)
})

// Qualify names the assignment the caller named in the commands of res's
// next step and of err's hint, when it is not the default one.
func (s *Service) Qualify(res Result, err error) (Result, error) {
	name := s.namedOther()
	if name == "" {
		return res, err
	}
	res.Next = qualify(res.Next, name)
	if hint := HintOf(err); hint != "" {
		if q := qualify(hint, name); q != hint {
			err = &rehinted{err: err, hint: q}
		}
	}
	return res, err
}

// namedOther is the name of the assignment the caller named, or "" when it
// named none, or the one a command without --assignment would act on.
func (s *Service) namedOther() string {
	if s.Assignment == "" {
		return ""
	}
	a, err := s.Store.Resolve(s.Assignment)
	if err != nil {
		return ""
	}
	if latest, err := s.Store.Latest(); err == nil && latest.Name == a.Name {
		return ""
	}
	return a.Name
}

// qualify adds --assignment name to the commands of each line of text
// that names no assignment yet (a line that does was written for one).
func qualify(text, name string) string {
	lines := strings.Split(text, "\n")
	for i, line := range lines {
		if strings.Contains(line, "--assignment") {
			continue
		}
		lines[i] = assignmentCommand().ReplaceAllStringFunc(line, func(cmd string) string {
			if strings.HasSuffix(cmd, " --group") {
				return cmd
			}
			return cmd + " --assignment " + name
		})
	}
	return strings.Join(lines, "\n")
}

// rehinted is err with another hint: the same message and outcome code.
type rehinted struct {
	err  error
	hint string
}

func (e *rehinted) Error() string    { return e.err.Error() }
func (e *rehinted) Unwrap() error    { return e.err }
func (e *rehinted) HintText() string { return e.hint }
