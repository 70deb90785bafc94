package mcpserver

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/specdev/specdev/review"
)

// project is a git repository with .specdev/ and one assignment.
type project struct {
	t    *testing.T
	root string
}

const assignment = "00001_login"

// newProject makes the project: a main branch with one commit, a feature
// branch, and the config given (stale_after shrunk for takeovers).
func newProject(t *testing.T, config string) *project {
	t.Helper()
	p := &project{t: t, root: t.TempDir()}
	p.git("init", "-q", "-b", "main")
	p.write("README.md", "# login\n")
	p.git("add", "-A")
	p.git("commit", "-q", "-m", "initial")
	p.git("checkout", "-q", "-b", "feature")
	if _, err := review.Init(p.root, false); err != nil {
		t.Fatal(err)
	}
	if config != "" {
		p.write(".specdev/config.json", config)
	}
	p.mkdir(assignment)
	return p
}

func (p *project) mkdir(name string) {
	if err := os.MkdirAll(filepath.Join(p.root, ".specdev", "assignments", name), 0o755); err != nil {
		p.t.Fatal(err)
	}
}

func (p *project) git(args ...string) {
	p.t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "commit.gpgsign=false"}, args...)...)
	cmd.Dir = p.root
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=T", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=T", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_NOSYSTEM=1", "HOME="+p.root)
	if out, err := cmd.CombinedOutput(); err != nil {
		p.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

func (p *project) write(name, content string) {
	p.t.Helper()
	path := filepath.Join(p.root, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		p.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		p.t.Fatal(err)
	}
}

func (p *project) read(name string) string {
	p.t.Helper()
	data, err := os.ReadFile(filepath.Join(p.root, name))
	if err != nil {
		p.t.Fatal(err)
	}
	return string(data)
}

// snapshot is every file under .specdev and its content.
func (p *project) snapshot() map[string]string {
	p.t.Helper()
	files := map[string]string{}
	dir := filepath.Join(p.root, ".specdev")
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		files[strings.TrimPrefix(path, dir)] = string(data)
		return err
	})
	if err != nil {
		p.t.Fatal(err)
	}
	return files
}

// connect starts a server for one connection (its own caller, as a
// specdev mcp process has) and connects an SDK client to it in memory.
func (p *project) connect(session string, opt *mcp.ClientOptions) *mcp.ClientSession {
	p.t.Helper()
	svc, err := review.Open(review.Options{Dir: p.root, Wd: p.root, Session: session, Holder: "specdev mcp"})
	if err != nil {
		p.t.Fatal(err)
	}
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := New(svc, Options{Version: "test", Heartbeat: 20 * time.Millisecond}).Connect(ctx, st, nil)
	if err != nil {
		p.t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, opt).Connect(ctx, ct, nil)
	if err != nil {
		p.t.Fatal(err)
	}
	p.t.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs
}

// answer is a tool's answer: its structured content and its text.
type answer struct {
	OK    bool            `json:"ok"`
	Code  string          `json:"code"`
	State string          `json:"state"`
	Data  json.RawMessage `json:"data"`
	Next  string          `json:"next"`
	Error *struct {
		Code, Message, Hint string
	} `json:"error"`
	Text    string `json:"-"`
	IsError bool   `json:"-"`
}

// call calls a tool and decodes its answer; a protocol error fails the test.
func call(t *testing.T, cs *mcp.ClientSession, tool string, args any, meta ...mcp.Meta) answer {
	t.Helper()
	params := &mcp.CallToolParams{Name: tool, Arguments: args}
	if len(meta) > 0 {
		params.Meta = meta[0]
	}
	res, err := cs.CallTool(context.Background(), params)
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	return decode(t, tool, res.StructuredContent, res.Content, res.IsError)
}

func decode(t *testing.T, tool string, structured any, content []mcp.Content, isError bool) answer {
	t.Helper()
	raw, err := json.Marshal(structured)
	if err != nil {
		t.Fatal(err)
	}
	var a answer
	if err := json.Unmarshal(raw, &a); err != nil {
		t.Fatalf("%s: structured content %s: %v", tool, raw, err)
	}
	for _, c := range content {
		if tc, ok := c.(*mcp.TextContent); ok {
			a.Text += tc.Text
		}
	}
	a.IsError = isError
	return a
}

// must is an answer that is not an error, with the code wanted.
func must(t *testing.T, a answer, code string) answer {
	t.Helper()
	if a.IsError || a.Code != code {
		t.Fatalf("got code %s (error %v), want %s; text:\n%s", a.Code, a.IsError, code, a.Text)
	}
	return a
}

// field reads one field of an answer's data.
func field[T any](t *testing.T, a answer, name string) T {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(a.Data, &m); err != nil {
		t.Fatalf("data %s: %v", a.Data, err)
	}
	var v T
	if err := json.Unmarshal(m[name], &v); err != nil {
		t.Fatalf("data field %s = %s: %v", name, m[name], err)
	}
	return v
}
