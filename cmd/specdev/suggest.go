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
	return unknownCommand(ctx.Kong, sel.Parent, word)
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
// group: kong's own error, with the closest commands as it suggests a
// mistyped top-level command, from a trace in which the group has no
// default command to take the word as its argument.
func unknownCommand(k *kong.Kong, group *kong.Node, word string) error {
	msg := "unexpected argument " + word
	def := group.DefaultCmd
	group.DefaultCmd = nil
	if ctx, err := kong.Trace(k, append(strings.Fields(group.Path()), word)); err == nil && ctx.Error != nil {
		msg = ctx.Error.Error()
	}
	group.DefaultCmd = def
	hint := fmt.Sprintf("%s takes the commands %s; run specdev help %s", group.FullPath(), strings.Join(visibleCommands(group), ", "), group.Path())
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
