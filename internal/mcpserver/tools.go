package mcpserver

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/specdev/specdev/protocol"
	"github.com/specdev/specdev/review"
	"github.com/specdev/specdev/schemas"
)

// The inputs of the tools. Field names are the command line's flag
// names; every field is optional unless its JSON name has no omitempty.
type (
	// at names the assignment a tool acts on.
	at struct {
		Assignment name `json:"assignment,omitempty" jsonschema:"assignment folder name or a unique prefix (default: the newest)"`
	}
	requestIn struct {
		at
		Notes      text   `json:"notes,omitempty" jsonschema:"notes for the reviewer"`
		Files      paths  `json:"files,omitempty" jsonschema:"review exactly these files instead of the changed ones"`
		Base       name   `json:"base,omitempty" jsonschema:"also review the commits since this revision"`
		Staged     bool   `json:"staged,omitempty" jsonschema:"review exactly the staged change (what git commit would commit)"`
		Gate       name   `json:"gate,omitempty" jsonschema:"review gate (default: the previous request's, else review)"`
		Group      name   `json:"group,omitempty" jsonschema:"put the assignment in this group of parallel loops"`
		Mode       mode   `json:"mode,omitempty" jsonschema:"auto: fix and ask again after a rejection; manual: pause for a human"`
		Checkpoint bool   `json:"checkpoint,omitempty" jsonschema:"a checkpoint review of work in progress: no round, no pass of the gate"`
		Effort     effort `json:"effort,omitempty" jsonschema:"this loop's effort level, which sets its round limit (default: config.json's)"`
		Expect     loops  `json:"expect,omitempty" jsonschema:"with group: how many loops the group waits for (the group's first request declares it)"`
	}
	workIn struct {
		at
		Group   name    `json:"group,omitempty" jsonschema:"every assignment of this group instead"`
		Timeout seconds `json:"timeout,omitempty" jsonschema:"seconds to wait (wait_for_verdict: default 600)"`
	}
	continueIn struct {
		at
		Guidance text `json:"guidance,omitempty" jsonschema:"a human's guidance for the implementer"`
	}
	claimIn struct {
		at
		Mode    mode    `json:"mode,omitempty" jsonschema:"auto: decide alone; manual: a human approves the verdict"`
		Timeout seconds `json:"timeout,omitempty" jsonschema:"seconds to wait for a review to claim (default: look once)"`
	}
	recordIn struct {
		File     path               `json:"file" jsonschema:"the reviewed file, as the briefing lists it"`
		Findings []protocol.Finding `json:"findings,omitempty" jsonschema:"the file's findings (none: the file is fine)"`
		Resolved numbers            `json:"resolved,omitempty" jsonschema:"findings of the previous round verified fixed, by their numbers in the briefing"`
		Add      bool               `json:"add,omitempty" jsonschema:"add to the file's earlier findings instead of replacing them"`
	}
	verdictIn struct {
		Passed            bool               `json:"passed" jsonschema:"true to pass the review, false to fail it"`
		Summary           text               `json:"summary,omitempty" jsonschema:"one paragraph for the implementer"`
		InterpretedIntent text               `json:"interpreted_intent,omitempty" jsonschema:"what you understood the change to be for"`
		IntentSatisfied   *bool              `json:"intent_satisfied,omitempty" jsonschema:"whether the change does what it is for"`
		Issues            []protocol.Finding `json:"issues,omitempty" jsonschema:"findings about no one file"`
	}
	// loopResultIn is the parallel-loop reviews' result tool's input.
	loopResultIn struct {
		LoopID name `json:"loopId" jsonschema:"The loop being reviewed"`
		// taskId is the seed's schema's; specdev keeps no task ids, and the answer names the loop
		TaskID            name    `json:"taskId,omitempty" jsonschema:"The task that was reviewed (optional for checkpoint reviews)"`
		Passed            bool    `json:"passed"`
		InterpretedIntent text    `json:"interpretedIntent,omitempty"`
		IntentSatisfied   *bool   `json:"intentSatisfied,omitempty"`
		Issues            []issue `json:"issues,omitempty"`
	}
	issue struct {
		File        path        `json:"file,omitempty" jsonschema:"the file, from the project root"`
		Line        lineNumber  `json:"line,omitempty" jsonschema:"1-based line; 0 or absent for the whole file"`
		Type        category    `json:"type,omitempty" jsonschema:"over-engineering, missing-error-handling, pattern-violation, dead-code, spec-intent-mismatch, …"`
		Description findingText `json:"description,omitempty" jsonschema:"what is wrong"`
		Suggestion  findingText `json:"suggestion,omitempty" jsonschema:"how to fix it"`
	}
	statusIn struct {
		Group name `json:"group,omitempty" jsonschema:"only the assignments of this group"`
	}
	historyIn struct {
		at
		Last   count  `json:"last,omitempty" jsonschema:"only the last N events (of those the other fields select)"`
		Round  count  `json:"round,omitempty" jsonschema:"only the events of this review round"`
		Events events `json:"events,omitempty" jsonschema:"only events of these kinds"`
	}
	gateIn struct {
		at
		Gate   name `json:"gate,omitempty" jsonschema:"the review gate to check (default: the current request's)"`
		Staged bool `json:"staged,omitempty" jsonschema:"check exactly what git commit would commit"`
		Group  name `json:"group,omitempty" jsonschema:"check every assignment of this group"`
	}
)

