package mcpserver

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/BurntSushi/toml"

	"github.com/specdev/specdev/internal/atomicfile"
	"github.com/specdev/specdev/protocol"
)

// HostConfig is what an MCP host needs to start specdev mcp: the file it
// reads its servers from and the entry for specdev. Claude Code and
// Cursor read a project's own file (.mcp.json, .cursor/mcp.json), Codex
// only the user's ~/.codex/config.toml (or $CODEX_HOME/config.toml);
// there specdev mcp finds the project from the folder Codex starts it in.
type HostConfig struct {
	Host    string `json:"host"`
	File    string `json:"file"`
	Snippet string `json:"snippet"` // a whole file holding only the entry
	entry   map[string]any
}

// Config is the entry for host, in the project at root (home: the
// user's home folder, for Codex).
func Config(host, root, home string) (HostConfig, error) {
	entry := map[string]any{"command": "specdev", "args": []any{"mcp"}}
	c := HostConfig{Host: host, entry: entry}
	switch host {
	case "claude":
		entry["type"] = "stdio"
		c.File = filepath.Join(root, ".mcp.json")
	case "cursor":
		c.File = filepath.Join(root, ".cursor", "mcp.json")
	case "codex":
		// a tool call may last as long as wait_for_verdict waits (600 s by default)
		entry["tool_timeout_sec"] = int64(900)
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

// Write puts the entry in the host's file, keeping everything else in
// it (other servers, settings). It reports whether it changed the file:
// an entry already there with the same settings is left alone, one with
// other settings is an error, and so is a file that does not parse, which
// is never rewritten.
func (c HostConfig) Write() (changed bool, err error) {
	old, err := os.ReadFile(c.File)
	if errors.Is(err, fs.ErrNotExist) {
		return true, atomicfile.Replace(c.File, []byte(c.Snippet), 0o644)
	}
	if err != nil {
		return false, err
	}
	var have any
	var data []byte
	if filepath.Ext(c.File) == ".toml" {
		have, data, err = mergeTOML(old, c.Snippet)
	} else {
		have, data, err = mergeJSON(old, c.entry)
	}
	if err != nil {
		return false, &protocol.InvalidError{File: c.File, Problem: "does not parse: " + err.Error(),
			Hint: "fix it or move it away, then run this again; nothing was changed"}
	}
	switch {
	case have == nil:
		mode := fs.FileMode(0o644)
		if fi, err := os.Stat(c.File); err == nil {
			mode = fi.Mode().Perm()
		}
		return true, atomicfile.Replace(c.File, data, mode)
	case same(have, c.entry):
		return false, nil
	}
	return false, &protocol.UsageError{Msg: c.File + " already has a specdev server with other settings",
		Hint: "edit it by hand to match:\n" + c.Snippet}
}

// mergeJSON reads a host's JSON file: the specdev entry it has, or the
// file with the entry added (the other keys' text kept as it is).
func mergeJSON(old []byte, entry map[string]any) (have any, merged []byte, err error) {
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(old, &doc); err != nil || doc == nil {
		return nil, nil, errors.Join(err, errors.New("not a JSON object"))
	}
	servers := map[string]json.RawMessage{}
	if raw, ok := doc["mcpServers"]; ok {
		if err := json.Unmarshal(raw, &servers); err != nil || servers == nil {
			return nil, nil, fmt.Errorf("mcpServers is not an object")
		}
	}
	if raw, ok := servers["specdev"]; ok {
		err := json.Unmarshal(raw, &have)
		return have, nil, err
	}
	servers["specdev"], _ = json.Marshal(entry)
	doc["mcpServers"], _ = json.Marshal(servers)
	merged, err = json.MarshalIndent(doc, "", "  ")
	return nil, append(merged, '\n'), err
}

// mergeTOML reads Codex's config: the specdev entry it has, or the file
// with the entry's table appended (the rest kept byte for byte).
func mergeTOML(old []byte, snippet string) (have any, merged []byte, err error) {
	var doc struct {
		Servers map[string]map[string]any `toml:"mcp_servers"`
	}
	if _, err := toml.Decode(string(old), &doc); err != nil {
		return nil, nil, err
	}
	if e, ok := doc.Servers["specdev"]; ok {
		return e, nil, nil
	}
	if len(old) > 0 && !bytes.HasSuffix(old, []byte("\n")) {
		old = append(old, '\n')
	}
	merged = append(append(old, '\n'), snippet...)
	_, err = toml.Decode(string(merged), &doc) // appending a table can clash with one the file has
	return nil, merged, err
}

// same compares two entries as JSON values.
func same(have any, want map[string]any) bool {
	a, _ := json.Marshal(have)
	b, _ := json.Marshal(want)
	return bytes.Equal(a, b)
}
