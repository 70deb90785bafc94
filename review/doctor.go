package review

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/specdev/specdev/checkpoint"
	"github.com/specdev/specdev/internal/changeset"
	"github.com/specdev/specdev/protocol"
	"github.com/specdev/specdev/skills"
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
// config.json, git, the gate's consent, the agent guides, the hooks.
// What other commands report with its fix when it happens is left to
// them: a gate that cannot start (specdev check, when it claims), a
// malformed assignment file (every command that reads it), and
// .specdev/.gitignore (specdev init writes it and adds what an older
// one lacks). The outcome is OK when nothing fails (warnings
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
	d.st = st
}

// gitTimeout bounds each git command doctor runs.
const gitTimeout = 10 * time.Second

// checkGit: git is installed and the project is in a repository.
func (d *doctor) checkGit() {
	version, err := d.runGit("version")
	if err != nil {
		d.add("git", checkWarn, "git is not installed or does not run ("+oneLine(err.Error())+")",
			"install git; without it list the files to review: specdev work request --files PATH")
		return
	}
	top, err := d.runGit("rev-parse", "--show-toplevel")
	if err != nil {
		d.add("git", checkWarn, d.st.Root+" is not in a git repository",
			"git init (specdev finds the changed files, the gate and the hooks with git); or list files: specdev work request --files PATH")
		return
	}
	d.git = true
	d.add("git", checkOK, oneLine(version)+" is installed; the project is in the git repository "+oneLine(top), "")
}

// runGit runs git in the project root, as specdev runs it everywhere
// (changeset.Git), and returns its output, trimmed.
func (d *doctor) runGit(args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(d.ctx, gitTimeout)
	defer cancel()
	out, err := changeset.Git(ctx, d.st.Root, nil, nil, nil, args...)
	return strings.TrimSpace(string(out)), err
}

// checkGate: a person allowed the pre-flight gate, configured or
// verify-gates.sh, on this machine. It is not run: a gate may take
// minutes.
func (d *doctor) checkGate() {
	argv := preflightArgv(d.st)
	if len(argv) == 0 {
		d.add("gate", checkOK, "no pre-flight gate (optional: .specdev/verify-gates.sh, or \"preflight\" in .specdev/config.json)", "")
		return
	}
	if err := (&Service{Store: d.st}).gateAllowed(argv); err != nil {
		d.fail("gate", err, "see: specdev allow") // not allowed (its hint says who allows it), or the consent is unreadable
		return
	}
	d.add("gate", checkOK, "a person allowed pre-flight gate "+gateCommand(argv)+" to run on this machine", "")
}

// checkSkills: the installed agent guides are this version's.
func (d *doctor) checkSkills() {
	dir := filepath.Join(d.st.Dir, checkpoint.SkillsDir)
	fs.WalkDir(skills.FS(), ".", func(path string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		want, _ := fs.ReadFile(skills.FS(), path)
		name := ".specdev/" + checkpoint.SkillsDir + "/" + path
		have, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(path)))
		if err != nil || !bytes.Equal(have, want) {
			d.add("skills", checkWarn, name+" is not this specdev's guide (missing, edited, or from another version)", "specdev init --update-skills")
		} else {
			d.add("skills", checkOK, name+" is current", "")
		}
		return nil
	})
}

// checkHooks: the git hooks specdev installs; not having them is fine,
// having one git would skip is not.
func (d *doctor) checkHooks() {
	if !d.git {
		return
	}
	res, err := (&Service{Store: d.st}).HookStatus(d.ctx, "") // what specdev hook status says
	if err != nil {
		d.add("hooks", checkWarn, "cannot read the git hooks: "+oneLine(err.Error()), cmp.Or(HintOf(err), "see: specdev hook status"))
		return
	}
	for _, st := range res.Data.(hookData).Hooks {
		status := checkOK
		if st.Ours && !st.Executable { // its summary says so and the fix
			status = checkFail
		}
		d.add("hooks", status, st.Hook+": "+hookSummary(d.st.Root, st), "")
	}
}
