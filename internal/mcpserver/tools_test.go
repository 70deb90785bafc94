package mcpserver

import (
	"strings"
	"testing"
)

// The tools the loop test leaves out: release, a manual-mode pause and a
// human's go-ahead, cancel and status.
func TestOtherTools(t *testing.T) {
	p := newProject(t, "")
	p.write("a.go", "package a\n")
	impl := p.connect("", nil)
	rev := p.connect("", nil)
	must(t, call(t, impl, "request_review", map[string]any{"files": []string{"a.go"}, "mode": "manual"}), "OK")

	must(t, call(t, rev, "claim_review", map[string]any{}), "OK")
	must(t, call(t, rev, "record_file", map[string]any{"file": "a.go", "findings": []map[string]any{{"severity": "critical", "description": "panics"}}}), "OK")
	if rel := must(t, call(t, rev, "release_review", map[string]any{}), "OK"); rel.State != "released" || field[int](t, rel, "files_reviewed") != 1 {
		t.Fatalf("release_review: %s\n%s", rel.State, rel.Text)
	}
	again := must(t, call(t, rev, "claim_review", map[string]any{}), "OK")
	if field[string](t, again, "kind") != "resumed" || !strings.Contains(again.Text, "a.go (1 finding)") {
		t.Fatalf("the released review is not resumed with its progress:\n%s", again.Text)
	}
	must(t, call(t, rev, "give_verdict", map[string]any{"passed": false, "summary": "it panics"}), "OK")

	paused := must(t, call(t, impl, "review_status", map[string]any{}), "BLOCKED")
	if !strings.Contains(paused.Text, "specdev work continue") {
		t.Fatalf("a manual-mode rejection does not pause for a human:\n%s", paused.Text)
	}
	went := must(t, call(t, impl, "continue_after_pause", map[string]any{"guidance": "keep the API"}), "OK")
	if went.State != "continued" || !strings.Contains(went.Text, "Guidance: keep the API") {
		t.Fatalf("continue_after_pause: %s\n%s", went.State, went.Text)
	}

	p.write("a.go", "package a // fixed\n")
	must(t, call(t, impl, "request_review", map[string]any{"files": []string{"a.go"}}), "OK")
	status := must(t, call(t, impl, "status", map[string]any{}), "OK")
	if !strings.HasPrefix(status.Text, `{"assignments":[{"assignment":"00001_login","status":"pending",`) || !strings.Contains(status.Text, `"round":2,"max_rounds":3,`) {
		t.Errorf("status text:\n%s", status.Text)
	}
	if c := must(t, call(t, impl, "cancel", map[string]any{}), "OK"); c.State != "cancelled" {
		t.Errorf("cancel: %s", c.State)
	}
}
