package mcpserver

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// Each host's entry names its own file, starts specdev mcp, and says
// where it goes.
func TestHostConfig(t *testing.T) {
	root, home := t.TempDir(), t.TempDir()
	t.Setenv("CODEX_HOME", "")
	tests := []struct {
		host, file, next string
	}{
		{"claude", filepath.Join(root, ".mcp.json"), "claude mcp add specdev -- specdev mcp"},
		{"cursor", filepath.Join(root, ".cursor", "mcp.json"), "restart cursor"},
		{"codex", filepath.Join(home, ".codex", "config.toml"), "codex mcp add specdev -- specdev mcp"},
	}
	for _, tt := range tests {
		t.Run(tt.host, func(t *testing.T) {
			res := Config(tt.host, root, home)
			c := res.Data.(HostConfig)
			if c.File != tt.file || !strings.Contains(res.Text, c.File) {
				t.Fatalf("Config: file %s, want %s; text:\n%s", c.File, tt.file, res.Text)
			}
			if !strings.Contains(res.Next, c.File) || !strings.Contains(res.Next, tt.next) {
				t.Errorf("Next = %q, want the file and %q", res.Next, tt.next)
			}
			if tt.host == "codex" {
				want := "[mcp_servers.specdev]\ncommand = \"specdev\"\nargs = [\"mcp\"]\ntool_timeout_sec = 900\n"
				if c.Snippet != want {
					t.Errorf("snippet:\n%s\nwant:\n%s", c.Snippet, want)
				}
				return
			}
			var doc struct {
				Servers map[string]struct {
					Command string   `json:"command"`
					Args    []string `json:"args"`
				} `json:"mcpServers"`
			}
			if err := json.Unmarshal([]byte(c.Snippet), &doc); err != nil {
				t.Fatalf("the snippet does not parse: %v\n%s", err, c.Snippet)
			}
			if e := doc.Servers["specdev"]; e.Command != "specdev" || strings.Join(e.Args, " ") != "mcp" {
				t.Fatalf("no specdev mcp entry:\n%s", c.Snippet)
			}
		})
	}
	t.Setenv("CODEX_HOME", filepath.Join(home, "elsewhere"))
	if c := Config("codex", root, home).Data.(HostConfig); c.File != filepath.Join(home, "elsewhere", "config.toml") {
		t.Errorf("with CODEX_HOME: file %s", c.File)
	}
}
