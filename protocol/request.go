package protocol

import (
	"cmp"
	"maps"
	"reflect"
	"slices"

	json "github.com/go-json-experiment/json"
)

// RequestFile is the name of the hand-off record in an assignment folder.
const RequestFile = "review_request.json"

// RequestVersion is the newest review_request.json version this build reads.
const RequestVersion = 1

// DefaultGate is the review gate used when a request names none.
const DefaultGate = "review"

// Verdict values a reviewer proposes in manual mode.
const (
	VerdictPass = "pass"
	VerdictFail = "fail"
)

// Request is review_request.json: the hand-off record between implementer
// and reviewer. The seed's fields are always written; the rest are omitted
// while empty. Status lives here.
type Request struct {
	Version           int       `json:"version" specdev:"required" check:"version"`
	RequestID         string    `json:"request_id,omitempty" check:"id"`
	AssignmentID      string    `json:"assignment_id" check:"id"`
	AssignmentPath    string    `json:"assignment_path" check:"path"`
	Gate              string    `json:"gate" specdev:"nonzero" check:"name"`
	Status            Status    `json:"status" specdev:"required" check:"status"`
	Mode              Mode      `json:"mode" specdev:"nonzero" check:"mode"`
	Timestamp         Timestamp `json:"timestamp" check:"time"`
	HeadCommit        string    `json:"head_commit" check:"id"`
	ChangedFiles      []string  `json:"changed_files" check:"paths"` // absent in a request another tool wrote: it names none (NamesNoFiles)
	Fingerprint       string    `json:"fingerprint,omitempty" check:"fingerprint"`
	Notes             string    `json:"notes" check:"text"`
	Round             int       `json:"round,omitzero" specdev:"nonzero" check:"round"`
	MaxRounds         int       `json:"max_rounds,omitzero" specdev:"nonzero" check:"round"`
	ReviewerNotes     string    `json:"reviewer_notes" check:"text"`
	ProposedVerdict   string    `json:"proposed_verdict" check:"verdict"`
	CompletedAt       Timestamp `json:"completed_at" check:"time"`
	ReviewerSessionID string    `json:"reviewer_session_id,omitempty" check:"session"`
	// The agent session to resume in the loop's next round, and what the
	// agents' runs used (agent.go).
	AgentSession       *AgentSession `json:"agent_session,omitempty" check:"object"`
	AgentCost          *AgentCost    `json:"agent_cost,omitempty" check:"object"`
	LastReviewedCommit string        `json:"last_reviewed_commit,omitempty" check:"id"`
	Guidance           string        `json:"guidance,omitempty" check:"text"`
	ContinuedAt        Timestamp     `json:"continued_at,omitzero" check:"time"`

	// What the request covers beyond its files (see pass.go): the commit
	// its range starts from, whether it is the staged change, each file's
	// content digest, the digests carried from earlier passes and rounds,
	// and the review that last passed each gate.
	BaseCommit     string                `json:"base_commit,omitempty" check:"commit"`
	Staged         bool                  `json:"staged,omitzero"`
	FileDigests    map[string]string     `json:"file_digests,omitempty" check:"digests"`
	CarriedDigests map[string]string     `json:"carried_digests,omitempty" check:"digests"`
	Passed         map[string]PassRecord `json:"passed,omitempty" check:"gates"`

	// SnapshotCommit holds exactly the request's files as requested (HEAD
	// itself when none of them was uncommitted): the reviewed state, and
	// what the next round's changes are read from.
	SnapshotCommit string `json:"snapshot_commit,omitempty" check:"commit"`
	// Delta says what changed since the previous round of the loop.
	Delta *Delta `json:"delta,omitempty" check:"object"`
	// Group names the parallel loops the assignment belongs to (see
	// group.go); Checkpoint marks a review of work in progress, which is
	// no round of the gate's loop and no pass of the gate.
	Group      string `json:"group,omitempty" check:"name"`
	Checkpoint bool   `json:"checkpoint,omitzero"`

	// What the loop keeps from request to request, as it keeps its gate
	// and group: the files it owns (work request --files; a plain
	// request reviews them again), its effort level (round limit and
	// checkpoint interval), and the worktree of the repository its
	// requests are made in, relative to the project root ("" for the
	// project root's own checkout): git and the files are read there.
	FileSet  []string `json:"file_set,omitempty" check:"paths"`
	Effort   string   `json:"effort,omitempty" check:"effort"`
	Worktree string   `json:"worktree,omitempty" check:"worktree"`

	// PreflightFailed marks a request whose pre-flight gate failed: it
	// went back to the implementer unreviewed and is no round of the
	// loop. BlockedReason says why a blocked request waits for a human:
	// BlockedStuck, or "" for the round limit.
	PreflightFailed bool   `json:"preflight_failed,omitzero"`
	BlockedReason   string `json:"blocked_reason,omitempty" check:"blocked"`

	// Loops carries each gate's open review loop from request to request,
	// so that neither a cancel nor a switch of gates resets its rounds.
	Loops   map[string]Loop `json:"loops,omitempty" check:"gates"`
	Journal *Journal        `json:"journal,omitempty" check:"journal"`

	// Extra keeps fields this version does not know.
	Extra Extra `json:",embed"`
}

