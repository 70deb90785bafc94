// Package skills holds the agent guides (SKILL.md files) for the
// implementer and the reviewer, embedded in the binary and installed into
// .specdev/skills/ by specdev init. Invariant: every guide names only
// commands and flags that exist.
package skills

import (
	"embed"
	"io/fs"
)

//go:embed implementer reviewer
var guides embed.FS

// FS returns the guides, one folder per role.
func FS() fs.FS { return guides }
