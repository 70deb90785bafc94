package mcpserver

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// Two MCP clients claiming at once drain the pending reviews: each is
// claimed, and concluded, by exactly one of them.
func TestTwoClientsClaimEachReviewOnce(t *testing.T) {
	p := newProject(t, "")
	p.write("a.go", "package a\n")
	impl := p.connect("", nil)
	var names []string
	for i := 1; i <= 8; i++ {
		name := fmt.Sprintf("%05d_loop", i+1)
		p.mkdir(name)
		must(t, call(t, impl, "request_review", map[string]any{"assignment": name, "files": []string{"a.go"}}), "OK")
		names = append(names, name)
	}
	var mu sync.Mutex
	claimed := map[string][]string{}
	var wg sync.WaitGroup
	for _, session := range []string{"", ""} { // each connection makes up its own session id
		cs := p.connect(session, nil)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				a := call(t, cs, "claim_review", map[string]any{})
				if a.Code == "WAITING" {
					return
				}
				if a.IsError || a.Code != "OK" {
					t.Errorf("claim_review: %s: %s", a.Code, a.Text)
					return
				}
				name, session := field[string](t, a, "assignment"), field[string](t, a, "session")
				mu.Lock()
				claimed[name] = append(claimed[name], session)
				mu.Unlock()
				done := call(t, cs, "set_loop_review_result", map[string]any{"loopId": name, "passed": true})
				if done.IsError || done.State != "passed" {
					t.Errorf("set_loop_review_result %s: %s", name, done.Text)
					return
				}
			}
		}()
	}
	wg.Wait()
	sessions := map[string]bool{}
	for _, name := range names {
		if len(claimed[name]) != 1 {
			t.Errorf("%s claimed %d times (%v), want once", name, len(claimed[name]), claimed[name])
		} else {
			sessions[claimed[name][0]] = true
		}
	}
	if len(sessions) == 0 || len(sessions) > 2 {
		t.Errorf("sessions %v: want one or two, one per connection", sessions)
	}
	if got := slices.Sorted(maps.Keys(claimed)); !slices.Equal(got, names) {
		t.Errorf("claimed %v, want %v", got, names)
	}
}

// A client that goes away mid-review leaves its review to go stale; then
// another connection takes it over with the progress kept.
func TestDisconnectedReviewIsTakenOverWithItsProgress(t *testing.T) {
	p := newProject(t, `{"version": 1, "stale_after": "2s", "preflight_timeout": "1s"}`+"\n")
	p.write("a.go", "package a\n")
	p.write("b.go", "package b\n")
	impl := p.connect("", nil)
	must(t, call(t, impl, "request_review", map[string]any{"files": []string{"a.go", "b.go"}}), "OK")

	first := p.connect("", nil)
	claim := must(t, call(t, first, "claim_review", map[string]any{}), "OK")
	gone := field[string](t, claim, "session")
	must(t, call(t, first, "record_file", map[string]any{"file": "a.go", "findings": []map[string]any{{"severity": "minor", "description": "nit"}}}), "OK")
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}

	second := p.connect("", nil)
	if a := call(t, second, "claim_review", map[string]any{}); a.Code != "WAITING" {
		t.Fatalf("a live review was claimable at once: %s\n%s", a.Code, a.Text)
	}
	time.Sleep(2100 * time.Millisecond)
	took := must(t, call(t, second, "claim_review", map[string]any{}), "OK")
	if got := field[string](t, took, "kind"); got != "takeover" {
		t.Fatalf("kind %q, want takeover:\n%s", got, took.Text)
	}
	if got := field[string](t, took, "taken_over_from"); got != gone {
		t.Errorf("taken over from %q, want %q", got, gone)
	}
	if !strings.Contains(took.Text, "a.go (1 finding)") || !strings.Contains(took.Text, "Next: continue reviewing from b.go") {
		t.Errorf("the resume briefing does not keep the progress:\n%s", took.Text)
	}
	must(t, call(t, second, "record_file", map[string]any{"file": "b.go"}), "OK")
	must(t, call(t, second, "give_verdict", map[string]any{"passed": true}), "OK")
}