// requestFields is Request without its methods, for the encoder.
type requestFields Request

// MarshalJSON encodes the known fields followed by the kept unknown ones.
func (r Request) MarshalJSON() ([]byte, error) {
	return json.Marshal((*requestFields)(&r), writeOptions)
}

// applyDefaults fills what a seed-shaped request leaves out (the decoder
// refuses these fields written empty).
func (r *Request) applyDefaults() {
	r.Gate = cmp.Or(r.Gate, DefaultGate)
	r.Mode = cmp.Or(r.Mode, ModeAuto)
	r.Round = cmp.Or(r.Round, 1)
}

// RoundText is "2 of 3", or "2" when the request names no limit, and
// "3 (past the limit of 2)" for a request blocked at its loop's limit.
func (r *Request) RoundText() string {
	if r.MaxRounds > 0 && r.Round > r.MaxRounds {
		return itoa(r.Round) + " (past the limit of " + itoa(r.MaxRounds) + ")"
	}
	if r.MaxRounds > 0 {
		return itoa(r.Round) + " of " + itoa(r.MaxRounds)
	}
	return itoa(r.Round)
}

// ReviewedCommit is the commit holding what this request reviewed.
func (r *Request) ReviewedCommit() string { return cmp.Or(r.SnapshotCommit, r.HeadCommit) }

// Clone returns a copy that shares no slices or maps with r.
func (r *Request) Clone() Request {
	c := *r
	c.ChangedFiles = slices.Clone(r.ChangedFiles)
	c.FileSet = slices.Clone(r.FileSet)
	c.Extra = maps.Clone(r.Extra)
	c.Loops = maps.Clone(r.Loops)
	if c.Delta = clonePointer(r.Delta); c.Delta != nil {
		c.Delta.Changed = slices.Clone(c.Delta.Changed)
	}
	c.FileDigests = maps.Clone(r.FileDigests)
	c.CarriedDigests = maps.Clone(r.CarriedDigests)
	c.Passed = maps.Clone(r.Passed)
	for gate, rec := range c.Passed {
		c.Passed[gate] = rec.Clone()
	}
	c.AgentSession = clonePointer(r.AgentSession)
	c.AgentCost = clonePointer(r.AgentCost)
	return c
}

func clonePointer[T any](p *T) *T {
	if p == nil {
		return nil
	}
	c := *p
	return &c
}

// Same reports whether o holds what r holds, as far as its encoding goes:
// a nil and an empty list or map are the same (both are written alike).
// The lists and maps that grow with the files of a review are compared
// directly; the rest with reflect.DeepEqual, whose map walk would cost a
// transaction on a 1,000-file review more than its own change does.
func (r *Request) Same(o *Request) bool {
	if !slices.Equal(r.ChangedFiles, o.ChangedFiles) || !maps.Equal(r.FileDigests, o.FileDigests) ||
		!maps.Equal(r.CarriedDigests, o.CarriedDigests) || !maps.EqualFunc(r.Passed, o.Passed, PassRecord.same) {
		return false
	}
	a, b := *r, *o
	a.ChangedFiles, a.FileDigests, a.CarriedDigests, a.Passed = nil, nil, nil, nil
	b.ChangedFiles, b.FileDigests, b.CarriedDigests, b.Passed = nil, nil, nil, nil
	return reflect.DeepEqual(a, b)
}

// Loop is what a request remembers of one gate's review loop: how many of
// its rounds were rejected, its round limit, and whether it is stuck (its
// last rejection only repeated the round before's blocking findings). A
// loop opens with the first rejection and closes when the gate passes;
// only a human raises its limit or lifts it when stuck (work unblock).
type Loop struct {
	RoundsFailed int  `json:"rounds_failed" specdev:"required" check:"rounds"`
	MaxRounds    int  `json:"max_rounds" specdev:"required" check:"round"`
	Stuck        bool `json:"stuck,omitzero"`
}

// NamesNoFiles reports whether r is a pending request that lists no file
// to review, as the original tool's minimal requests do: specdev work
// request replaces it with one that does, and no reviewer can claim it.
func (r *Request) NamesNoFiles() bool {
	return r.Status == StatusPending && len(r.ChangedFiles) == 0 && !r.Checkpoint
}

// BlockedStuck is the BlockedReason of a loop that stopped because a
// rejection repeated the round before's blocking findings.
const BlockedStuck = "stuck"
