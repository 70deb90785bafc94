package review

import "github.com/specdev/specdev/protocol"

// parseMode checks a mode= / --mode value; empty means "keep".
func parseMode(s string) (protocol.Mode, error) {
	switch protocol.Mode(s) {
	case "", protocol.ModeAuto, protocol.ModeManual:
		return protocol.Mode(s), nil
	}
	return "", usage("use mode=auto or mode=manual", "unknown mode "+protocol.QuotePrefix(s)+": it must be auto or manual")
}
