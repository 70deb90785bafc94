package review

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/specdev/specdev/checkpoint"
)

// document is one of the assignment's own Markdown files — its plan,
// notes, a design — which say what the change is for. Every briefing
// names them, the plan first, and tells the reviewer to read them before
// the code: the implementer's notes are a line, the plan is the intent.
type document struct {
	Path  string `json:"path"`  // from the project root
	Bytes int64  `json:"bytes"` // its size, so a reviewer knows what reading it costs
}

// maxDocuments bounds how many are listed; a folder with more says so.
const maxDocuments = 20

// documents lists the Markdown files in the assignment's folder, plan.md
// first, then by name. specdev's own report is not one of them; neither
// is anything but a regular file (a link is never followed).
func documents(a *checkpoint.Assignment) (docs []document, more int) {
	docs = []document{} // --json lists none as []
	entries, err := os.ReadDir(a.Dir)
	if err != nil {
		return docs, 0
	}
	for _, e := range entries {
		name := e.Name()
		if !e.Type().IsRegular() || !strings.EqualFold(filepath.Ext(name), ".md") || name == checkpoint.ReportFile {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		docs = append(docs, document{Path: a.RelDir() + "/" + name, Bytes: info.Size()})
	}
	sort.SliceStable(docs, func(i, j int) bool { return planFirst(docs[i].Path) && !planFirst(docs[j].Path) })
	if len(docs) > maxDocuments {
		return docs[:maxDocuments], len(docs) - maxDocuments
	}
	return docs, 0
}

func planFirst(path string) bool { return strings.EqualFold(filepath.Base(path), "plan.md") }

// size is a file size for people: 812 B, 4.1 KB, 2.3 MB.
func size(n int64) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%d B", n)
	case n < 1000*1000:
		return fmt.Sprintf("%.1f KB", float64(n)/1000)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/1e6)
}

// writeDocuments names the assignment's documents, to read first.
func writeDocuments(b *strings.Builder, d briefingData) {
	if len(d.Documents) == 0 {
		b.WriteString("Plan: none in the assignment folder; the notes are the only statement of intent\n")
		return
	}
	b.WriteString("Read first, for the intent (the assignment's plan and notes):\n")
	writeDocumentList(b, d.Documents, d.MoreDocuments, d.Request.AssignmentPath)
}

// writeDocumentList lists documents with their sizes, and how many more
// the folder dir holds.
func writeDocumentList(b *strings.Builder, docs []document, more int, dir string) {
	for _, doc := range docs {
		fmt.Fprintf(b, "  %s (%s)\n", doc.Path, size(doc.Bytes))
	}
	if more > 0 {
		fmt.Fprintf(b, "  and %d more .md files in %s\n", more, dir)
	}
}
