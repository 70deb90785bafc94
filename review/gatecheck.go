package review

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/specdev/specdev/checkpoint"
	"github.com/specdev/specdev/protocol"
)

// gateCheck is one loop (assignment) as the gate sees it, and the files
// the gate judges by its rules.
type gateCheck struct {
	s    *Service
	name string
	snap checkpoint.Snapshot
	gate string
	rec  protocol.PassRecord // the gate's last passing review, when passed
	gateScope
	passed   bool
	several  bool  // one loop of several: commands name it
	unsigned error // gate --allowed-signers: why the pass's commit is not trusted
}

// with is g judging the files of sc.
func (g *gateCheck) with(sc gateScope, several bool) *gateCheck {
	c := *g
	c.gateScope, c.several = sc, several
	return &c
}

// result judges the loop's files: a review of the gate still open,
// failed or blocked; no passing review; or the passing review's digests
// against today's. (judge answers when there are no files to judge; a
// group's member with none has no passing review of them.)
func (g *gateCheck) result() Result {
	d := gateData{Assignment: g.name, Gate: g.gate, Staged: g.kind == staged, Pushed: g.ref, Files: orEmpty(g.files), Changed: []string{}, NotReviewed: []string{}}
	rec := g.rec
	var changed, unreviewed []string
	if g.passed {
		changed, unreviewed = rec.Compare(g.digests)
		d.Review = &gateReview{RequestID: rec.RequestID, Status: protocol.StatusPassed, Round: rec.Round, HeadCommit: rec.HeadCommit}
		if len(changed)+len(unreviewed) == 0 { // what passed counts, whatever the loop does since
			return Result{State: "passed", Data: d, Code: OK, Text: g.passedText(), Next: g.goAhead()}
		}
	}
	if r := g.snap.Request; r != nil && r.Gate == g.gate {
		if res, ok := g.unfinished(&d); ok {
			res.Data = d
			return res
		}
	}
	var b strings.Builder
	// the step that opens the gate again: a review of what it covers now,
	// once any other active review is done
	res := Result{State: "changed", Code: Conflict, Next: "ask for a review: " + g.requestCommand()}
	if r := g.snap.Request; r != nil && r.Status.Active() {
		res.Next = fmt.Sprintf("%s (the review of gate %s), then %s", loopStep("pending", "", g.named(), ""), r.Gate, res.Next)
	}
	switch {
	case g.unsigned != nil:
		d.NotReviewed, res.State, res.Code = d.Files, "unsigned", Invalid
		fmt.Fprintf(&b, "Gate %s closed: the pass of %s is not trusted: %v.\n", g.gate, g.name, g.unsigned)
	case !g.passed:
		d.NotReviewed, res.State, res.Code = d.Files, "no_review", Waiting
		fmt.Fprintf(&b, "Gate %s closed: no passing review yet for %s.\n", g.gate, g.name)
	default:
		d.Changed, d.NotReviewed = orEmpty(changed), orEmpty(unreviewed)
		fmt.Fprintf(&b, "Gate %s closed: %s is not what the review of %s passed (round %d%s).\n", g.gate, g.what(), g.name, rec.Round, atHead(rec.HeadCommit))
		writeFileList(&b, "Changed since the review", d.Changed)
	}
	writeFileList(&b, "Not reviewed", d.NotReviewed)
	res.Text, res.Data = b.String(), d
	return res
}

// passedText says that the files are what the loop's passing review saw.
func (g *gateCheck) passedText() string {
	return fmt.Sprintf("Gate %s open: the %s what the review of %s passed (round %d%s).",
		g.gate, g.countOf(len(g.files)), g.name, g.rec.Round, atHead(g.rec.HeadCommit))
}

