package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/specdev/specdev/checkpoint"
	"github.com/specdev/specdev/protocol"
	"github.com/specdev/specdev/schemas"
	"github.com/specdev/specdev/skills"
)

// InitCmd creates .specdev/.
type InitCmd struct {
	UpdateSkills bool `help:"Also rewrite the installed agent guides that differ from this version's (.specdev/skills/*/SKILL.md; local edits are lost)."`
}

// Run creates what is missing and leaves what exists alone.
func (c *InitCmd) Run(app *App) error {
	root := app.Dir
	if root == "" {
		root = "."
	}
	root, err := filepath.Abs(root)
	if err != nil {
		return err
	}
	if filepath.Base(root) == protocol.StateDir {
		root = filepath.Dir(root)
	}
	created, err := checkpoint.Init(root, skills.FS())
	if err != nil {
		return err
	}
	var updated []string
	if name, err := checkpoint.UpdateGitignore(root); err != nil {
		return err
	} else if name != "" {
		updated = append(updated, name)
	}
	if c.UpdateSkills {
		guides, err := checkpoint.UpdateSkills(root, skills.FS())
		if err != nil {
			return err
		}
		updated = append(updated, guides...)
	}
	dir := filepath.Join(root, protocol.StateDir)
	text := "Already initialized: " + dir + " (nothing changed)"
	state := "unchanged"
	if len(created) > 0 {
		state = "initialized"
		text = fmt.Sprintf("Initialized %s\nCreated:\n  %s", dir, strings.Join(created, "\n  "))
	}
	if len(updated) > 0 {
		if state == "unchanged" {
			state, text = "updated", "Updated in "+dir+":"
		} else {
			text += "\nUpdated:"
		}
		text += "\n  " + strings.Join(updated, "\n  ")
	}
	return app.emit(Result{
		State: state,
		Data:  map[string]any{"dir": dir, "created": orEmpty(created), "updated": orEmpty(updated)},
		Text:  text + "\nAgent guides: .specdev/skills/implementer/SKILL.md, .specdev/skills/reviewer/SKILL.md",
		Next:  "create an assignment folder (mkdir -p .specdev/assignments/00001_my_feature), then: specdev work request --notes \"…\"",
	})
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
		return app.emit(Result{State: "schema", Data: json.RawMessage(data)})
	}
	_, err = app.stdout.Write(data)
	return err
}

// VersionCmd prints the version.
type VersionCmd struct{}

// version is set at build time with -ldflags "-X main.version=…".
var version = ""

// Run prints the version and the Go release it was built with.
func (c *VersionCmd) Run(app *App) error {
	v := version
	if v == "" {
		v = "devel"
		if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" && info.Main.Version != "(devel)" {
			v = info.Main.Version
		}
	}
	return app.emit(Result{
		State: "version",
		Data:  map[string]any{"version": v, "go": runtime.Version(), "protocol_version": protocol.RequestVersion},
		Text:  fmt.Sprintf("specdev %s (%s, protocol version %d)", v, runtime.Version(), protocol.RequestVersion),
	})
}

func orEmpty(list []string) []string {
	if list == nil {
		return []string{}
	}
	return list
}
