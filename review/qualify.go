package review

import (
	"regexp"
	"strings"
	"sync"
)

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