// unfinished judges a request of the gate that has no passing verdict:
// waiting for or under review, awaiting a human, failed, paused, blocked.
// The gate ignores a checkpoint review: while the gate's loop is open its
// last real round failed (exit 4); otherwise (ok false) the gate's last
// pass decides, as if the checkpoint review were not there.
func (g *gateCheck) unfinished(d *gateData) (Result, bool) {
	r := g.snap.Request
	status, detail := r.Status, "round "+r.RoundText()
	if r.Checkpoint && r.Status != protocol.StatusBlocked {
		loop, open := r.Loops[g.gate]
		if !open {
			return Result{}, false
		}
		status, detail = protocol.StatusFailed, fmt.Sprintf("round %d of %d; the checkpoint reviews since do not count", loop.RoundsFailed, loop.MaxRounds)
		d.Review = &gateReview{Status: protocol.StatusFailed, Round: loop.RoundsFailed}
	} else {
		d.Review = &gateReview{RequestID: r.RequestID, Status: r.Status, Round: r.Round, HeadCommit: r.HeadCommit, FilesTotal: len(r.ChangedFiles)}
	}
	res := Result{State: string(status), Code: Waiting}
	switch status {
	case protocol.StatusPending:
		detail += ", " + protocol.Plural(len(r.ChangedFiles), "file")
	case protocol.StatusInProgress:
		if g.snap.Current() {
			d.Review.FilesReviewed = len(g.snap.Progress.FilesReviewed)
		}
		detail += fmt.Sprintf(", %d/%d files reviewed", d.Review.FilesReviewed, len(r.ChangedFiles))
	case protocol.StatusAwaitingApproval:
	case protocol.StatusFailed:
		res.Code = ChangesRequested
		if checkpoint.Paused(r) {
			res.State, res.Code = "paused", Blocked
		}
	case protocol.StatusBlocked:
		res.Code, detail = Blocked, "a limit of "+protocol.Plural(r.MaxRounds, "round")
	default:
		return Result{}, false
	}
	res.Text = fmt.Sprintf("Gate %s closed: %s: %s (%s).", g.gate, g.name, stateText(res.State), detail)
	if r.Status == protocol.StatusFailed && !r.Checkpoint && r.ReviewerNotes != "" {
		res.Text += "\nSummary: " + oneLine(r.ReviewerNotes)
	}
	res.Next = loopStep(res.State, "", g.named(), g.requestCommand())
	return res, true
}

// passRecord is r's record of gate's last pass, as r holds it: its pass
// record, or for a request that passed before pass records existed, one
// made from it. Such a request of the first release holds no digests, so
// none of its files counts as reviewed: the gate stays closed until a
// review passes again (it never opens on a guess).
func passRecord(r *protocol.Request, gate string) (rec protocol.PassRecord, ok bool) {
	if r == nil {
		return rec, false
	}
	rec, ok = r.Passed[gate]
	if !ok && r.Gate == gate && r.Status == protocol.StatusPassed && !r.Checkpoint {
		rec, ok = r.PassRecord(r.CompletedAt, nil), true
	}
	return rec, ok
}

// The wording of specdev gate: the command that opens the gate again,
// and how the files it covers are named.

// requestCommand is the `work request` that reviews what the gate covers.
func (g *gateCheck) requestCommand() string {
	cmd := "specdev work request"
	if g.kind == staged {
		cmd += " --staged"
	}
	if g.gate != requestGate(g.snap, "") {
		cmd += " --gate " + g.gate
	}
	if name := g.named(); name != "" {
		cmd += " --assignment " + name
	}
	return cmd
}

// named is the loop's name where commands must name it (the caller named
// it, or it is one loop of several), else "".
func (g *gateCheck) named() string {
	if g.s.Assignment != "" || g.several {
		return g.name
	}
	return ""
}

func (sc gateScope) goAhead() string {
	return "go ahead: " + cmp.Or(map[string]string{staged: "git commit", pushed: "git push"}[sc.kind], "commit or push")
}

// what names what the gate covers, for the start of a sentence.
func (sc gateScope) what() string {
	if sc.kind == pushed && sc.ref != "" {
		return "what the push of " + sc.ref + " carries"
	}
	return map[string]string{staged: "the staged change", pushed: "the push", branch: "what the branch adds"}[sc.kind]
}

// countOf counts n files of what the gate covers: "2 staged files are".
func (sc gateScope) countOf(n int) string {
	word := map[string]string{staged: "staged file", pushed: "pushed file", branch: "changed file"}[sc.kind]
	if n == 1 {
		return "1 " + word + " is"
	}
	return protocol.Plural(n, word) + " are"
}

// atHead is ", head abc1234", or "" when the review knew no commit.
func atHead(commit string) string {
	if commit == "" {
		return ""
	}
	return ", head " + short(commit)
}

// writeFileList prints a titled list of files, if there are any.
func writeFileList(b *strings.Builder, title string, files []string) {
	if len(files) == 0 {
		return
	}
	fmt.Fprintf(b, "%s (%d):\n", title, len(files))
	for _, f := range files {
		fmt.Fprintf(b, "  %s\n", f)
	}
}