// target is the assignment a tool's input names.
func (in at) target() string { return string(in.Assignment) }

func (in loopResultIn) target() string { return string(in.LoopID) }

// defaultWait is how long wait_for_verdict waits when not told.
const defaultWait = 10 * time.Minute

// addTools adds every tool; each calls one operation of review.
func (c *conn) addTools(s *mcp.Server) {
	tool(s, c, "request_review", "Implementer: ask for a review of the changed files (specdev work request).",
		func(ctx context.Context, svc *review.Service, in requestIn) (review.Result, error) {
			return svc.Request(ctx, review.RequestOptions{Notes: string(in.Notes), Files: []string(in.Files), Base: string(in.Base),
				Staged: in.Staged, Gate: string(in.Gate), Group: string(in.Group), Mode: protocol.Mode(in.Mode), Checkpoint: in.Checkpoint,
				Effort: string(in.Effort), Expect: int(in.Expect)})
		})
	tool(s, c, "review_status", "Implementer: the review's state and the one next step, at once (specdev work).",
		func(ctx context.Context, svc *review.Service, in workIn) (review.Result, error) {
			return svc.Work(ctx, review.WorkOptions{Group: string(in.Group)})
		})
	tool(s, c, "wait_for_verdict", "Implementer: wait for the verdict or a human's decision (default 600 s), with progress notifications while waiting (specdev work --timeout).",
		func(ctx context.Context, svc *review.Service, in workIn) (review.Result, error) {
			return svc.Work(ctx, review.WorkOptions{Group: string(in.Group), Timeout: cmp.Or(in.Timeout.duration(), defaultWait)})
		})
	tool(s, c, "continue_after_pause", "(Human) let a paused manual-mode implementer go on after a rejection (specdev work continue).",
		func(ctx context.Context, svc *review.Service, in continueIn) (review.Result, error) {
			return svc.Continue(ctx, string(in.Guidance))
		})
	tool(s, c, "cancel", "Implementer: withdraw the active review request (specdev work cancel).",
		func(ctx context.Context, svc *review.Service, in at) (review.Result, error) {
			return svc.Cancel(ctx)
		})
	c.addReviewerTools(s)
	tool(s, c, "status", "All assignments at a glance, and what needs a human (specdev status).",
		func(ctx context.Context, svc *review.Service, in statusIn) (review.Result, error) {
			res, err := svc.Status(ctx, string(in.Group))
			if err == nil { // the rows as the structured content has them, in JSON: MCP's text for structured results
				data, _ := json.Marshal(res.Data)
				res.Text = string(data) + "\n" + res.Text
			}
			return res, err
		})
	tool(s, c, "history", "The event log of an assignment, or the part asked for (specdev history).",
		func(ctx context.Context, svc *review.Service, in historyIn) (review.Result, error) {
			return svc.History(review.HistoryOptions{Last: int(in.Last), Round: int(in.Round), Event: []string(in.Events)})
		})
	tool(s, c, "gate", "Whether the latest review passed and the files still match it; OK only then (specdev gate).",
		func(ctx context.Context, svc *review.Service, in gateIn) (review.Result, error) {
			return svc.Gate(ctx, review.GateOptions{Gate: string(in.Gate), Staged: in.Staged, Group: string(in.Group)})
		})
}

