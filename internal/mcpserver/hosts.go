package mcpserver

import (
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/specdev/specdev/review"
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

// Config is what specdev mcp config prints for host (claude, codex or
// cursor: the command line takes no other), in the project at root
// (home: the user's home folder, for Codex): the entry, where it goes,
// and the host's own command that puts it there where one does it whole.
func Config(host, root, home string) review.Result {
	entry := map[string]any{"command": "specdev", "args": []any{"mcp"}}
	c := HostConfig{Host: host, File: filepath.Join(root, ".cursor", "mcp.json")}
	also := ""
	switch host {
	case "claude":
		entry["type"] = "stdio"
		c.File = filepath.Join(root, ".mcp.json")
		also = ", or run: claude mcp add specdev -- specdev mcp"
	case "codex":
		// a tool call may last as long as wait_for_verdict waits (600 s by default)
		c.File = filepath.Join(cmp.Or(os.Getenv("CODEX_HOME"), filepath.Join(home, ".codex")), "config.toml")
		c.Snippet = "[mcp_servers.specdev]\ncommand = \"specdev\"\nargs = [\"mcp\"]\ntool_timeout_sec = 900\n"
		also = " (codex mcp add specdev -- specdev mcp adds it without the time-out)"
	}
	if c.Snippet == "" {
		data, _ := json.MarshalIndent(map[string]any{"mcpServers": map[string]any{"specdev": entry}}, "", "  ") // maps of strings: it cannot fail
		c.Snippet = string(data) + "\n"
	}
	return review.Result{State: "printed", Data: c, Text: fmt.Sprintf("For %s, in %s:\n%s", host, c.File, c.Snippet),
		Next: "add it to " + c.File + " beside the servers already there" + also + "; then restart " + host}
}
