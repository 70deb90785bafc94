package review

import (
	"fmt"
	"unicode/utf8"

	"github.com/specdev/specdev/protocol"
)

// The checks of flag values against the rules of the files they end up
// in: the same limits and rule functions protocol's Validate applies when
// a transaction commits, so that bad input is refused as a usage error
// naming the flag, before anything is read or written.

// CheckText refuses flag text that is not UTF-8 or longer than max
// characters (a protocol limit such as protocol.MaxTextLength).
func CheckText(flag, value string, max int) error {
	if !utf8.ValidString(value) {
		return usage("pass text in UTF-8", flag+": is not valid UTF-8")
	}
	if err := protocol.CheckText(value, max); err != nil {
		return usage(fmt.Sprintf("shorten it to at most %d characters (or put the detail in a file the reviewer can read)", max),
			flag+": "+err.Error())
	}
	return nil
}

func (c RequestOptions) check() error {
	if err := CheckText("--notes", c.Notes, protocol.MaxTextLength); err != nil {
		return err
	}
	if c.Gate != "" {
		if err := protocol.CheckName(c.Gate); err != nil {
			return usage("use letters, digits, '.', '_' and '-'", "--gate: "+err.Error())
		}
	}
	switch c.Effort {
	case "", "low", "medium", "high", "max":
	default:
		return usage("use --effort low, medium, high or max", "--effort "+protocol.QuotePrefix(c.Effort)+": is not an effort level")
	}
	switch {
	case c.Expect != 0 && c.Group == "":
		return usage("name the group: specdev work request --group NAME --expect N", "--expect says how many loops a group waits for: it needs --group")
	case c.Expect < 0 || c.Expect > protocol.MaxGroupLoops:
		return usage("use --expect 1 or more", fmt.Sprintf("--expect %d: a group has 1 to %d loops", c.Expect, protocol.MaxGroupLoops))
	case c.Group != "":
		return checkGroupFlag(c.Group)
	}
	return nil
}

func checkRounds(rounds int) error {
	if rounds < 1 {
		return usage("use --rounds 1 or more", fmt.Sprintf("--rounds %d: must be at least 1", rounds))
	}
	if protocol.CheckRounds(rounds) != nil {
		return usage("use --rounds 1 or more", fmt.Sprintf("--rounds %d: must be at most %d", rounds, protocol.MaxRound))
	}
	return nil
}