// addReviewerTools adds the reviewer's tools. The connection keeps the
// session and the lease of its claim, so the agent never carries them.
func (c *conn) addReviewerTools(s *mcp.Server) {
	tool(s, c, "claim_review", "Reviewer: claim a waiting review (your own, a stale one, or the oldest pending) and get the briefing (specdev check).",
		func(ctx context.Context, svc *review.Service, in claimIn) (review.Result, error) {
			res, err := svc.Claim(ctx, review.ClaimOptions{Mode: protocol.Mode(in.Mode), Timeout: in.Timeout.duration()})
			if session, lease := res.Holding(); err == nil && session == svc.Session { // keep the lease the claim gave
				c.mu.Lock()
				c.lease = lease
				c.mu.Unlock()
			}
			return res, err
		})
	tool(s, c, "record_file", "Reviewer: mark one file of your review reviewed with its findings; your checkpoint (specdev check record).",
		func(ctx context.Context, svc *review.Service, in recordIn) (review.Result, error) {
			return svc.Record(ctx, review.RecordOptions{File: string(in.File), Findings: in.Findings, Resolved: []int(in.Resolved), Add: in.Add})
		})
	tool(s, c, "give_verdict", "Reviewer: pass or fail your review (specdev check verdict).",
		func(ctx context.Context, svc *review.Service, in verdictIn) (review.Result, error) {
			return svc.Verdict(ctx, protocol.Verdict{Passed: in.Passed, Summary: string(in.Summary),
				InterpretedIntent: string(in.InterpretedIntent), IntentSatisfied: in.IntentSatisfied, Issues: in.Issues})
		})
	tool(s, c, "release_review", "Reviewer: give your review back; its progress is kept for the next reviewer (specdev check release).",
		func(ctx context.Context, svc *review.Service, in struct{}) (review.Result, error) {
			return svc.Release(ctx)
		})
	tool(s, c, "set_loop_review_result", "Report review results for a specific loop: records every file of the review you claimed (the issues on theirs) and gives the verdict, in one call.",
		func(ctx context.Context, svc *review.Service, in loopResultIn) (review.Result, error) {
			con, err := in.conclusion()
			if err != nil {
				return review.Result{}, err
			}
			return svc.Conclude(ctx, con)
		})
}

// conclusion is the loop review's result in specdev's terms: an issue's
// type is its finding's category, its line a whole number.
func (in loopResultIn) conclusion() (review.Conclusion, error) {
	con := review.Conclusion{Passed: in.Passed, InterpretedIntent: string(in.InterpretedIntent), IntentSatisfied: in.IntentSatisfied}
	for i, is := range in.Issues {
		if is.Line != lineNumber(int(is.Line)) {
			return con, &protocol.UsageError{Msg: fmt.Sprintf("issues[%d].line: %v is not a whole number", i, is.Line), Hint: "give the line as 1, 2, 3…, or 0 for the whole file"}
		}
		con.Issues = append(con.Issues, protocol.Finding{File: string(is.File), Line: int(is.Line), Category: string(is.Type),
			Description: string(is.Description), Suggestion: string(is.Suggestion)})
	}
	return con, nil
}

// duration is the time-out; 0 when none is given.
func (s seconds) duration() time.Duration { return time.Duration(float64(s) * float64(time.Second)) }

// The kinds of tool input, each with the bounds of the file it ends up
// in (protocol's limits), so that the input schema every tool publishes
// refuses an oversized or mistyped value before anything runs.
type (
	text        string  // notes, summaries, guidance, intent
	findingText string  // a finding's description or suggestion
	category    string  // a finding's category (the loop review's issue type)
	name        string  // an assignment, gate, group, revision or task id
	lineNumber  float64 // a loop review issue's line (a number, as that tool has it)
	path        string  // a file of the project
	paths       []string
	mode        string   // auto or manual
	effort      string   // a loop's effort level
	loops       int      // how many loops a group waits for
	events      []string // history event names
	seconds     float64  // a time-out
	numbers     []int    // findings of the previous round, by their numbers in the briefing
	count       int      // a round or a number of events
)

