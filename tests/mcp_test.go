package tests

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// gitProject is a git repository on a feature branch with .specdev/
// made by specdev init, one assignment, and files committed on the
// branch (what round 1 reviews).
func gitProject(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	gitIn(t, root, "init", "-q", "-b", "main")
	gitIn(t, root, "commit", "-q", "--allow-empty", "-m", "initial")
	gitIn(t, root, "checkout", "-q", "-b", "feature")
	if _, errText, code := runSpecdev(t, root, "init"); code != 0 {
		t.Fatalf("specdev init: %s", errText)
	}
	writeFiles(t, root, files)
	gitIn(t, root, "add", "-A")
	gitIn(t, root, "commit", "-q", "-m", "the change")
	if err := os.MkdirAll(filepath.Join(root, ".specdev", "assignments", "00001_login"), 0o755); err != nil {
		t.Fatal(err)
	}
	return root
}

func writeFiles(t testing.TB, root string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		path := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func gitIn(t *testing.T, root string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "commit.gpgsign=false"}, args...)...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=T", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=T", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_NOSYSTEM=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// mcpClient starts specdev mcp in root as a subprocess and connects the
// SDK's client to it over its stdin and stdout.
func mcpClient(t *testing.T, root string, env ...string) (*mcp.ClientSession, *exec.Cmd) {
	t.Helper()
	cmd := exec.Command(specdevBin(), "mcp")
	cmd.Dir = root
	cmd.Env = append(withoutSpecdevVars(os.Environ()), env...)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).
		Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("specdev mcp: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs, cmd
}

// toolAnswer is a tool's structured content, and its text.
type toolAnswer struct {
	OK    bool           `json:"ok"`
	Code  string         `json:"code"`
	State string         `json:"state"`
	Data  map[string]any `json:"data"`
	Error *struct {
		Code, Message, Hint string
	} `json:"error"`
	Text    string
	IsError bool
}

// callTool calls a tool; want is the code the answer must have.
func callTool(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any, want string) toolAnswer {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	var a toolAnswer
	raw, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(raw, &a); err != nil {
		t.Fatalf("%s: %s: %v", tool, raw, err)
	}
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			a.Text += tc.Text
		}
	}
	a.IsError = res.IsError
	if a.Code != want {
		t.Fatalf("%s: code %s (error %v), want %s:\n%s", tool, a.Code, a.IsError, want, a.Text)
	}
	return a
}

// A whole loop through the tools of specdev mcp processes (the real
// binary over stdio): request, claim, record, fail, fix, request, claim
// (the follow-up briefing), pass, gate.
func TestMCPLoopOverStdio(t *testing.T) {
	t.Parallel()
	root := gitProject(t, map[string]string{"src/login.go": "package auth\n\nfunc login() { count++ }\n", "src/throttle.go": "package auth\n\nvar count int\n"})
	impl, _ := mcpClient(t, root)
	rev, _ := mcpClient(t, root, "SPECDEV_SESSION=rv-stdio")

	callTool(t, impl, "request_review", map[string]any{"notes": "throttles logins; don't skip `$HOME` & \"quotes\"!"}, "OK")
	claim := callTool(t, rev, "claim_review", nil, "OK")
	if claim.Data["session"] != "rv-stdio" || !strings.Contains(claim.Text, "don't skip `$HOME` & \"quotes\"!") {
		t.Fatalf("the briefing lacks the session or the notes as given:\n%s", claim.Text)
	}
	callTool(t, rev, "record_file", map[string]any{"file": "src/login.go", "findings": []any{
		map[string]any{"severity": "important", "line": 3, "description": "count is in memory! it resets", "suggestion": "persist it"}}}, "OK")
	callTool(t, rev, "record_file", map[string]any{"file": "src/throttle.go"}, "OK")
	callTool(t, rev, "give_verdict", map[string]any{"passed": false, "summary": "resets on restart"}, "OK")
	callTool(t, impl, "review_status", nil, "CHANGES_REQUESTED")

	writeFiles(t, root, map[string]string{"src/login.go": "package auth\n\nfunc login() { store.Add(1) }\n"})
	gitIn(t, root, "commit", "-q", "-am", "persist")
	callTool(t, impl, "request_review", map[string]any{"notes": "persisted"}, "OK")
	follow := callTool(t, rev, "claim_review", nil, "OK")
	if !strings.Contains(follow.Text, "Follow-up review of 00001_login, round 2 of 3") {
		t.Fatalf("not the follow-up briefing:\n%s", follow.Text)
	}
	callTool(t, rev, "record_file", map[string]any{"file": "src/login.go", "resolved": []int{1}}, "OK")
	callTool(t, rev, "give_verdict", map[string]any{"passed": true, "summary": "fixed"}, "OK")
	callTool(t, impl, "wait_for_verdict", map[string]any{"timeout": 5}, "OK")
	callTool(t, impl, "gate", nil, "OK")

	bad := callTool(t, rev, "record_file", map[string]any{"file": "src/login.go", "findings": "not a list"}, "USAGE")
	if !bad.IsError || bad.Error == nil || !strings.Contains(bad.Error.Message, "findings") {
		t.Fatalf("bad input is not a tool error naming the field: %+v", bad)
	}
}

