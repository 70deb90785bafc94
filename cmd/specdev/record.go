package main

import (
	"cmp"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/specdev/specdev/protocol"
	"github.com/specdev/specdev/review"
)

// CheckRecordCmd marks one file reviewed: the reviewer's checkpoint.
type CheckRecordCmd struct {
	File       string   `arg:"" help:"The reviewed file: relative to the current folder as git reads paths, as the briefing lists it (from the project root), or absolute inside the project." predictor:"file"`
	Finding    []string `help:"A finding as \"SEVERITY: text\" (critical, important, minor); repeat for more." sep:"none" placeholder:"\"SEV: TEXT\""`
	Line       []int    `help:"Line of the finding: once for all findings, or once per --finding in order." sep:"none" placeholder:"N"`
	Suggestion []string `help:"How to fix it: once for all findings, or once per --finding in order." sep:"none" placeholder:"TEXT"`
	Findings   string   `help:"A JSON file of findings (see specdev schema findings), or - for stdin." placeholder:"FILE|-" predictor:"file"`
	Add        bool     `help:"Add these findings to the file's earlier ones instead of replacing them (a finding already recorded is not added twice)."`
	Resolved   []int    `help:"A finding of the previous round that you verified fixed, by its number in the briefing; repeat for more." sep:"none" placeholder:"N"`
}

// Run records the file under the lock, if the session still holds the
// review, with the findings of the flags and of the findings file.
func (c *CheckRecordCmd) Run(app *App) error {
	findings, err := c.flagFindings()
	if err != nil {
		return err
	}
	return app.run(func(s *review.Service) (review.Result, error) {
		if err := cmp.Or(spread("--line", len(c.Line), len(findings), func(i, j int) { findings[i].Line = c.Line[j] }),
			spread("--suggestion", len(c.Suggestion), len(findings), func(i, j int) { findings[i].Suggestion = c.Suggestion[j] })); err != nil {
			return review.Result{}, err
		}
		opt := review.RecordOptions{File: c.File, Add: c.Add, Resolved: c.Resolved, Findings: findings}
		if c.Findings != "" {
			fromFile, label, err := readInput(app, c.Findings, protocol.DecodeFindings)
			if err != nil {
				return review.Result{}, err
			}
			opt.Findings, opt.Source = append(findings, fromFile...), label
		}
		return s.Record(app.ctx, opt)
	})
}

// spread applies n values to the findings: one value to all, or one each.
func spread(flag string, n, findings int, set func(finding, value int)) error {
	switch {
	case n == 0:
	case findings == 0:
		return usage("give "+flag+" together with --finding", flag+" without a --finding")
	case n == 1 || n == findings:
		for i := 0; i < findings; i++ {
			set(i, min(i, n-1))
		}
	default:
		return usage(fmt.Sprintf("give %s once (for all findings) or once per --finding", flag),
			fmt.Sprintf("%d %s values for %d finding%s", n, flag, findings, strings.Repeat("s", min(findings-1, 1)))) // findings >= 1 here
	}
	return nil
}

// readInput reads an agent's input file, or stdin for "-", refusing
// anything larger than the decoders accept, and decodes it; label is the
// name the decoder's errors give it.
func readInput[T any](app *App, name string, decode func(label string, data []byte) (T, error)) (v T, label string, err error) {
	var r io.Reader = app.stdin
	label = "stdin"
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return v, name, usage("give a readable file, or - for stdin", err.Error())
		}
		defer f.Close()
		r, label = f, name
	}
	data, err := io.ReadAll(io.LimitReader(r, protocol.MaxFileSize+1))
	if err != nil {
		return v, label, fmt.Errorf("read %s: %w", label, err)
	}
	v, err = decode(label, data)
	return v, label, err
}

// flagFindings parses --finding, applying the finding rules of the
// schemas to it, --line and --suggestion, and naming the flag that breaks
// one, before anything is read or written. Errors quote at most a short
// prefix of the input.
func (c *CheckRecordCmd) flagFindings() ([]protocol.Finding, error) {
	for _, n := range c.Line {
		if err := protocol.CheckLine(n); err != nil {
			return nil, usage(fmt.Sprintf("give a line from 1 to %d, or 0 for the whole file", protocol.MaxLine), "--line: "+err.Error())
		}
	}
	for _, s := range c.Suggestion {
		if err := review.CheckFlagText("--suggestion", s, protocol.MaxFindingText); err != nil {
			return nil, err
		}
	}
	findings := []protocol.Finding{}
	for _, text := range c.Finding {
		if err := review.CheckFlagText("--finding", text, protocol.MaxFileSize); err != nil {
			return nil, err
		}
		f, err := protocol.ParseFindingFlag(text)
		if err != nil {
			return nil, usage("e.g. --finding \"important: the counter is kept in memory only\"", "--finding: "+err.Error())
		}
		if err := f.Validate(); err != nil {
			return nil, usage("shorten the finding, or give it in a --findings file", "--finding: "+problemOf(err))
		}
		findings = append(findings, f)
	}
	return findings, nil
}

// problemOf is an InvalidError's field and problem, without the file name
// (a flag has none).
func problemOf(err error) string {
	if inv, ok := err.(*protocol.InvalidError); ok {
		return strings.TrimSpace(inv.Field + " " + inv.Problem)
	}
	return err.Error()
}
