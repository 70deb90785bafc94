package review

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/specdev/specdev/checkpoint"
	"github.com/specdev/specdev/internal/changeset"
	"github.com/specdev/specdev/protocol"
)

// GateOptions says what the commit review gate checks. The gate passes
// only if the latest review of the gate passed and the files it covers
// now are, content for content, the ones that review saw.
type GateOptions struct {
	Gate   string // the review gate ("": the gate of the current request, else review)
	Staged bool   // check exactly what git commit would commit (the index)
	Group  string // check every assignment of this group
}

// gateData is the --json data of specdev gate.
type gateData struct {
	Assignment  string      `json:"assignment"`
	Gate        string      `json:"gate"`
	Staged      bool        `json:"staged"`
	Files       []string    `json:"files"`        // what the gate checked
	Changed     []string    `json:"changed"`      // content differs from the review's
	NotReviewed []string    `json:"not_reviewed"` // no review covered them
	Review      *gateReview `json:"review,omitempty"`
}

// gateReview is the review the gate judged by.
type gateReview struct {
	RequestID     string          `json:"request_id"`
	Status        protocol.Status `json:"status"`
	Round         int             `json:"round"`
	HeadCommit    string          `json:"head_commit,omitempty"`
	FilesReviewed int             `json:"files_reviewed,omitempty"`
	FilesTotal    int             `json:"files_total,omitempty"`
}

// Gate works out what the gate covers now and judges it.
func (s *Service) Gate(ctx context.Context, c GateOptions) (Result, error) {
	if err := c.checkGate(); err != nil {
		return Result{}, err
	}
	if c.Group != "" {
		return s.gateGroup(ctx, c)
	}
	a, err := s.Target()
	if err != nil {
		return Result{}, err
	}
	snap, err := a.Snapshot()
	if err != nil {
		return Result{}, err
	}
	root := s.Store.Root
	res, err := changeset.Collect(ctx, changeset.Options{Root: root, Branch: !c.Staged, Staged: c.Staged})
	if errors.Is(err, changeset.ErrNotGit) {
		return Result{}, &protocol.UsageError{Msg: changeset.ErrNotGit.Error(),
			Hint: "specdev gate checks what git commits or pushes: run it inside a git repository", Err: err}
	}
	if err != nil {
		return Result{}, err
	}
	sums, err := digestFiles(ctx, root, res.Files, c.Staged)
	if err != nil {
		return Result{}, err
	}
	g := &gateCheck{s: s, a: a, snap: snap, gate: requestGate(snap, c.Gate), staged: c.Staged, files: res.Files, digests: sums.Files}
	return g.result()
}

// checkGate refuses a --gate that is no gate name.
func (c GateOptions) checkGate() error {
	if c.Gate == "" {
		return nil
	}
	if err := checkpoint.CheckName(c.Gate); err != nil {
		return usage("use letters, digits, '.', '_' and '-'", "--gate: "+strings.Replace(err.Error(), "assignment name", "gate", 1))
	}
	return nil
}

// gateCheck is one judgement of the gate.
type gateCheck struct {
	s       *Service
	a       *checkpoint.Assignment
	snap    checkpoint.Snapshot
	gate    string
	staged  bool
	files   []string          // what the gate covers now
	digests map[string]string // their content digests now
	named   bool              // commands name the assignment (a group's member)
}

