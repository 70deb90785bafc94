package main

import (
	"fmt"
	"unicode/utf8"

	"github.com/specdev/specdev/protocol"
)

// The checks of flag values against the rules of the files they end up
// in: the same limits and rule functions protocol's Validate applies when
// a transaction commits, so that bad input is refused as a usage error
// naming the flag, before anything is read or written.

// checkText refuses flag text that is not UTF-8 or longer than max
// characters (a protocol limit such as protocol.MaxTextLength).
func checkText(flag, value string, max int) error {
	if !utf8.ValidString(value) {
		return usage("pass text in UTF-8", flag+": is not valid UTF-8")
	}
	if err := protocol.CheckText(value, max); err != nil {
		return usage(fmt.Sprintf("shorten it to at most %d characters (or put the detail in a file the reviewer can read)", max),
			flag+": "+err.Error())
	}
	return nil
}

// checkFlags applies the finding rules of the schemas to --finding,
// --line and --suggestion, naming the flag that breaks one. Errors quote
// at most a short prefix of the input.
func (c *CheckRecordCmd) checkFlags() error {
	for _, n := range c.Line {
		if err := protocol.CheckLine(n); err != nil {
			return usage(fmt.Sprintf("give a line from 1 to %d, or 0 for the whole file", protocol.MaxLine), "--line: "+err.Error())
		}
	}
	for _, s := range c.Suggestion {
		if err := checkText("--suggestion", s, protocol.MaxFindingText); err != nil {
			return err
		}
	}
	for _, text := range c.Finding {
		if !utf8.ValidString(text) {
			return usage("pass text in UTF-8", "--finding: is not valid UTF-8")
		}
		f, err := protocol.ParseFindingFlag(text)
		if err != nil {
			return usage("e.g. --finding \"important: the counter is kept in memory only\"", "--finding: "+err.Error())
		}
		if err := f.Validate(); err != nil {
			return usage("shorten the finding, or give it in a --findings file", "--finding: "+problemOf(err))
		}
	}
	return nil
}

// problemOf is an InvalidError's field and problem, without the file name
// (a flag has none).
func problemOf(err error) string {
	inv, ok := err.(*protocol.InvalidError)
	if !ok {
		return err.Error()
	}
	if inv.Field == "" {
		return inv.Problem
	}
	return inv.Field + " " + inv.Problem
}

func (c *CheckVerdictCmd) checkFlags() error {
	if err := checkText("--summary", c.Summary, protocol.MaxTextLength); err != nil {
		return err
	}
	return checkText("--intent", c.Intent, protocol.MaxTextLength)
}

func (c *WorkRequestCmd) checkFlags() error {
	if err := checkText("--notes", c.Notes, protocol.MaxTextLength); err != nil {
		return err
	}
	if c.Gate != "" {
		if err := protocol.CheckName(c.Gate); err != nil {
			return usage("use letters, digits, '.', '_' and '-'", "--gate: "+err.Error())
		}
	}
	if c.Group != "" {
		return checkGroupFlag(c.Group)
	}
	return nil
}

func (c *WorkContinueCmd) checkFlags() error {
	return checkText("--guidance", c.Guidance, protocol.MaxTextLength)
}

func (c *WorkUnblockCmd) checkFlags() error {
	if c.Rounds < 1 {
		return usage("use --rounds 1 or more", fmt.Sprintf("--rounds %d: must be at least 1", c.Rounds))
	}
	if protocol.CheckRounds(c.Rounds) != nil {
		return usage("use --rounds 1 or more", fmt.Sprintf("--rounds %d: must be at most %d", c.Rounds, protocol.MaxRound))
	}
	return nil
}
