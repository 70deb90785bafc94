package main

import (
	"os"

	"github.com/specdev/specdev/internal/mcpserver"
	"github.com/specdev/specdev/review"
)

// McpCmd serves specdev's operations as MCP tools, or prints what a host
// needs to start it.
type McpCmd struct {
	Serve  McpServeCmd  `cmd:"" default:"withargs" hidden:"" help:"Serves the MCP tools on stdin and stdout until the client goes away."`
	Config McpConfigCmd `cmd:"" help:"Print what an MCP host needs to start specdev mcp: claude, codex or cursor."`
}

// McpServeCmd is the MCP server over stdio, for the project found as
// every command finds it.
type McpServeCmd struct{}

// Run serves one connection: the host that started the process.
func (c *McpServeCmd) Run(app *App) error {
	s, err := app.Service()
	if err != nil {
		return err
	}
	return mcpserver.Serve(app.ctx, s, mcpserver.Options{Version: versionString()})
}

// McpConfigCmd prints a host's configuration entry for specdev mcp.
type McpConfigCmd struct {
	Host string `arg:"" enum:"claude,codex,cursor" help:"The MCP host: claude (Claude Code, .mcp.json), codex (~/.codex/config.toml) or cursor (.cursor/mcp.json)." placeholder:"HOST"`
}

// Run prints the entry and where it goes.
func (c *McpConfigCmd) Run(app *App) error {
	return app.run(func(s *review.Service) (review.Result, error) {
		home, _ := os.UserHomeDir()
		return mcpserver.Config(c.Host, s.Store.Root, home), nil
	})
}
