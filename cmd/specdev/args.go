package main

import (
	"strings"

	"github.com/alecthomas/kong"
)

// rewriteKeyValues turns the seed's form "mode=auto timeout=120" into
// "--mode=auto --timeout=120". Only names of known long flags are
// rewritten, and nothing after "--", so a file called "x=y" can still be
// passed as "./x=y" or after "--".
func rewriteKeyValues(args []string, known map[string]bool) []string {
	out := make([]string, 0, len(args))
	for i, arg := range args {
		if arg == "--" {
			return append(out, args[i:]...)
		}
		name, _, ok := strings.Cut(arg, "=")
		if ok && !strings.HasPrefix(arg, "-") && known[name] {
			arg = "--" + arg
		}
		out = append(out, arg)
	}
	return out
}

// flagNames collects every long flag name of the command tree.
func flagNames(node *kong.Node, into map[string]bool) map[string]bool {
	for _, f := range node.Flags {
		into[f.Name] = true
	}
	for _, child := range node.Children {
		flagNames(child, into)
	}
	return into
}
