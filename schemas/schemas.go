// Package schemas holds the JSON Schemas (draft 2020-12) of every file
// specdev reads, embedded in the binary. `specdev schema <name>` prints them
// so that agents never guess field names.
//
// Invariant: each schema is self-contained (no references to other files),
// and the shared finding definition is identical in every file that has one.
package schemas

import (
	"embed"
	"fmt"
	"sort"
	"strings"
)

//go:embed *.schema.json
var files embed.FS

// Names lists the schemas, e.g. "request", "progress".
func Names() []string {
	entries, _ := files.ReadDir(".")
	var names []string
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(e.Name(), ".schema.json"))
	}
	sort.Strings(names)
	return names
}

// Get returns the schema called name.
func Get(name string) ([]byte, error) {
	data, err := files.ReadFile(name + ".schema.json")
	if err != nil {
		return nil, fmt.Errorf("no schema called %q (known: %s)", name, strings.Join(Names(), ", "))
	}
	return data, nil
}
