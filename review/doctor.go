package review

import (
	"cmp"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/specdev/specdev/checkpoint"
	"github.com/specdev/specdev/protocol"
	"github.com/specdev/specdev/report"
)

// finding statuses of a doctor check: all is well; works, but worth
// fixing; does not work.
const (
	checkOK   = "ok"
	checkWarn = "warn"
	checkFail = "fail"
)

// checkLine is one thing doctor checked.
type checkLine struct {
	Area    string `json:"area"`
	Status  string `json:"status"`
	What    string `json:"what"`
	Fix     string `json:"fix,omitempty"`
	Invalid bool   `json:"invalid,omitempty"` // a malformed file: the exit is INVALID
}

// doctor gathers the checks.
type doctor struct {
	ctx   context.Context
	st    *checkpoint.Store
	git   bool // the project is in a git repository
	lines []checkLine
}

func (d *doctor) add(area, status, what, fix string) {
	d.lines = append(d.lines, checkLine{Area: area, Status: status, What: what, Fix: fix})
}

// fail adds a failed check for err, its hint or else fix as the fix; a
// malformed file makes the exit INVALID.
func (d *doctor) fail(area string, err error, fix string) {
	d.lines = append(d.lines, checkLine{Area: area, Status: checkFail, What: oneLine(err.Error()), Fix: cmp.Or(HintOf(err), fix), Invalid: CodeOf(err) == Invalid})
}

// Doctor checks the set-up and says, for each problem, the command that
// fixes it; it changes nothing. It runs every check and lists them in
// the order a set-up is made, config.json first (the others need it):
// config.json, git, the gate, the agent guides, the hooks, .gitignore,
// the assignments. The outcome is OK when nothing fails (warnings
// included), INVALID when a file is malformed, a failure otherwise. It
// opens the store itself, since a malformed config.json is one of the
// things it reports.
func Doctor(ctx context.Context, opt Options) (Result, error) {
	dir, err := checkpoint.Locate(".", opt.Dir)
	if err != nil {
		return Result{}, err
	}
	d := &doctor{ctx: ctx}
	d.checkConfig(dir)
	d.checkGit()
	d.checkGate()
	d.checkSkills()
	d.checkHooks()
	d.checkGitignore()
	d.checkAssignments()
	return d.result(), nil
}

// result is the lines, the exit code and the next step.
func (d *doctor) result() Result {
	counts := map[string]int{}
	code := OK
	var text strings.Builder // one line a check: "ok: area: what", "warn: … — fix: …"
	for _, l := range d.lines {
		counts[l.Status]++
		switch {
		case l.Status == checkFail && l.Invalid:
			code = Invalid
		case l.Status == checkFail && code == OK:
			code = Failure
		}
		fmt.Fprintf(&text, "%-5s %s: %s%s\n", l.Status+":", l.Area, l.What, map[bool]string{true: " — fix: " + l.Fix}[l.Fix != ""])
	}
	res := Result{State: "ok", Code: code, Text: text.String(),
		Data: doctorData{Checks: d.lines, Fail: counts[checkFail], OK: counts[checkOK], Root: d.st.Root, Warn: counts[checkWarn]},
		Next: "nothing to fix; to start: specdev work request (implementer) or specdev check --session ID (reviewer)"}
	switch {
	case counts[checkFail] > 0:
		res.State, res.Next = "fail", "run the fixes of the fail lines above, then: specdev doctor"
	case counts[checkWarn] > 0:
		res.State, res.Next = "warn", "everything works; the warn lines above say what is worth fixing, then: specdev doctor"
	}
	return res
}

// doctorData is the data of specdev doctor.
type doctorData struct {
	Checks []checkLine `json:"checks"`
	Fail   int         `json:"fail"`
	OK     int         `json:"ok"`
	Root   string      `json:"root"`
	Warn   int         `json:"warn"`
}

// checkConfig opens the store, which validates config.json (bounds
// included). A malformed config is a failure; the other checks go on
// with the defaults.
func (d *doctor) checkConfig(dir string) {
	name := ".specdev/config.json"
	st, err := checkpoint.Open(dir)
	if err != nil {
		d.fail("config", err, "restore "+name+" from git, or remove it to use the defaults")
		st = &checkpoint.Store{Dir: dir, Root: filepath.Dir(dir), Config: protocol.DefaultConfig().WithDefaults()}
	} else {
		c := st.Config
		what := name + " is valid"
		if !fileExists(filepath.Join(dir, protocol.ConfigFile)) {
			what = "no " + name + ": the defaults apply"
		}
		d.add("config", checkOK, fmt.Sprintf("%s (stale_after %s, lock_timeout %s, preflight_timeout %s, %s a loop)", what,
			Human(st.StaleAfter()), Human(time.Duration(c.LockTimeout)), Human(time.Duration(c.PreflightTimeout)), protocol.Plural(c.RoundLimit(), "round")), "")
	}
	st.Holder = "specdev doctor"
	st.Render = report.Render
	d.st = st
}
