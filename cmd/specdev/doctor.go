package main

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/specdev/specdev/checkpoint"
	"github.com/specdev/specdev/protocol"
	"github.com/specdev/specdev/report"
)

// DoctorCmd checks the set-up and says, for each problem, the command
// that fixes it. It changes nothing (but config.json's validation cache).
type DoctorCmd struct{}

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
	app   *App
	st    *checkpoint.Store
	git   bool // the project is in a git repository
	lines []checkLine
}

func (d *doctor) add(area, status, what, fix string) {
	d.lines = append(d.lines, checkLine{Area: area, Status: status, What: what, Fix: fix})
}

// Run runs every check and lists them in the order a set-up is made:
// git, the gate, config.json, the agent guides, the hooks, .gitignore,
// the assignments (config.json is read first: the others need it).
// Exit 0 when nothing fails (warnings included), 7 when a file is
// malformed, 1 for any other failure.
func (c *DoctorCmd) Run(app *App) error {
	dir, err := checkpoint.Locate(".", app.Dir)
	if err != nil {
		return err
	}
	d := &doctor{app: app}
	d.checkConfig(dir)
	d.checkGit()
	d.checkGate()
	d.checkSkills()
	d.checkHooks()
	d.checkGitignore()
	d.checkAssignments()
	slices.SortStableFunc(d.lines, func(x, y checkLine) int { return areaRank(x.Area) - areaRank(y.Area) })
	return app.emit(d.result())
}

// areaRank orders the lines as a set-up is made; assignments come last.
func areaRank(area string) int {
	if i := slices.Index(doctorAreas, area); i >= 0 {
		return i
	}
	return len(doctorAreas)
}

var doctorAreas = []string{"git", "gate", "config", "skills", "hooks", "gitignore", "assignments"}

// result is the lines, the exit code and the next step.
func (d *doctor) result() Result {
	counts := map[string]int{}
	code, fixes := exitOK, 0
	for _, l := range d.lines {
		counts[l.Status]++
		switch {
		case l.Status == checkFail && l.Invalid:
			code = exitInvalid
		case l.Status == checkFail && code == exitOK:
			code = exitError
		}
		if l.Fix != "" {
			fixes++
		}
	}
	res := Result{State: "ok", Code: code, Text: doctorText(d.lines),
		Data: map[string]any{"root": d.st.Root, "checks": d.lines, "ok": counts[checkOK], "warn": counts[checkWarn], "fail": counts[checkFail]},
		Next: "nothing to fix; to start: specdev work request (implementer) or specdev check --session ID (reviewer)"}
	switch {
	case counts[checkFail] > 0:
		res.State, res.Next = "fail", "run the fixes of the fail lines above, then: specdev doctor"
	case counts[checkWarn] > 0:
		res.State, res.Next = "warn", "everything works; the warn lines above say what is worth fixing, then: specdev doctor"
	}
	return res
}

// doctorText is one line a check: "ok: area: what", "warn: … — fix: …".
func doctorText(lines []checkLine) string {
	var b strings.Builder
	for _, l := range lines {
		fmt.Fprintf(&b, "%-5s %s: %s", l.Status+":", l.Area, l.What)
		if l.Fix != "" {
			fmt.Fprintf(&b, " — fix: %s", l.Fix)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// checkConfig opens the store, which validates config.json (bounds
// included). A malformed config is a failure; the other checks go on
// with the defaults.
func (d *doctor) checkConfig(dir string) {
	name := ".specdev/config.json"
	st, err := checkpoint.Open(dir)
	if err != nil {
		d.lines = append(d.lines, checkLine{Area: "config", Status: checkFail, What: oneLine(err.Error()),
			Fix: orWord(hintOf(err), "restore "+name+" from git, or remove it to use the defaults"), Invalid: exitCode(err) == exitInvalid})
		st = &checkpoint.Store{Dir: dir, Root: filepath.Dir(dir), Config: protocol.DefaultConfig().WithDefaults()}
	} else {
		c := st.Config
		what := name + " is valid"
		if !fileExists(filepath.Join(dir, protocol.ConfigFile)) {
			what = "no " + name + ": the defaults apply"
		}
		d.add("config", checkOK, fmt.Sprintf("%s (stale_after %s, lock_timeout %s, preflight_timeout %s, %s a loop)", what,
			human(st.StaleAfter()), human(time.Duration(c.LockTimeout)), human(time.Duration(c.PreflightTimeout)), plural(c.RoundLimit(), "round")), "")
	}
	st.Now = d.app.now
	st.Holder = "specdev doctor"
	st.Render = report.Render
	d.st = st
}
