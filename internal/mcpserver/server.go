// Package mcpserver serves specdev's operations as MCP tools over stdio
// (the official Go SDK), for agents that call tools more reliably than
// they compose shell lines. Every tool calls one operation of package
// review, the same the command line calls, and answers with its
// structured data, state, outcome code and next step, and its text.
//
// Invariants:
//   - A server serves one connection, which is one reviewer: it keeps
//     the session id (SPECDEV_SESSION, else one generated for the
//     connection) and the lease of its latest claim, so the agent never
//     carries them. A connection that goes away leaves its review to go
//     stale and be taken over with its progress, as a crashed reviewer's.
//   - An error is a tool error carrying the command line's message, hint
//     and code name; input that breaks a tool's schema is refused before
//     any operation runs, so it writes nothing.
//   - Nothing is built at package init: schemas are made when a server is.
package mcpserver

import (
	"cmp"
	"context"
	_ "embed"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/specdev/specdev/protocol"
	"github.com/specdev/specdev/review"
)

// Options tune a server; the zero value is what specdev mcp runs.
type Options struct {
	Version   string
	Heartbeat time.Duration // between progress notifications while a tool waits (0: 15 s)
}

// conn is the connection's caller: the service it opens operations on,
// and the reviewer session and lease it holds.
type conn struct {
	base      *review.Service
	heartbeat time.Duration

	mu      sync.Mutex // guards lease: tool calls run concurrently
	session string
	lease   string
}

// New makes the server for one connection, on svc's store and caller.
func New(svc *review.Service, opt Options) *mcp.Server {
	c := &conn{base: svc, heartbeat: cmp.Or(opt.Heartbeat, 15*time.Second), session: cmp.Or(svc.Session, review.NewSessionID()), lease: svc.Lease}
	s := mcp.NewServer(&mcp.Implementation{Name: "specdev", Version: opt.Version},
		&mcp.ServerOptions{Instructions: instructions, Capabilities: &mcp.ServerCapabilities{}})
	c.addTools(s)
	s.AddReceivingMiddleware(schemaErrors)
	return s
}

// Serve runs a server on stdin and stdout until the client goes away.
func Serve(ctx context.Context, svc *review.Service, opt Options) error {
	return New(svc, opt).Run(ctx, &mcp.StdioTransport{})
}

// instructions tell the agent how the tools map onto the command lines
// that results name in their next step.
//
//go:embed instructions.txt
var instructions string

// service is the caller for one call: the connection's session and
// lease, and the assignment the call names (else the server's default).
func (c *conn) service(assignment string) *review.Service {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.base.With(c.session, c.lease, cmp.Or(assignment, c.base.Assignment))
}

// targeted is a tool input that names an assignment.
type targeted interface{ target() string }

// tool adds one tool: its input schema from In, and a handler that runs
// op on the call's service, with progress notifications while it runs,
// and answers with its result or its error.
func tool[In any](s *mcp.Server, c *conn, name, desc string, op func(context.Context, *review.Service, In) (review.Result, error)) {
	mcp.AddTool(s, &mcp.Tool{Name: name, Description: desc, InputSchema: inputSchema[In]()},
		func(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, any, error) {
			assignment := ""
			if t, ok := any(in).(targeted); ok {
				assignment = t.target()
			}
			svc := c.service(assignment)
			stop := c.progress(ctx, req, svc)
			res, err := svc.Qualify(op(ctx, svc, in))
			stop()
			return toolResult(res, err), nil, nil
		})
}

// toolResult answers a call with an operation's result, or its error as
// a tool error (IsError) with the command line's message, hint and code.
func toolResult(res review.Result, err error) *mcp.CallToolResult {
	if err != nil {
		return errorResult(review.CodeOf(err).String(), err.Error(), review.HintOf(err))
	}
	text := strings.TrimRight(res.Text, "\n")
	if res.Next != "" {
		text = strings.TrimLeft(text+"\nNext: "+res.Next, "\n")
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}},
		StructuredContent: review.Envelope{OK: true, Code: res.Code.String(), State: res.State, Data: res.Data, Next: res.Next}}
}

func errorResult(code, message, hint string) *mcp.CallToolResult {
	text := "specdev: " + protocol.SafeText(message)
	if hint != "" {
		text += "\nhint: " + protocol.SafeText(hint)
	}
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: text}},
		StructuredContent: review.Envelope{Code: code, Error: &review.ErrorBody{Code: code, Message: message, Hint: hint}}}
}

// maxQuoted bounds the characters of an input an error quotes.
const maxQuoted = 300

// schemaErrors gives the SDK's own tool errors — arguments that break a
// tool's input schema, refused before the tool runs — the code USAGE
// and the envelope every other error has.
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
	var mu sync.Mutex // one notification at a time
	send := func(note string) {
		mu.Lock()
		defer mu.Unlock()
		s := time.Since(start).Seconds()
		req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: token, Progress: s,
			Message: fmt.Sprintf("%s (%.0f s)", protocol.SafeText(note), s)})
	}
	svc.Notify = send
	tick := time.NewTicker(c.heartbeat)
	done := make(chan struct{})
	var beating sync.WaitGroup
	beating.Go(func() {
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				send("still working")
			}
		}
	})
	return func() { // none after it: the heartbeat has ended, and the operation has returned
		tick.Stop()
		close(done)
		beating.Wait()
	}
}
