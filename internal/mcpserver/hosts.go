package mcpserver

import (
	"cmp"
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/specdev/specdev/protocol"
)

// HostConfig is what an MCP host needs to start specdev mcp: the file it
// reads its servers from and the entry for specdev. Claude Code and
// Cursor read a project's own file (.mcp.json, .cursor/mcp.json), Codex
// only the user's ~/.codex/config.toml (or $CODEX_HOME/config.toml);
// there specdev mcp finds the project from the folder Codex starts it in.
// specdev only prints the entry: adding it to a file that holds a
// person's other servers and settings is the host's own job.
type HostConfig struct {
	Host    string `json:"host"`
	File    string `json:"file"`
	Snippet string `json:"snippet"` // a whole file holding only the entry
}

// Config is the entry for host, in the project at root (home: the
// user's home folder, for Codex).
func Config(host, root, home string) (HostConfig, error) {
	entry := map[string]any{"command": "specdev", "args": []any{"mcp"}}
	c := HostConfig{Host: host}
	switch host {
	case "claude":
		entry["type"] = "stdio"
		c.File = filepath.Join(root, ".mcp.json")
	case "cursor":
		c.File = filepath.Join(root, ".cursor", "mcp.json")
	case "codex":
		// a tool call may last as long as wait_for_verdict waits (600 s by default)
		c.File = filepath.Join(cmp.Or(os.Getenv("CODEX_HOME"), filepath.Join(home, ".codex")), "config.toml")
		c.Snippet = "[mcp_servers.specdev]\ncommand = \"specdev\"\nargs = [\"mcp\"]\ntool_timeout_sec = 900\n"
		return c, nil
	default:
		return c, &protocol.UsageError{Msg: "unknown MCP host " + protocol.QuotePrefix(host), Hint: "use claude, codex or cursor"}
	}
	data, err := json.MarshalIndent(map[string]any{"mcpServers": map[string]any{"specdev": entry}}, "", "  ")
	c.Snippet = string(data) + "\n"
	return c, err
}

// Next is where the entry goes, and the host's own command that puts it
// there where one does it whole.
func (c HostConfig) Next() string {
	next := "add it to " + c.File + " beside the servers already there"
	switch c.Host {
	case "claude":
		next += ", or run: claude mcp add specdev -- specdev mcp"
	case "codex":
		next += " (codex mcp add specdev -- specdev mcp adds it without the time-out)"
	}
	return next + "; then restart " + c.Host
}
