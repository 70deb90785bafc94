package mcpserver

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A whole loop through the tools only: request, claim, record, fail,
// fix, request, claim (the follow-up briefing), pass, gate; the
// implementer waits for the second verdict with progress notifications.
func TestLoopThroughTools(t *testing.T) {
	p := newProject(t, "")
	p.write("src/login.go", "package auth\n\nfunc login() { count++ }\n")
	p.write("src/throttle.go", "package auth\n\nvar count int\n")
	p.git("add", "-A")
	p.git("commit", "-q", "-m", "login throttling")

	impl := p.connect("", nil)
	rev := p.connect("rv-mcp", nil)

	req := must(t, call(t, impl, "request_review", map[string]any{"notes": "throttles failed logins!"}), "OK")
	if !strings.Contains(req.Text, "Review requested: 00001_login") || !strings.Contains(req.Text, "  src/login.go") {
		t.Fatalf("request_review text:\n%s", req.Text)
	}

	claim := must(t, call(t, rev, "claim_review", map[string]any{}), "OK")
	if got := field[string](t, claim, "session"); got != "rv-mcp" {
		t.Fatalf("claimed under session %q, want rv-mcp (SPECDEV_SESSION)", got)
	}
	if got := field[[]string](t, claim, "remaining"); strings.Join(got, " ") != "src/login.go src/throttle.go" {
		t.Fatalf("files to review %v", got)
	}
	must(t, call(t, rev, "record_file", map[string]any{"file": "src/login.go", "findings": []map[string]any{
		{"severity": "important", "line": 3, "description": "the counter is kept in memory only!", "suggestion": "persist it"}}}), "OK")
	must(t, call(t, rev, "record_file", map[string]any{"file": "src/throttle.go"}), "OK")
	failed := must(t, call(t, rev, "give_verdict", map[string]any{"passed": false, "summary": "throttle resets on restart"}), "OK")
	if failed.State != "failed" {
		t.Fatalf("verdict state %q, want failed", failed.State)
	}

	seen := must(t, call(t, impl, "review_status", map[string]any{}), "CHANGES_REQUESTED")
	if !strings.Contains(seen.Text, "the counter is kept in memory only!") {
		t.Fatalf("review_status does not show the finding:\n%s", seen.Text)
	}

	p.write("src/login.go", "package auth\n\nfunc login() { store.Add(1) }\n")
	p.git("commit", "-q", "-am", "persist the counter")
	must(t, call(t, impl, "request_review", map[string]any{"notes": "persisted"}), "OK")

	var mu sync.Mutex
	var notes []string
	waiter := p.connect("", &mcp.ClientOptions{ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
		mu.Lock()
		notes = append(notes, r.Params.Message)
		mu.Unlock()
	}})
	verdict := make(chan answer, 1)
	go func() {
		verdict <- call(t, waiter, "wait_for_verdict", map[string]any{"timeout": 60}, mcp.Meta{"progressToken": "w1"})
	}()

	follow := must(t, call(t, rev, "claim_review", map[string]any{}), "OK")
	if !strings.Contains(follow.Text, "Follow-up review of 00001_login, round 2 of 3") {
		t.Fatalf("the same connection's second claim is not the follow-up briefing:\n%s", follow.Text)
	}
	if plan := field[map[string]any](t, follow, "plan"); plan["kind"] != "follow_up" {
		t.Fatalf("plan %v, want kind follow_up", plan)
	}
	must(t, call(t, rev, "record_file", map[string]any{"file": "src/login.go", "resolved": []int{1}}), "OK")
	must(t, call(t, rev, "give_verdict", map[string]any{"passed": true, "summary": "fixed", "intent_satisfied": true}), "OK")

	got := <-verdict
	must(t, got, "OK")
	if got.State != "passed" {
		t.Fatalf("wait_for_verdict state %q, want passed:\n%s", got.State, got.Text)
	}
	mu.Lock()
	if len(notes) == 0 || !strings.Contains(strings.Join(notes, "\n"), "Waiting for a verdict") {
		t.Errorf("no progress notification while waiting; got %q", notes)
	}
	mu.Unlock()

	gate := must(t, call(t, impl, "gate", map[string]any{}), "OK")
	if !strings.Contains(gate.Text, "passed") {
		t.Errorf("gate text:\n%s", gate.Text)
	}
	hist := must(t, call(t, impl, "history", map[string]any{"events": []string{"passed", "failed"}}), "OK")
	if !strings.Contains(hist.Text, "(2 of ") {
		t.Errorf("history text:\n%s", hist.Text)
	}
}
