package review

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/specdev/specdev/checkpoint"
	"github.com/specdev/specdev/protocol"
)

// Conclusion is a whole review's outcome given in one piece, the way a
// loop runner's reviewer reports it: pass or fail, the intent, and the
// issues, each about a file or about none.
type Conclusion struct {
	Passed            bool
	InterpretedIntent string
	IntentSatisfied   *bool
	Issues            []protocol.Finding // a missing severity is important on a fail, minor on a pass
}

// Conclude writes a conclusion as a reviewer who records every file and
// then gives the verdict would, so the files on disk are the ones the
// command line leaves: each file of the review an issue names is
// recorded with its issues (added to what was recorded for it before);
// each file not yet recorded is recorded without findings (the
// conclusion covers the whole change); issues about no file of the
// review go with the verdict. The input is checked whole before the
// first write. A retry after a failure records nothing twice.
func (s *Service) Conclude(ctx context.Context, c Conclusion) (Result, error) {
	a, h, err := s.heldReview("verdict")
	if err != nil {
		return Result{}, err
	}
	snap, err := a.Fresh(ctx)
	if err != nil {
		return Result{}, err
	}
	var reviewed, files []string // a review the session does not hold is refused by its first write
	found := 0
	if p := snap.Progress; p != nil {
		reviewed, files, found = p.FilesReviewed, append(slices.Clone(p.FilesReviewed), p.FilesRemaining...), p.FindingsSoFar
	}
	byFile, v, err := s.sortIssues(c, files)
	if err != nil {
		return Result{}, err
	}
	if !c.Passed && len(c.Issues) == 0 && found == 0 {
		return Result{}, usage("name at least one issue (file, line, type, description, suggestion)",
			"a fail needs issues: the implementer must know what to fix")
	}
	recorded := []string{}
	for _, f := range files {
		issues, named := byFile[f]
		again := slices.Contains(reviewed, f)
		if again && !named {
			continue
		}
		if _, err := a.Record(ctx, h, checkpoint.FileRecord{File: f, Findings: orEmpty(issues), Add: again}); err != nil {
			return Result{}, fmt.Errorf("record %s: %w", f, err)
		}
		recorded = append(recorded, f)
	}
	res, err := s.Verdict(ctx, v)
	if err != nil {
		return Result{}, err
	}
	res.Text = fmt.Sprintf("Recorded %s of the review.\n%s", plural(len(recorded), "file"), res.Text)
	res.Data = map[string]any{"recorded": recorded, "verdict": res.Data} // the files recorded by this call, in review order
	return res, nil
}

// sortIssues checks every issue and sorts it to its file of the review,
// or to the verdict when it names none of them; a file is read as the
// record command reads it.
func (s *Service) sortIssues(c Conclusion, files []string) (map[string][]protocol.Finding, protocol.Verdict, error) {
	v := protocol.Verdict{Passed: c.Passed, InterpretedIntent: c.InterpretedIntent, IntentSatisfied: c.IntentSatisfied}
	byFile := map[string][]protocol.Finding{}
	for i, f := range c.Issues {
		if f.Severity == "" {
			f.Severity = protocol.SeverityImportant
			if c.Passed {
				f.Severity = protocol.SeverityMinor
			}
		}
		if f.File != "" {
			file, err := recordPath(s.here(), s.workingDir(), f.File)
			if err != nil {
				return nil, v, fmt.Errorf("issues[%d].file: %w", i, err)
			}
			f.File = file
		}
		if err := f.Validate(); err != nil {
			var inv *protocol.InvalidError
			if errors.As(err, &inv) && inv.File == "" {
				inv.File = fmt.Sprintf("issues[%d]", i)
			}
			return nil, v, err
		}
		if slices.Contains(files, f.File) {
			byFile[f.File] = append(byFile[f.File], f)
		} else {
			v.Issues = append(v.Issues, f)
		}
	}
	return byFile, v, v.Validate()
}
