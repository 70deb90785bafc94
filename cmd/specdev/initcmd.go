package main

import (
	"encoding/json"
	"fmt"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/alecthomas/kong"

	"github.com/specdev/specdev/protocol"
	"github.com/specdev/specdev/review"
	"github.com/specdev/specdev/schemas"
)

// InitCmd creates .specdev/.
type InitCmd struct {
	UpdateSkills bool `help:"Also rewrite the installed agent guides that differ from this version's (.specdev/skills/*/SKILL.md; local edits are lost)."`
}

// Run creates what is missing and leaves what exists alone.
func (c *InitCmd) Run(app *App) error {
	return app.emit(review.Init(app.Dir, c.UpdateSkills))
}

// SchemaCmd prints an embedded JSON Schema.
type SchemaCmd struct {
	Name string `arg:"" help:"request, progress, verdict, findings, history or config." predictor:"schema"`
}

// Run prints the schema as is (text), or inside the envelope (--json).
func (c *SchemaCmd) Run(app *App) error {
	data, err := schemas.Get(c.Name)
	if err != nil {
		return usage("known schemas: "+strings.Join(schemas.Names(), ", "), err.Error())
	}
	if app.JSON {
		return app.emit(review.Result{State: "schema", Data: json.RawMessage(data)}, nil)
	}
	_, err = app.stdout.Write(data)
	return err
}

// VersionCmd prints the version.
type VersionCmd struct{}

// version is set at build time with -ldflags "-X main.version=…".
var version = ""

// Run prints the version and the Go release it was built with.
func (c *VersionCmd) Run(app *App) error { return app.emit(versionResult(), nil) }

func versionResult() review.Result {
	v := versionString()
	return review.Result{
		State: "version",
		Data:  map[string]any{"go": runtime.Version(), "protocol_version": protocol.RequestVersion, "version": v},
		Text:  fmt.Sprintf("specdev %s (%s, protocol version %d)", v, runtime.Version(), protocol.RequestVersion),
	}
}

// versionString is the version set at build time, the module's, or devel.
func versionString() string {
	if version != "" {
		return version
	}
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" && info.Main.Version != "(devel)" {
		return info.Main.Version
	}
	return "devel"
}

// versionFlag is --version: what specdev version prints, then the run ends.
type versionFlag bool

// BeforeReset runs before kong looks for a command, so "specdev --version"
// needs none. Flags are not applied yet: --json is read from the words,
// as for an error kong's parse gives.
func (versionFlag) BeforeReset(ctx *kong.Context, app *App) error {
	writeResult(app.stdout, slices.Contains(ctx.Args, "--json"), versionResult())
	ctx.Kong.Exit(exitOK)
	return nil
}
