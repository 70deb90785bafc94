package tests

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

// rawClient is a minimal MCP client that is not the Go SDK: newline-
// delimited JSON-RPC 2.0 written by hand to specdev mcp's stdin, read
// from its stdout.
type rawClient struct {
	t  *testing.T
	p  *proc
	id int
}

func startRaw(t *testing.T, root string) *rawClient {
	cmd := exec.Command(specdevBin(), "mcp")
	cmd.Dir = root
	cmd.Env = withoutSpecdevVars(os.Environ())
	return &rawClient{t: t, p: startProc(t, cmd)}
}

// request sends a request and returns its result, skipping the
// notifications before the response; an error response fails the test.
func (c *rawClient) request(method string, params any) map[string]any {
	c.t.Helper()
	c.id++
	line, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": c.id, "method": method, "params": params})
	c.p.send(string(line))
	for {
		text, ok := c.p.next()
		if !ok {
			c.t.Fatalf("%s: specdev mcp closed stdout; stderr:\n%s", method, c.p.errText())
		}
		var msg struct {
			ID     *int            `json:"id"`
			Result map[string]any  `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		if err := json.Unmarshal([]byte(text), &msg); err != nil {
			c.t.Fatalf("%s: not JSON-RPC on stdout: %q", method, text)
		}
		if msg.ID == nil || *msg.ID != c.id {
			continue
		}
		if msg.Error != nil {
			c.t.Fatalf("%s: error %s", method, msg.Error)
		}
		return msg.Result
	}
}

func (c *rawClient) notify(method string) {
	line, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": method})
	c.p.send(string(line))
}

// tool calls a tool and returns its structured content.
func (c *rawClient) tool(name string, args map[string]any, want string) map[string]any {
	c.t.Helper()
	res := c.request("tools/call", map[string]any{"name": name, "arguments": args})
	sc, _ := res["structuredContent"].(map[string]any)
	if sc == nil || sc["code"] != want {
		c.t.Fatalf("%s: %v, want code %s", name, res, want)
	}
	return sc
}

// A client that is not the Go SDK initializes, lists the tools with
// their input schemas, and drives a loop with set_loop_review_result;
// the files on disk then have the shape a command-line loop leaves.
func TestMCPThirdPartyClientLoop(t *testing.T) {
	t.Parallel()
	files := map[string]string{"src/login.go": "package auth\n\nfunc login() { count++ }\n", "src/throttle.go": "package auth\n\nvar count int\n"}
	fix := map[string]string{"src/login.go": "package auth\n\nfunc login() { store.Add(1) }\n"}
	const intent = "throttle failed logins per account"

	root := gitProject(t, files)
	c := startRaw(t, root)
	init := c.request("initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "raw", "version": "1"}})
	if info, _ := init["serverInfo"].(map[string]any); info["name"] != "specdev" {
		t.Fatalf("initialize: %v", init)
	}
	c.notify("notifications/initialized")
	tools := map[string]map[string]any{}
	for _, tool := range c.request("tools/list", map[string]any{})["tools"].([]any) {
		m := tool.(map[string]any)
		tools[m["name"].(string)] = m
	}
	for _, name := range []string{"request_review", "review_status", "wait_for_verdict", "continue_after_pause", "cancel", "claim_review",
		"record_file", "give_verdict", "release_review", "set_loop_review_result", "status", "history", "gate"} {
		schema, _ := tools[name]["inputSchema"].(map[string]any)
		if schema["type"] != "object" {
			t.Errorf("tools/list: %s has no input schema: %v", name, tools[name])
		}
	}
	loop := tools["set_loop_review_result"]["inputSchema"].(map[string]any)
	if fmt.Sprint(loop["required"]) != "[loopId passed]" {
		t.Errorf("set_loop_review_result requires %v", loop["required"])
	}

	c.tool("request_review", map[string]any{"notes": "throttling"}, "OK")
	c.tool("claim_review", map[string]any{}, "OK")
	failed := c.tool("set_loop_review_result", map[string]any{"loopId": "00001_login", "taskId": "T-1", "passed": false,
		"interpretedIntent": intent, "intentSatisfied": false, "issues": []any{map[string]any{
			"file": "src/login.go", "line": 3, "type": "missing-error-handling", "description": "count resets on restart", "suggestion": "persist it"}}}, "OK")
	if failed["state"] != "failed" {
		t.Fatalf("set_loop_review_result: %v", failed)
	}
	writeFiles(t, root, fix)
	gitIn(t, root, "commit", "-q", "-am", "persist")
	c.tool("request_review", map[string]any{"notes": "persisted"}, "OK")
	c.tool("claim_review", map[string]any{}, "OK")
	c.tool("set_loop_review_result", map[string]any{"loopId": "00001", "passed": true, "interpretedIntent": intent, "intentSatisfied": true}, "OK")
	c.tool("gate", map[string]any{}, "OK")

	cli := gitProject(t, files)
	findings := filepath.Join(t.TempDir(), "findings.json")
	os.WriteFile(findings, []byte(`[{"line": 3, "severity": "important", "category": "missing-error-handling", "description": "count resets on restart", "suggestion": "persist it"}]`), 0o644)
	run := func(args ...string) string {
		t.Helper()
		out, errText, code := runSpecdev(t, cli, args...)
		if code != 0 && code != 4 {
			t.Fatalf("specdev %s: exit %d\n%s", strings.Join(args, " "), code, errText)
		}
		return out
	}
	lease := func() string {
		var claim struct{ Data struct{ Lease string } }
		json.Unmarshal([]byte(run("--json", "check", "--session", "rv-cli")), &claim)
		return claim.Data.Lease
	}
	run("work", "request", "--notes", "throttling")
	l := lease()
	run("check", "record", "src/login.go", "--findings", findings, "--session", "rv-cli", "--lease", l)
	run("check", "record", "src/throttle.go", "--session", "rv-cli", "--lease", l)
	run("check", "verdict", "fail", "--intent", intent, "--no-intent-satisfied", "--session", "rv-cli", "--lease", l)
	writeFiles(t, cli, fix)
	gitIn(t, cli, "commit", "-q", "-am", "persist")
	run("work", "request", "--notes", "persisted")
	l = lease()
	run("check", "record", "src/login.go", "--session", "rv-cli", "--lease", l)
	run("check", "verdict", "pass", "--intent", intent, "--intent-satisfied", "--session", "rv-cli", "--lease", l)

	dir := func(root string) string { return filepath.Join(root, ".specdev", "assignments", "00001_login") }
	for _, name := range []string{"review_request.json", "review_progress.json"} {
		got, want := jsonShape(t, filepath.Join(dir(root), name)), jsonShape(t, filepath.Join(dir(cli), name))
		if !slices.Equal(got, want) {
			t.Errorf("%s: shape after the MCP loop differs from the command line's:\n got %v\nwant %v", name, got, want)
		}
	}
	if got, want := historyShape(t, dir(root)), historyShape(t, dir(cli)); !slices.Equal(got, want) {
		t.Errorf("review_history.jsonl: events after the MCP loop differ from the command line's:\n got %v\nwant %v", got, want)
	}
	if got, want := reportShape(t, dir(root)), reportShape(t, dir(cli)); got != want {
		t.Errorf("review_report.md after the MCP loop differs from the command line's:\n got:\n%s\nwant:\n%s", got, want)
	}
}

// jsonShape is every path of a JSON file with its value's type (array
// elements under one path), sorted: what the file holds, not its values.
func jsonShape(t *testing.T, path string) []string {
	t.Helper()
	var v any
	if err := json.Unmarshal(readFile(t, path), &v); err != nil {
		t.Fatal(err)
	}
	set := map[string]bool{}
	var walk func(string, any)
	walk = func(at string, v any) {
		switch v := v.(type) {
		case map[string]any:
			set[at+":object"] = true
			for k, e := range v {
				walk(at+"."+k, e)
			}
		case []any:
			set[at+":array"] = true
			for _, e := range v {
				walk(at+"[]", e)
			}
		default:
			set[fmt.Sprintf("%s:%T", at, v)] = true
		}
	}
	walk("", v)
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// historyShape is each event of the history with its detail's keys.
func historyShape(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	for _, line := range strings.Split(strings.TrimSpace(string(readFile(t, filepath.Join(dir, "review_history.jsonl")))), "\n") {
		var e struct {
			Event  string         `json:"event"`
			Round  int            `json:"round"`
			Detail map[string]any `json:"detail"`
		}
		json.Unmarshal([]byte(line), &e)
		keys := make([]string, 0, len(e.Detail))
		for k := range e.Detail {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		out = append(out, fmt.Sprintf("%s round %d %v", e.Event, e.Round, keys))
	}
	return out
}

// reportShape is the report with its ids, commits and times blanked.
func reportShape(t *testing.T, dir string) string {
	t.Helper()
	text := string(readFile(t, filepath.Join(dir, "review_report.md")))
	for _, re := range []string{`rv-[0-9a-z-]+`, `ls-[0-9a-f]+`, `rq-[0-9a-f]+`, `\b[0-9a-f]{7,40}\b`, `\d{4}-\d\d-\d\dT[0-9:.]+Z`, `\d+(\.\d+)?(ms|s)\b`} {
		text = regexp.MustCompile(re).ReplaceAllString(text, "X")
	}
	return text
}
