package mcpserver

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/specdev/specdev/protocol"
	"github.com/specdev/specdev/review"
)

// outcome is a tool's structured content: the command line's --json
// envelope, plus the outcome's code name on success too (a result such
// as CHANGES_REQUESTED or WAITING is an answer, not an error).
type outcome struct {
	OK    bool       `json:"ok"`
	Code  string     `json:"code"`
	State string     `json:"state,omitempty"`
	Data  any        `json:"data,omitempty"`
	Next  string     `json:"next,omitempty"`
	Error *errorBody `json:"error,omitempty"`
}

type errorBody struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Hint    string `json:"hint,omitempty"`
}

// toolResult answers a call with an operation's result, or its error as
// a tool error (IsError) with the command line's message, hint and code.
func toolResult(res review.Result, err error) *mcp.CallToolResult {
	if err != nil {
		code := review.CodeOf(err).String()
		return errorResult(code, err.Error(), review.HintOf(err))
	}
	text := strings.TrimRight(res.Text, "\n")
	if res.Next != "" {
		text = strings.TrimLeft(text+"\nNext: "+res.Next, "\n")
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}},
		StructuredContent: outcome{OK: true, Code: res.Code.String(), State: res.State, Data: res.Data, Next: res.Next}}
}

func errorResult(code, message, hint string) *mcp.CallToolResult {
	text := "specdev: " + protocol.SafeText(message)
	if hint != "" {
		text += "\nhint: " + protocol.SafeText(hint)
	}
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: text}},
		StructuredContent: outcome{Code: code, Error: &errorBody{Code: code, Message: message, Hint: hint}}}
}

// schemaErrors gives the SDK's own tool errors — arguments that break a
// tool's input schema, refused before the tool runs — the code USAGE
// and the envelope every other error has.
// maxQuoted bounds the characters of an input an error quotes.
const maxQuoted = 300

func schemaErrors(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		r, ok := res.(*mcp.CallToolResult)
		if err != nil || !ok || !r.IsError || r.StructuredContent != nil {
			return res, err
		}
		var msg []string
		for _, c := range r.Content {
			if t, ok := c.(*mcp.TextContent); ok {
				msg = append(msg, t.Text)
			}
		}
		message := strings.Join(msg, "\n")
		if r := []rune(message); len(r) > maxQuoted { // the SDK's message quotes the whole value
			message = string(r[:maxQuoted]) + "…"
		}
		return errorResult(review.Usage.String(), message, "see the tool's input schema (tools/list) for its fields and their bounds"), nil
	}
}

// progress sends the call's progress notifications, if the client asked
// for them with a progress token: each note the operation makes while
// it waits, and a heartbeat between, so that a host that counts a quiet
// call as hung sees it is alive. stop ends them before the answer goes.
func (c *conn) progress(ctx context.Context, req *mcp.CallToolRequest, svc *review.Service) (stop func()) {
	token := req.Params.GetProgressToken()
	if token == nil || req.Session == nil {
		return func() {}
	}
	start := time.Now()
	var mu sync.Mutex // one notification at a time, none after stop
	stopped := false
	send := func(note string) {
		mu.Lock()
		defer mu.Unlock()
		if !stopped {
			s := time.Since(start).Seconds()
			req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: token, Progress: s,
				Message: fmt.Sprintf("%s (%.0f s)", protocol.SafeText(note), s)})
		}
	}
	svc.Notify = send
	tick := time.NewTicker(c.heartbeat)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				send("still working")
			}
		}
	}()
	return func() {
		tick.Stop()
		close(done)
		mu.Lock()
		stopped = true
		mu.Unlock()
	}
}

// statusText is specdev status in plain lines: the table's columns,
// without the width a terminal needs.
func statusText(res review.Result) string {
	d, _ := res.Data.(review.StatusData)
	var b strings.Builder
	for _, r := range d.Assignments {
		fmt.Fprintf(&b, "%s  %s  round %d/%d  %d/%d files  reviewer %s  %s\n", r.Assignment, r.Description, r.Round, r.MaxRounds,
			r.FilesReviewed, r.FilesTotal, protocol.SafeText(r.Reviewer), protocol.SafeText(r.Error))
	}
	for _, n := range d.NeedsHuman {
		fmt.Fprintf(&b, "Needs a human: %s: %s (%s)\n", n.Assignment, n.Reason, n.Command)
	}
	return b.String()
}