// result judges: nothing to check; a review of the gate still open,
// failed or blocked; no passing review; or the passing review's digests
// against today's.
func (g *gateCheck) result() (Result, error) {
	d := gateData{Assignment: g.a.Name, Gate: g.gate, Staged: g.staged, Files: orEmpty(g.files), Changed: []string{}, NotReviewed: []string{}}
	if len(g.files) == 0 {
		return Result{State: "nothing_to_check", Data: d, Code: OK,
			Text: fmt.Sprintf("Gate %s open: %s touches no file under review (outside .specdev/).", g.gate, g.what()),
			Next: g.goAhead()}, nil
	}
	if r := g.snap.Request; r != nil && r.Gate == g.gate {
		if res, ok := g.unfinished(&d); ok {
			return res, nil
		}
	}
	rec, ok, err := g.record()
	if err != nil {
		return Result{}, err
	}
	if !ok {
		d.NotReviewed = d.Files
		var b strings.Builder
		fmt.Fprintf(&b, "Gate %s closed: no passing review yet for %s.\n", g.gate, g.a.Name)
		writeFileList(&b, "Not reviewed", d.NotReviewed)
		return Result{State: "no_review", Data: d, Code: Waiting, Text: b.String(), Next: g.requestNext()}, nil
	}
	d.Review = &gateReview{RequestID: rec.RequestID, Status: protocol.StatusPassed, Round: rec.Round, HeadCommit: rec.HeadCommit}
	changed, unreviewed := rec.Compare(g.digests)
	d.Changed, d.NotReviewed = orEmpty(changed), orEmpty(unreviewed)
	if len(changed)+len(unreviewed) == 0 {
		return Result{State: "passed", Data: d, Code: OK,
			Text: fmt.Sprintf("Gate %s open: the %s what the review of %s passed (round %d%s).",
				g.gate, g.countFiles(), g.a.Name, rec.Round, atHead(rec.HeadCommit)),
			Next: g.goAhead()}, nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Gate %s closed: %s is not what the review of %s passed (round %d%s).\n", g.gate, g.what(), g.a.Name, rec.Round, atHead(rec.HeadCommit))
	writeFileList(&b, "Changed since the review", d.Changed)
	writeFileList(&b, "Not reviewed", d.NotReviewed)
	return Result{State: "changed", Data: d, Code: Conflict, Text: b.String(), Next: g.requestNext()}, nil
}

// unfinished judges a request of the gate that has no passing verdict:
// waiting for or under review, awaiting a human, failed, paused, blocked.
func (g *gateCheck) unfinished(d *gateData) (Result, bool) {
	r := g.snap.Request
	if r.Checkpoint && r.Status != protocol.StatusBlocked { // the gate ignores checkpoint reviews
		return g.beneathCheckpoint(d)
	}
	d.Review = &gateReview{RequestID: r.RequestID, Status: r.Status, Round: r.Round, HeadCommit: r.HeadCommit, FilesTotal: len(r.ChangedFiles)}
	round := "round " + r.RoundText()
	closed := fmt.Sprintf("Gate %s closed: the review of %s", g.gate, g.a.Name)
	res := Result{State: string(r.Status), Data: d, Code: Waiting, Next: waitNext}
	switch r.Status {
	case protocol.StatusPending:
		res.Text = fmt.Sprintf("%s is pending (%s, %s): waiting for a reviewer.", closed, round, plural(len(r.ChangedFiles), "file"))
	case protocol.StatusInProgress:
		reviewed := 0
		if g.snap.Current() {
			reviewed = len(g.snap.Progress.FilesReviewed)
		}
		d.Review.FilesReviewed = reviewed
		res.Text = fmt.Sprintf("%s is in progress (%s): %d/%d files reviewed.", closed, round, reviewed, len(r.ChangedFiles))
	case protocol.StatusAwaitingApproval:
		res.Text = fmt.Sprintf("%s awaits a human's approval (%s).", closed, round)
		res.Next = "a human decides: specdev check approve|reject --assignment " + g.a.Name
	case protocol.StatusFailed:
		res.Code = ChangesRequested
		res.Text = fmt.Sprintf("Gate %s closed: the latest review of %s failed (%s).", g.gate, g.a.Name, round)
		if r.ReviewerNotes != "" {
			res.Text += "\nSummary: " + oneLine(r.ReviewerNotes)
		}
		res.Next = "fix the findings (specdev work shows them), then run: " + g.requestCommand()
		if checkpoint.Paused(r) {
			res.State, res.Code = "paused", Blocked
			res.Text += "\nPaused for a human (manual mode)."
			res.Next = "a human runs: specdev work continue [--guidance \"…\"]"
		}
	case protocol.StatusBlocked:
		res.Code = Blocked
		res.Text = fmt.Sprintf("Gate %s closed: the review loop of %s is blocked at its limit of %s.", g.gate, g.a.Name, plural(r.MaxRounds, "round"))
		res.Next = "a human runs: specdev work unblock --rounds 1 (or: specdev work cancel)"
	default:
		return Result{}, false
	}
	return res, true
}

// record is the gate's last passing review: its pass record, or for a
// request that passed before pass records existed, one made from it.
// ok is false when the gate never passed.
func (g *gateCheck) record() (rec protocol.PassRecord, ok bool, err error) {
	r := g.snap.Request
	if r == nil {
		return rec, false, nil
	}
	rec, ok = r.Passed[g.gate]
	if !ok && r.Gate == g.gate && r.Status == protocol.StatusPassed && !r.Checkpoint {
		rec, ok = r.PassRecord(r.CompletedAt), true
	}
	if ok && len(rec.FileDigests) == 0 {
		rec.FileDigests, err = digestsByFingerprint(g.s.Store.Root, rec)
	}
	return rec, ok, err
}

// digestsByFingerprint stands in for the digests a record lacks: today's,
// if the record's fingerprint shows its files unchanged; otherwise every
// file counts as changed (the fingerprint cannot tell which). Without a
// fingerprint nothing counts as reviewed.
func digestsByFingerprint(root string, rec protocol.PassRecord) (map[string]string, error) {
	if rec.Fingerprint == "" {
		return nil, nil
	}
	sums, err := changeset.Digest(root, rec.Files)
	if err != nil || sums.Fingerprint == rec.Fingerprint {
		return sums.Files, err
	}
	unknown := map[string]string{}
	for f := range sums.Files {
		unknown[f] = "unknown"
	}
	return unknown, nil
}
