package review

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/specdev/specdev/checkpoint"
	"github.com/specdev/specdev/protocol"
	"github.com/specdev/specdev/skills"
)

// initialized is the data of specdev init.
type initialized struct {
	Created []string `json:"created"`
	Dir     string   `json:"dir"`
	Updated []string `json:"updated"`
}

// Init creates .specdev/ in the project folder dir (or dir itself when it
// is a .specdev folder): what is missing is made, what exists is left
// alone; updateSkills also rewrites the agent guides that differ from
// this version's.
func Init(dir string, updateSkills bool) (Result, error) {
	root, err := filepath.Abs(dir) // "": the working folder
	if err != nil {
		return Result{}, err
	}
	if filepath.Base(root) == protocol.StateDir {
		root = filepath.Dir(root)
	}
	created, err := checkpoint.Init(root, skills.FS())
	if err != nil {
		return Result{}, err
	}
	var updated []string
	if name, err := checkpoint.UpdateGitignore(root); err != nil {
		return Result{}, err
	} else if name != "" {
		updated = append(updated, name)
	}
	if updateSkills {
		guides, err := checkpoint.UpdateSkills(root, skills.FS())
		if err != nil {
			return Result{}, err
		}
		updated = append(updated, guides...)
	}
	state := filepath.Join(root, protocol.StateDir)
	word, text := "unchanged", "Already initialized: "+state+" (nothing changed)"
	switch {
	case len(created) > 0:
		word, text = "initialized", "Initialized "+state+"\nCreated:\n  "+strings.Join(created, "\n  ")
		if len(updated) > 0 {
			text += "\nUpdated:\n  " + strings.Join(updated, "\n  ")
		}
	case len(updated) > 0:
		word, text = "updated", "Updated in "+state+":\n  "+strings.Join(updated, "\n  ")
	}
	return Result{
		State: word,
		Data:  initialized{Dir: state, Created: orEmpty(created), Updated: orEmpty(updated)},
		Text:  text + "\nAgent guides: .specdev/skills/implementer/SKILL.md, .specdev/skills/reviewer/SKILL.md",
		Next:  "create an assignment folder (mkdir -p .specdev/assignments/00001_my_feature), then: specdev work request --notes \"…\"",
	}, nil
}

// ReportData is an assignment's review report.
type ReportData struct {
	AbsolutePath string `json:"absolute_path"`
	Assignment   string `json:"assignment"`
	Content      string `json:"content"` // the report as rendered, without specdev's state mark
	Path         string `json:"path"`    // from the project root
}

// Report brings the caller's assignment's report up to date if a crash
// left it behind (as every view does: a malformed state file is an error
// naming it) and returns it, without specdev's state mark.
func (s *Service) Report(ctx context.Context) (ReportData, error) {
	a, err := s.Target()
	if err != nil {
		return ReportData{}, err
	}
	if _, err := a.Fresh(ctx); err != nil {
		return ReportData{}, err
	}
	data, err := a.Report()
	if err == nil && data == nil {
		return ReportData{}, &checkpoint.StateError{Msg: "no report yet for " + a.Name + ": a report is written once a reviewer claims the review",
			Hint: "see the review's state: specdev work --assignment " + a.Name}
	}
	return ReportData{Assignment: a.Name, Path: a.RelDir() + "/" + checkpoint.ReportFile, AbsolutePath: filepath.Join(a.Dir, checkpoint.ReportFile),
		Content: string(checkpoint.ReportBody(data))}, err
}

// NewSessionID returns a fresh reviewer session id, for a caller that
// claims without one of its own (an MCP connection).
func NewSessionID() string { return checkpoint.NewSessionID() }

// Holding is the session and lease a claim's result gives its caller,
// or "" for a result that claimed nothing.
func (r Result) Holding() (session, lease string) {
	c, _ := ClaimedOf(r)
	return c.Session, c.Lease
}

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
