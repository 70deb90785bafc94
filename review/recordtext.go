package review

import (
	"errors"
	"fmt"
	"slices"

	"github.com/specdev/specdev/checkpoint"
	"github.com/specdev/specdev/internal/changeset"
	"github.com/specdev/specdev/protocol"
)

// recordedText says what a record did to the file's findings, so that
// recording a file again never drops findings silently.
func recordedText(file string, findings []protocol.Finding, rec checkpoint.Recorded, add bool) string {
	now := plural(len(findings), "finding") + severityCounts(findings)
	switch {
	case !rec.Again:
		return fmt.Sprintf("Recorded %s: %s.", file, now)
	case add:
		text := fmt.Sprintf("Added %s to %s: it now has %s.", now, file, plural(len(fileFindings(rec.Progress, file)), "finding"))
		if rec.Skipped > 0 {
			text += fmt.Sprintf(" Left out %d already recorded.", rec.Skipped)
		}
		return text
	case sameFindings(rec.Replaced, findings, file):
		return fmt.Sprintf("Re-recorded %s: the same %s as before; nothing changed.", file, now)
	}
	text := fmt.Sprintf("Re-recorded %s: replaced %s%s with %s.", file,
		plural(len(rec.Replaced), "earlier finding"), severityCounts(rec.Replaced), now)
	if len(rec.Replaced) > 0 {
		text += "\nTo keep a file's earlier findings and add to them, record it with --add."
	}
	return text
}

// sameFindings reports whether a re-record stored exactly what it
// replaced (a retry).
func sameFindings(replaced, findings []protocol.Finding, file string) bool {
	return slices.EqualFunc(replaced, findings, func(old, f protocol.Finding) bool {
		f.File = file
		return old == f
	})
}

// fileFindings are the findings recorded for file.
func fileFindings(p *protocol.Progress, file string) []protocol.Finding {
	var out []protocol.Finding
	for _, f := range p.Findings {
		if f.File == file {
			out = append(out, f)
		}
	}
	return out
}

// recordPath reads the file argument of check record as git reads a path
// from the caller's folder wd (changeset.ProjectPath, the rule work
// request --files follows too). A refused path is a usage error, as a
// file outside the review is.
func recordPath(root, wd, arg string) (string, error) {
	p, err := changeset.ProjectPath(root, wd, arg)
	var inv *protocol.InvalidError
	if errors.As(err, &inv) {
		return "", usage(inv.Hint, inv.Problem)
	}
	return p, err
}