// inputSchema is the input schema of a tool taking In: inferred from its
// fields, with the bounds of each kind, and a finding as the published
// findings schema defines it.
func inputSchema[In any]() *jsonschema.Schema {
	s, err := jsonschema.For[In](&jsonschema.ForOptions{TypeSchemas: kinds()})
	if err != nil {
		panic(fmt.Sprintf("input schema of %T: %v", *new(In), err)) // the types above are fixed: a test calls every one
	}
	return s
}

func kinds() map[reflect.Type]*jsonschema.Schema {
	str := func(max int) *jsonschema.Schema {
		return &jsonschema.Schema{Type: "string", MaxLength: jsonschema.Ptr(max)}
	}
	list := func(items *jsonschema.Schema, max int) *jsonschema.Schema {
		return &jsonschema.Schema{Type: "array", Items: items, MaxItems: jsonschema.Ptr(max)}
	}
	between := func(typ string, min, max float64) *jsonschema.Schema {
		return &jsonschema.Schema{Type: typ, Minimum: jsonschema.Ptr(min), Maximum: jsonschema.Ptr(max)}
	}
	names := anys(protocol.EventNames)
	find := findingSchema()
	m := map[reflect.Type]*jsonschema.Schema{
		reflect.TypeFor[text]():               str(protocol.MaxTextLength),
		reflect.TypeFor[findingText]():        str(protocol.MaxFindingText),
		reflect.TypeFor[category]():           str(protocol.MaxCategoryLength),
		reflect.TypeFor[name]():               str(protocol.MaxIDLength),
		reflect.TypeFor[path]():               str(protocol.MaxPathLength),
		reflect.TypeFor[paths]():              list(str(protocol.MaxPathLength), protocol.MaxFiles),
		reflect.TypeFor[mode]():               {Type: "string", Enum: []any{string(protocol.ModeAuto), string(protocol.ModeManual)}},
		reflect.TypeFor[effort]():             {Type: "string", Enum: anys(protocol.EffortLevels)},
		reflect.TypeFor[loops]():              between("integer", 1, protocol.MaxGroupLoops),
		reflect.TypeFor[events]():             list(&jsonschema.Schema{Type: "string", Enum: names}, len(names)),
		reflect.TypeFor[seconds]():            between("number", 0, protocol.TimeoutBounds.Max.Seconds()),
		reflect.TypeFor[numbers]():            list(between("integer", 1, protocol.MaxFindings), protocol.MaxFindings),
		reflect.TypeFor[count]():              between("integer", 0, review.MaxHistoryLast),
		reflect.TypeFor[protocol.Finding]():   find,
		reflect.TypeFor[[]protocol.Finding](): list(find, protocol.MaxIssues),
		reflect.TypeFor[lineNumber]():         between("number", 0, protocol.MaxLine),
	}
	is, err := jsonschema.For[issue](&jsonschema.ForOptions{TypeSchemas: m})
	if err != nil {
		panic(err)
	}
	m[reflect.TypeFor[[]issue]()] = list(is, protocol.MaxIssues)
	return m
}

// findingSchema is the finding of schemas/findings.schema.json, the
// definition every published schema with a finding shares.
func findingSchema() *jsonschema.Schema {
	data, err := schemas.Get("findings")
	if err != nil {
		panic(err)
	}
	var doc struct {
		Defs struct {
			Finding *jsonschema.Schema `json:"finding"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(data, &doc); err != nil || doc.Defs.Finding == nil {
		panic(fmt.Sprintf("the findings schema has no finding: %v", err))
	}
	return doc.Defs.Finding
}

// anys is list as the values of a JSON Schema enum.
func anys[T ~string](list []T) []any {
	out := make([]any, len(list))
	for i, v := range list {
		out[i] = string(v)
	}
	return out
}
