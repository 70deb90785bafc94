package tests

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/specdev/specdev/"

// TestLayers holds the imports to one direction: the command line parses
// and prints, and reaches the store, git, the git remote and the gate
// runner only through the operations layer (review); the store knows
// nothing of the layers above it, nor of git (it calls a remote through
// an interface); the vocabulary (protocol) and the report renderer import
// nothing of ours but the schemas; nothing imports the command line.
func TestLayers(t *testing.T) {
	imports := packageImports(t, "..")
	forbidden := map[string][]string{
		"cmd/specdev": {"checkpoint", "skills", "report", "internal/changeset", "internal/githook", "internal/preflight", "internal/watch", "internal/gitremote"},
		"checkpoint":  {"review", "report", "cmd/specdev", "internal/changeset", "internal/githook", "internal/preflight", "internal/gitremote"},
		"protocol":    {"checkpoint", "review", "report", "internal/changeset", "internal/githook", "internal/preflight", "internal/watch", "internal/gitremote"},
		"report":      {"checkpoint", "review", "internal/changeset", "internal/githook", "internal/preflight", "internal/watch", "internal/gitremote"},
	}
	for pkg, deps := range imports {
		if slices.Contains(deps, "cmd/specdev") {
			t.Errorf("%s imports cmd/specdev: nothing may", pkg)
		}
		for _, bad := range forbidden[pkg] {
			if slices.Contains(deps, bad) {
				t.Errorf("%s imports %s, which it must reach through the layer between them (or not at all)", pkg, bad)
			}
		}
	}
	if len(imports["cmd/specdev"]) == 0 || !slices.Contains(imports["cmd/specdev"], "review") {
		t.Fatalf("cmd/specdev does not import review: the test read the wrong tree (%v)", imports)
	}
}

// packageImports maps each package folder under root (relative, slash
// separated) to the module's packages its non-test files import.
func packageImports(t *testing.T, root string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		pkg := filepath.ToSlash(rel)
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if dep, ok := strings.CutPrefix(p, module); ok && !slices.Contains(out[pkg], dep) {
				out[pkg] = append(out[pkg], dep)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
