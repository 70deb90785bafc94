package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/specdev/specdev/checkpoint"
	"github.com/specdev/specdev/protocol"
)

// CheckRecordCmd marks one file reviewed: the reviewer's checkpoint.
type CheckRecordCmd struct {
	File       string   `arg:"" help:"The reviewed file, relative to the current folder as git reads paths (from the project root: as the briefing lists it), or absolute inside the project." predictor:"file"`
	Finding    []string `help:"A finding as \"SEVERITY: text\" (critical, important, minor); repeat for more." sep:"none" placeholder:"\"SEV: TEXT\""`
	Line       []int    `help:"Line of the finding: once for all findings, or once per --finding in order." sep:"none" placeholder:"N"`
	Suggestion []string `help:"How to fix it: once for all findings, or once per --finding in order." sep:"none" placeholder:"TEXT"`
	Findings   string   `help:"A JSON file of findings (see specdev schema findings), or - for stdin." placeholder:"FILE|-" predictor:"file"`
	Add        bool     `help:"Add these findings to the file's earlier ones instead of replacing them (a finding already recorded is not added twice)."`
}

// Run records the file under the lock, if the session still holds the review.
func (c *CheckRecordCmd) Run(app *App) error {
	if err := c.checkFlags(); err != nil {
		return err
	}
	a, h, err := heldReview(app, "record")
	if err != nil {
		return err
	}
	file, err := recordPath(app.store.Root, c.File)
	if err != nil {
		return err
	}
	findings, err := c.collect(app, file)
	if err != nil {
		return err
	}
	record := a.Record
	if c.Add {
		record = a.AddFindings
	}
	rec, err := record(app.ctx, h, file, findings)
	if err != nil {
		return err
	}
	p := rec.Progress
	text := fmt.Sprintf("%s\nProgress: %d/%d files reviewed, %s so far.",
		recordedText(file, findings, rec, c.Add), len(p.FilesReviewed), p.FilesTotal, plural(p.FindingsSoFar, "finding"))
	next := verdictNext(h, p.FindingsSoFar)
	if len(p.FilesRemaining) > 0 {
		next = "review " + p.FilesRemaining[0]
	}
	return app.emit(Result{State: "recorded", Text: text, Next: next, Data: map[string]any{
		"assignment": a.Name, "session": h.Session, "file": file, "findings": findings,
		"re_recorded": rec.Again, "added": c.Add, "replaced": orNone(rec.Replaced), "already_recorded": rec.Skipped,
		"file_findings": len(fileFindings(p, file)), "files_reviewed": len(p.FilesReviewed), "files_total": p.FilesTotal, "remaining": orEmpty(p.FilesRemaining),
	}})
}

// heldReview finds the review the caller's session holds: --assignment if
// given (the fencing check follows under the lock), else by session.
func heldReview(app *App, verb string) (*checkpoint.Assignment, checkpoint.Holder, error) {
	h := checkpoint.Holder{Session: app.Session, Lease: app.Lease}
	if app.Session == "" {
		return nil, h, usage("pass the ids the briefing printed: --session rv-… --lease ls-… (or export SPECDEV_SESSION and SPECDEV_LEASE)",
			verb+" needs your reviewer session id")
	}
	st, err := app.Store()
	if err != nil {
		return nil, h, err
	}
	if app.Assignment != "" {
		a, err := st.Resolve(app.Assignment)
		return a, h, err
	}
	a, err := st.HeldBy(app.Session)
	return a, h, err
}

// collect gathers the findings from the flags and the findings file.
func (c *CheckRecordCmd) collect(app *App, file string) ([]protocol.Finding, error) {
	findings := []protocol.Finding{}
	for _, text := range c.Finding {
		f, err := protocol.ParseFindingFlag(text)
		if err != nil {
			return nil, usage("e.g. --finding \"important: the counter is kept in memory only\"", "--finding: "+err.Error())
		}
		findings = append(findings, f)
	}
	if err := spread("--line", len(c.Line), len(findings), func(i, j int) { findings[i].Line = c.Line[j] }); err != nil {
		return nil, err
	}
	if err := spread("--suggestion", len(c.Suggestion), len(findings), func(i, j int) { findings[i].Suggestion = c.Suggestion[j] }); err != nil {
		return nil, err
	}
	if c.Findings == "" {
		return findings, nil
	}
	fromFile, err := readFindings(app, c.Findings, file)
	if err != nil {
		return nil, err
	}
	return append(findings, fromFile...), nil
}

// spread applies n values to the findings: one value to all, or one each.
func spread(flag string, n, findings int, set func(finding, value int)) error {
	switch {
	case n == 0:
	case findings == 0:
		return usage("give "+flag+" together with --finding", flag+" without a --finding")
	case n == 1:
		for i := 0; i < findings; i++ {
			set(i, 0)
		}
	case n == findings:
		for i := 0; i < findings; i++ {
			set(i, i)
		}
	default:
		return usage(fmt.Sprintf("give %s once (for all findings) or once per --finding", flag),
			fmt.Sprintf("%d %s values for %s", n, flag, plural(findings, "finding")))
	}
	return nil
}

func readFindings(app *App, name, file string) ([]protocol.Finding, error) {
	data, label, err := readInput(app, name)
	if err != nil {
		return nil, err
	}
	findings, err := protocol.DecodeFindings(label, data)
	if err != nil {
		return nil, err
	}
	for i, f := range findings {
		if f.File != "" && f.File != file {
			return nil, &protocol.InvalidError{File: label, Field: fmt.Sprintf("[%d].file", i),
				Problem: fmt.Sprintf("names %s, but this records %s", f.File, file),
				Hint:    "leave \"file\" out, or record each file with its own findings"}
		}
	}
	return findings, nil
}

// readInput reads an agent's input file, or stdin for "-", refusing
// anything larger than the decoders accept.
func readInput(app *App, name string) (data []byte, label string, err error) {
	var r io.Reader = app.stdin
	label = "stdin"
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, name, usage("give a readable file, or - for stdin", err.Error())
		}
		defer f.Close()
		r, label = f, name
	}
	data, err = io.ReadAll(io.LimitReader(r, protocol.MaxFileSize+1))
	if err != nil {
		return nil, label, fmt.Errorf("read %s: %w", label, err)
	}
	return data, label, nil
}

func severityCounts(findings []protocol.Finding) string {
	counts := map[protocol.Severity]int{}
	for _, f := range findings {
		counts[f.Severity]++
	}
	var parts []string
	for _, sev := range protocol.Severities {
		if counts[sev] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[sev], sev))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}
