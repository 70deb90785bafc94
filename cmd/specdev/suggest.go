package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/alecthomas/kong"

	"github.com/specdev/specdev/protocol"
)

// withSuggestion makes kong's parse errors usage errors, and improves them
// where kong cannot: a flag given without its value, and a mistyped
// subcommand below a group with a default command ("check recrod"), which
// kong takes as an argument of the default command (its error says only
// "unexpected argument recrod"). kong suggests mistyped top-level commands
// and flags itself.
func withSuggestion(err error) error {
	var pe *kong.ParseError
	if !errors.As(err, &pe) {
		return err
	}
	if better := suggest(pe.Unwrap(), pe.Context); better != nil {
		return better
	}
	return &protocol.UsageError{Msg: err.Error(), Hint: "run specdev --help (or specdev <command> --help) for the commands and flags", Err: err}
}

// suggest is the better error for err, an error of kong's parse of ctx,
// or nil.
func suggest(err error, ctx *kong.Context) error {
	if flag, ok := missingFlagValue(err.Error()); ok {
		return &protocol.UsageError{
			Msg:  flag + " needs a value",
			Hint: fmt.Sprintf("write %s VALUE (or %s=VALUE for a value that starts with -)", flag, flag),
		}
	}
	word, ok := strings.CutPrefix(err.Error(), "unexpected argument ")
	if !ok || strings.ContainsAny(word, " ,") {
		return nil
	}
	sel := ctx.Selected()
	if sel == nil || sel.Parent == nil || sel.Parent.DefaultCmd != sel || !commandLike(word) {
		return nil
	}
	return unknownCommand(sel.Parent, word)
}

// missingFlagValue recognises kong's errors for a flag given without its
// value ("--lease: expected string value but got "EOL" (<EOL>)", or
// "… got "--finding" (long flag); perhaps try …", or "--files: missing
// value, …") and returns the flag.
func missingFlagValue(msg string) (string, bool) {
	flag, rest, ok := strings.Cut(msg, ": ")
	missing := strings.HasPrefix(rest, "missing value") || strings.HasPrefix(rest, "expected ") &&
		(strings.Contains(rest, `got "EOL" (<EOL>)`) || strings.Contains(rest, "(long flag)") || strings.Contains(rest, "(short flag)"))
	return flag, ok && missing && strings.HasPrefix(flag, "-") && !strings.ContainsRune(flag, ' ')
}

// commandLike: a word that could be a mistyped command name (not a file,
// a path or a key=value).
func commandLike(word string) bool {
	return word != "" && strings.Trim(word, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-") == ""
}

// unknownCommand is the usage error for a word that names no command of
// group, with the closest command if one is close.
func unknownCommand(group *kong.Node, word string) error {
	names := visibleCommands(group)
	msg := fmt.Sprintf("unknown command %q for %q", word, group.FullPath())
	if best := closest(word, names); best != "" {
		msg += fmt.Sprintf(", did you mean %q?", best)
	}
	hint := fmt.Sprintf("%s takes the commands %s; run specdev help %s", group.FullPath(), strings.Join(names, ", "), group.Path())
	return &protocol.UsageError{Msg: msg, Hint: hint}
}

// visibleCommands are the names of the commands of group that help lists.
func visibleCommands(group *kong.Node) []string {
	var names []string
	for _, c := range group.Children {
		if !c.Hidden {
			names = append(names, c.Name)
		}
	}
	return names
}

// closest returns the candidate nearest to word if it is near enough to
// be a typo (at most two edits, or a prefix of at least three letters).
func closest(word string, candidates []string) string {
	best, bestDist := "", 3
	for _, c := range candidates {
		if len(word) >= 3 && strings.HasPrefix(c, word) {
			return c
		}
		if d := editDistance(word, c); d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance of a and b, with a swap of two
// neighbouring letters counted as one edit (recrod → record).
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1) // d[i][j]: the distance of ra[:i] and rb[:j]
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}
