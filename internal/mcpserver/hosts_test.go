package mcpserver

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

// The entry a host reads, put in its file: added beside what is there,
// left alone when it is there already, and never written over a file
// that does not parse or an entry with other settings.
func TestHostConfigWrite(t *testing.T) {
	tests := []struct {
		name, host, file, before string
		changed                  bool
		wantErr                  string
		keep                     []string // text of the file before that must still be there
	}{
		{name: "claude, no file", host: "claude", file: ".mcp.json", changed: true},
		{name: "claude, other servers kept", host: "claude", file: ".mcp.json", changed: true,
			before: `{"mcpServers": {"db": {"command": "db-mcp", "args": ["--ro"]}}, "other": true}`, keep: []string{`"db-mcp"`, `"--ro"`, `"other": true`}},
		{name: "claude, already there", host: "claude", file: ".mcp.json",
			before: `{"mcpServers": {"specdev": {"type": "stdio", "command": "specdev", "args": ["mcp"]}}}`},
		{name: "claude, another specdev", host: "claude", file: ".mcp.json", wantErr: "other settings",
			before: `{"mcpServers": {"specdev": {"command": "/opt/specdev", "args": ["mcp"]}}}`},
		{name: "claude, malformed", host: "claude", file: ".mcp.json", wantErr: "does not parse", before: `{"mcpServers": {`},
		{name: "claude, not an object", host: "claude", file: ".mcp.json", wantErr: "does not parse", before: `[]`},
		{name: "cursor, no file", host: "cursor", file: ".cursor/mcp.json", changed: true},
		{name: "cursor, servers not an object", host: "cursor", file: ".cursor/mcp.json", wantErr: "mcpServers", before: `{"mcpServers": 3}`},
		{name: "codex, no file", host: "codex", file: "home/.codex/config.toml", changed: true},
		{name: "codex, the rest kept byte for byte", host: "codex", file: "home/.codex/config.toml", changed: true,
			before: "# mine\nmodel = \"o3\"\n\n[mcp_servers.db]\ncommand = \"db-mcp\"", keep: []string{"# mine\nmodel = \"o3\"\n\n[mcp_servers.db]\ncommand = \"db-mcp\"\n"}},
		{name: "codex, already there", host: "codex", file: "home/.codex/config.toml",
			before: "[mcp_servers.specdev]\nargs = [\"mcp\"]\ncommand = \"specdev\"\ntool_timeout_sec = 900\n"},
		{name: "codex, another specdev", host: "codex", file: "home/.codex/config.toml", wantErr: "other settings",
			before: "[mcp_servers.specdev]\ncommand = \"specdev-old\"\n"},
		{name: "codex, malformed", host: "codex", file: "home/.codex/config.toml", wantErr: "does not parse", before: "[mcp_servers\n"},
		{name: "codex, an explicit parent table", host: "codex", file: "home/.codex/config.toml", changed: true,
			before: "[mcp_servers]\n[mcp_servers.db]\ncommand = \"db\"\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			t.Setenv("CODEX_HOME", "")
			path := filepath.Join(root, tt.file)
			if tt.before != "" {
				os.MkdirAll(filepath.Dir(path), 0o755)
				if err := os.WriteFile(path, []byte(tt.before), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			c, err := Config(tt.host, root, filepath.Join(root, "home"))
			if err != nil || c.File != path {
				t.Fatalf("Config: %v, file %s, want %s", err, c.File, path)
			}
			changed, err := c.Write()
			after, _ := os.ReadFile(path)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !strings.Contains(err.Error(), path) {
					t.Fatalf("err %v, want one naming %s and saying %q", err, path, tt.wantErr)
				}
				if string(after) != tt.before {
					t.Errorf("the file changed on an error:\n%s", after)
				}
				return
			}
			if err != nil || changed != tt.changed {
				t.Fatalf("Write = %v, %v; want %v, nil", changed, err, tt.changed)
			}
			if !changed && string(after) != tt.before {
				t.Errorf("an unchanged file was rewritten:\n%s", after)
			}
			for _, k := range tt.keep {
				if !strings.Contains(string(after), k) {
					t.Errorf("lost %q:\n%s", k, after)
				}
			}
			if fi, _ := os.Stat(path); tt.before != "" && fi.Mode().Perm() != 0o600 {
				t.Errorf("mode %v, want the file's own 0600", fi.Mode().Perm())
			}
			checkEntry(t, tt.host, after)
		})
	}
}

// checkEntry reads the file as its host does and finds specdev mcp in it.
func checkEntry(t *testing.T, host string, data []byte) {
	t.Helper()
	var doc struct {
		JSON map[string]struct {
			Command string   `json:"command" toml:"command"`
			Args    []string `json:"args" toml:"args"`
		} `json:"mcpServers" toml:"mcp_servers"`
	}
	var err error
	if host == "codex" {
		_, err = toml.Decode(string(data), &doc)
	} else {
		err = json.Unmarshal(data, &doc)
	}
	if err != nil {
		t.Fatalf("the file does not parse: %v\n%s", err, data)
	}
	if e := doc.JSON["specdev"]; e.Command != "specdev" || strings.Join(e.Args, " ") != "mcp" {
		t.Fatalf("no specdev mcp entry:\n%s", data)
	}
}
