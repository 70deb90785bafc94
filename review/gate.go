package review

import (
	"context"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"

	"github.com/specdev/specdev/checkpoint"
	"github.com/specdev/specdev/internal/changeset"
	"github.com/specdev/specdev/internal/gitremote"
	"github.com/specdev/specdev/protocol"
)

// GateOptions says what the commit review gate checks: what a commit
// (Staged), a push (PrePush) or the branch carries. The gate passes only
// if every file it carries is, content for content, what a passed review
// saw (see gatejudge.go for which loop judges which file).
type GateOptions struct {
	Gate    string    // the review gate ("": each loop's current request's gate, else review)
	Staged  bool      // check exactly what git commit would commit (the index)
	Group   string    // only the loops of this group count; alone, the group's sync
	PrePush string    // check what git pushes to this remote (the pre-push hook's first argument)
	Refs    io.Reader // with PrePush: the refs git pushes, as the hook reads them on stdin
	// Remote judges by the passes this git remote holds (what reviewers
	// pushed), never by the state files here, which a change can carry.
	Remote         string
	AllowedSigners string // with Remote: trust only passes whose commit a key in this ssh allowed-signers file signed
}

// gateData is the --json data of specdev gate.
type gateData struct {
	Assignment  string            `json:"assignment"` // the loop judged by, when one
	Gate        string            `json:"gate"`
	Staged      bool              `json:"staged"`
	Pushed      string            `json:"pushed,omitempty"` // the local ref a push carries
	Files       []string          `json:"files"`            // what the gate checked
	Changed     []string          `json:"changed"`          // content differs from the review's
	NotReviewed []string          `json:"not_reviewed"`     // no review covered them
	PassedBy    map[string]string `json:"passed_by,omitempty"`
	Review      *gateReview       `json:"review,omitempty"`
	Loops       []groupGateMember `json:"loops,omitempty"` // of several, each that holds refused files
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

// The kinds of what the gate covers.
const (
	branch = "" // what the branch adds: unpushed commits, uncommitted and untracked files
	staged = "staged"
	pushed = "pushed"
)

// gateScope is what one judgement covers: the files a commit, a push or
// the branch carries, with the digests of their content as it goes out.
type gateScope struct {
	kind    string
	ref     string // pushed: the local ref
	files   []string
	digests map[string]string
}

// Gate judges what a commit, a push or the branch carries, file by file.
func (s *Service) Gate(ctx context.Context, c GateOptions) (Result, error) {
	if err := c.check(s); err != nil {
		return Result{}, err
	}
	loops, err := s.gateLoops(ctx, c)
	if err != nil {
		return Result{}, err
	}
	if c.Group != "" && !c.Staged && c.PrePush == "" && c.Remote == "" {
		return s.gateGroup(ctx, c.Group, loops)
	}
	scopes, closed, err := s.gateScopes(ctx, c)
	if err != nil || closed.Text != "" {
		return closed, err
	}
	var results []Result
	var codes []Code
	for _, sc := range scopes {
		res := s.judge(sc, loops)
		results, codes = append(results, res), append(codes, res.Code)
	}
	// of the refs a push carries, the most pressing (each names its
	// ref), or the first when all passed
	_, at := mostPressing(codes)
	return results[max(at, 0)], nil
}

// check refuses a --gate that is no gate name and flags that say two
// things at once.
func (c GateOptions) check(s *Service) error {
	switch {
	case c.Gate != "" && protocol.CheckName(c.Gate) != nil:
		return usage("use letters, digits, '.', '_' and '-'", "--gate: "+protocol.CheckName(c.Gate).Error())
	case c.Group != "" && s.Assignment != "":
		return usage("keep one: --group "+c.Group+" (every assignment of it), or --assignment "+s.Assignment,
			"--group and --assignment both say what to check")
	case c.AllowedSigners != "" && c.Remote == "":
		return usage("add --remote NAME: the signatures are on the commits of the remote's review state", "--allowed-signers without --remote")
	case c.Staged && c.PrePush != "":
		return usage("the pre-commit hook runs gate --staged, the pre-push hook gate --pre-push", "--staged and --pre-push both say what to check")
	case c.Group != "":
		return checkGroupFlag(c.Group)
	}
	return nil
}

// gateScopes works out what the gate covers: the staged change, each ref
// a push carries, or what the branch adds. closed (with a Text) is the
// gate's answer when it cannot tell what a push of the branch would carry.
func (s *Service) gateScopes(ctx context.Context, c GateOptions) (scopes []gateScope, closed Result, err error) {
	root := s.here()
	switch {
	case c.Staged:
		res, err := changeset.Collect(ctx, changeset.Options{Root: root, Staged: true})
		if err != nil {
			return nil, Result{}, notGit(err)
		}
		sums, err := changeset.DigestStaged(ctx, root, res.Files)
		return []gateScope{{kind: staged, files: res.Files, digests: sums.Files}}, Result{}, err
	case c.PrePush != "":
		return s.pushScopes(ctx, c)
	}
	carried, ok, err := changeset.Unpushed(ctx, root)
	if err != nil {
		return nil, Result{}, notGit(err)
	}
	files := carried.Files
	if !ok {
		res, err := changeset.Collect(ctx, changeset.Options{Root: root, Branch: true})
		if err != nil {
			return nil, Result{}, err
		}
		// no base, or HEAD is the local branch it is compared with or detached:
		// then no branch of its own tells what its work is
		if res.HeadCommit != "" && (res.Branch == nil ||
			res.Branch.Base == res.HeadCommit && slices.Contains([]string{"", res.Branch.Ref}, changeset.CurrentBranch(ctx, root))) {
			return nil, noBase(res.Branch), nil
		}
		files = res.Files
	}
	sums, err := changeset.Digest(root, files)
	return []gateScope{{kind: branch, files: files, digests: sums.Files}}, Result{}, err
}

// pushScopes are the refs a push carries, each with the files its new
// commits change at their pushed content.
func (s *Service) pushScopes(ctx context.Context, c GateOptions) ([]gateScope, Result, error) {
	if c.Refs == nil {
		c.Refs = strings.NewReader("")
	}
	pushes, err := changeset.ReadPushes(c.Refs)
	if err != nil {
		return nil, Result{}, err
	}
	var scopes []gateScope
	for _, p := range pushes {
		carried, err := changeset.Pushed(ctx, s.here(), c.PrePush, p)
		if err != nil {
			return nil, Result{}, notGit(err)
		}
		if !p.Deletes() {
			scopes = append(scopes, gateScope{kind: pushed, ref: p.LocalRef, files: carried.Files, digests: carried.Sums.Files})
		}
	}
	if len(scopes) == 0 {
		scopes = []gateScope{{kind: pushed}}
	}
	return scopes, Result{}, nil
}

// noBase is the gate's answer when no remote-tracking branch tells which
// commits are unpushed and HEAD is (or is inside) the local branch it is
// compared with, or there is none: any commit may be unpushed and
// unreviewed, so the gate stays closed (it never opens by not looking).
// A branch of its own made from a local main is judged by what it adds.
func noBase(bp *changeset.BranchPoint) Result {
	why := "there is no remote-tracking branch, and no default branch (main, master) to compare HEAD with"
	if bp != nil {
		why = fmt.Sprintf("there is no remote-tracking branch, and HEAD is already in the local branch %s it would be compared with", bp.Ref)
	}
	return Result{State: "no_base", Code: Waiting,
		Text: "Gate closed: cannot tell which commits a push would carry: " + why + ", so any commit may be unpushed and unreviewed.",
		Next: "fetch the remote's branches to compare with (git fetch), or let the pre-push hook judge each push: specdev hook install pre-push"}
}

// notGit turns "not a git repository" into the gate's usage error.
func notGit(err error) error {
	if errors.Is(err, changeset.ErrNotGit) {
		return &protocol.UsageError{Msg: changeset.ErrNotGit.Error(),
			Hint: "specdev gate checks what git commits or pushes: run it inside a git repository", Err: err}
	}
	return err
}

// remoteEntries are the loops as the remote c.Remote holds them, for
// specdev gate --remote in CI: the passes reviewers pushed, never the
// state files of this checkout, which the change being judged could
// carry (a forged pass among them). With c.AllowedSigners, signed says
// why a loop's pass is not to be trusted: the commit that recorded it is
// not signed by a key that file allows.
func (s *Service) remoteEntries(ctx context.Context, c GateOptions) (entries []checkpoint.Entry, signed func(name, gate string) error, err error) {
	if err := protocol.CheckName(c.Remote); err != nil {
		return nil, nil, usage("give the name of a git remote, e.g. --remote origin", "--remote: "+err.Error())
	}
	r := gitremote.New(s.Store.Root, c.Remote)
	views, err := s.Store.RemoteViews(ctx, r)
	if err != nil {
		return nil, nil, err
	}
	states := map[string]*checkpoint.RemoteState{}
	for _, v := range views {
		v.Snapshot, states[v.Name] = v.Snap, v.State
		entries = append(entries, v.Entry)
	}
	if c.AllowedSigners != "" {
		signed = func(name, gate string) error { return signedPass(ctx, r, states[name], gate, c.AllowedSigners) }
	}
	if s.Assignment == "" {
		if c.Group != "" {
			members, unreadable := checkpoint.GroupOf(entries, c.Group, nil)
			entries = append(members, unreadable...)
		}
		return entries, signed, nil
	}
	named := slices.DeleteFunc(entries, func(e checkpoint.Entry) bool { return !strings.HasPrefix(e.Name, s.Assignment) })
	if i := slices.IndexFunc(named, func(e checkpoint.Entry) bool { return e.Name == s.Assignment }); i >= 0 {
		named = named[i : i+1]
	}
	if len(named) != 1 {
		return nil, nil, &checkpoint.NotFoundError{Msg: fmt.Sprintf("the remote %s holds %d assignments matching %q", c.Remote, len(named), s.Assignment),
			Hint: "name one the remote holds: specdev status --remote lists them"}
	}
	return named, signed, nil
}

// signedPass checks the signature of the commit that recorded the pass
// of gate that st holds: the oldest of the states before st that hold
// the very same pass record (the later ones carried it on).
func signedPass(ctx context.Context, r *gitremote.Remote, st *checkpoint.RemoteState, gate, signers string) error {
	tip, _ := st.Snapshot(r.Name())
	want, _ := passRecord(tip.Request, gate)
	at := st
	for at.Parent != "" {
		prev, err := r.Read(ctx, st.Ref, at.Parent)
		if err != nil {
			return err
		}
		req, err := protocol.DecodeRequest(protocol.RequestFile, prev.Files[protocol.RequestFile])
		if rec, ok := passRecord(req, gate); err != nil || !ok || !reflect.DeepEqual(rec, want) {
			break
		}
		at = prev
	}
	if err := r.Verify(ctx, at.ID, signers); err != nil {
		return fmt.Errorf("commit %.12s of %s, which recorded it, is not signed by a key in %s (%v)", at.ID, st.Ref, signers, err)
	}
	return nil
}