// Two specdev mcp processes claiming at once: each review is claimed by
// one of them only.
func TestMCPTwoProcessesClaimEachOnce(t *testing.T) {
	t.Parallel()
	root := gitProject(t, map[string]string{"a.go": "package a\n"})
	impl, _ := mcpClient(t, root)
	var names []string
	for _, name := range []string{"00002_a", "00003_b", "00004_c", "00005_d", "00006_e", "00007_f"} {
		os.MkdirAll(filepath.Join(root, ".specdev", "assignments", name), 0o755)
		callTool(t, impl, "request_review", map[string]any{"assignment": name, "files": []string{"a.go"}}, "OK")
		names = append(names, name)
	}
	var mu sync.Mutex
	var claimed []string
	var wg sync.WaitGroup
	for range 2 {
		cs, _ := mcpClient(t, root)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "claim_review", Arguments: map[string]any{}})
				if err != nil || res.IsError {
					t.Errorf("claim_review: %v %v", err, res)
					return
				}
				m := res.StructuredContent.(map[string]any)
				if m["code"] == "WAITING" {
					return
				}
				name := m["data"].(map[string]any)["assignment"].(string)
				mu.Lock()
				claimed = append(claimed, name)
				mu.Unlock()
				res, err = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "set_loop_review_result",
					Arguments: map[string]any{"loopId": name, "passed": true}})
				if err != nil || res.IsError {
					t.Errorf("set_loop_review_result %s: %v %v", name, err, res)
					return
				}
			}
		}()
	}
	wg.Wait()
	slices.Sort(claimed)
	if !slices.Equal(claimed, names) {
		t.Fatalf("claimed %v, want each of %v once", claimed, names)
	}
}

// A specdev mcp process killed mid-review: its review goes stale and
// another process takes it over with the progress kept.
func TestMCPKilledReviewerIsTakenOver(t *testing.T) {
	t.Parallel()
	root := gitProject(t, map[string]string{"a.go": "package a\n", "b.go": "package b\n"})
	writeFiles(t, root, map[string]string{".specdev/config.json": `{"version": 1, "stale_after": "2s", "preflight_timeout": "1s"}` + "\n"})
	impl, _ := mcpClient(t, root)
	callTool(t, impl, "request_review", map[string]any{"files": []string{"a.go", "b.go"}}, "OK")
	first, cmd := mcpClient(t, root)
	callTool(t, first, "claim_review", nil, "OK")
	callTool(t, first, "record_file", map[string]any{"file": "a.go", "findings": []any{map[string]any{"severity": "minor", "description": "nit"}}}, "OK")
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	second, _ := mcpClient(t, root)
	callTool(t, second, "claim_review", nil, "WAITING")
	time.Sleep(2100 * time.Millisecond)
	took := callTool(t, second, "claim_review", nil, "OK")
	if took.Data["kind"] != "takeover" || !strings.Contains(took.Text, "a.go (1 finding)") || !strings.Contains(took.Text, "continue reviewing from b.go") {
		t.Fatalf("not a takeover with the progress kept:\n%s", took.Text)
	}
}
