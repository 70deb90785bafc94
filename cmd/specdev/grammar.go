package main

import (
	"reflect"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Building kong's model is reflection over every command struct and a
// parse of every struct tag, help text included: for the whole CLI that
// was the largest part of a short command's start-up. So a command line
// that names its command is parsed against a grammar holding the global
// flags and only the path to that command: the CLI itself, with kong told
// to skip (kong.SkipFields, a patch of the vendored kong) the command
// fields off the path before it reads their tags. (A pruned copy of the
// CLI's type made with reflect.StructOf did the same, but every reflect
// call on a type made at run time — its pointer type, its methods — looks
// types up by name across the binary, which cost more than it saved.)
// Everything else (no command, --help, help, completion, and any command
// line the pruned grammar refuses) is parsed against the full CLI, so
// errors, suggestions and help always see every command.
//
// Invariant: a pruned parse that succeeds selects the same command with
// the same values as the full parse. The pruned grammar differs from the
// full one only by sibling commands left out, and a sibling is left out
// only when the word at its place names the kept command (or, for a
// group's default command, when no word names any command of the group).

// grammar is the part of the CLI kong builds its model from.
type grammar struct {
	keep map[reflect.Type]int // for each command group on the path, the command field kept; nil: the whole CLI
}

func fullGrammar() grammar { return grammar{} }

func (g grammar) full() bool { return g.keep == nil }

// skip is kong.SkipFields' question: whether field of parent is a command
// off the path.
func (g grammar) skip(parent reflect.Type, field reflect.StructField) bool {
	kept, onPath := g.keep[parent]
	return onPath && field.Index[len(field.Index)-1] != kept && isCommand(field)
}

// grammarFor returns the smallest grammar for args: the path to the
// command args name, or the full CLI when they name none.
func grammarFor(args []string) grammar {
	root := reflect.TypeFor[CLI]()
	words, ok := commandWords(args, globalValueFlags(root))
	if !ok {
		return fullGrammar()
	}
	path := commandPath(root, words)
	if path == nil {
		return fullGrammar()
	}
	g := grammar{keep: make(map[reflect.Type]int, len(path))}
	for t, level := root, 0; level < len(path); level++ {
		g.keep[t] = path[level]
		t = t.Field(path[level]).Type
	}
	return g
}

// commandWords returns the words of args that are not flags or the
// values of global flags, up to "--". ok is false when the full grammar
// is needed anyway: help was asked for.
func commandWords(args []string, valueFlags map[string]bool) (words []string, ok bool) {
	for i := 0; i < len(args); i++ {
		arg := args[i]
		switch {
		case arg == "--":
			return words, true
		case arg == "-h" || arg == "--help":
			return nil, false
		case strings.HasPrefix(arg, "--") && !strings.Contains(arg, "=") && valueFlags[arg[2:]]:
			i++ // the flag's value
		case strings.HasPrefix(arg, "-"):
		default:
			words = append(words, arg)
		}
	}
	return words, true
}

// commandPath returns, level by level, the index of the command field to
// keep; below the last level everything is kept. nil means no pruning.
func commandPath(t reflect.Type, words []string) []int {
	var path []int
	for {
		cmds := commandFields(t)
		if len(cmds) == 0 || hasMethods(t) {
			return path
		}
		i := -1
		if len(words) > 0 {
			i = named(t, cmds, words[0])
		}
		switch {
		case i >= 0:
			words = words[1:]
		case len(path) == 0:
			return nil // the first word names no command
		default:
			// no word names a command here: the default one, if no
			// later word names a sibling
			i = defaultCommand(t, cmds)
			for _, w := range words {
				if named(t, cmds, w) >= 0 {
					i = -1
				}
			}
			if i < 0 {
				return path
			}
		}
		if t.Field(i).Tag.Get("model") == "full" {
			return nil
		}
		path = append(path, i)
		t = t.Field(i).Type
	}
}

func isCommand(f reflect.StructField) bool {
	_, ok := f.Tag.Lookup("cmd")
	return ok
}

func commandFields(t reflect.Type) []int {
	if t.Kind() != reflect.Struct {
		return nil
	}
	var out []int
	for i := 0; i < t.NumField(); i++ {
		if isCommand(t.Field(i)) {
			out = append(out, i)
		}
	}
	return out
}

// hasMethods: a group with methods (a Run of its own, hooks, help) is
// kept whole, since they may look at any of its subcommands.
func hasMethods(t reflect.Type) bool {
	return t.NumMethod() > 0 || reflect.PointerTo(t).NumMethod() > 0
}

// named returns the command field that word names (by name or alias), or -1.
func named(t reflect.Type, cmds []int, word string) int {
	for _, i := range cmds {
		f := t.Field(i)
		if startsLike(f, word) && kongName(f) == word {
			return i
		}
		if aliases := f.Tag.Get("aliases"); aliases != "" {
			for alias := range strings.SplitSeq(aliases, ",") {
				if alias != "" && alias == word {
					return i
				}
			}
		}
	}
	return -1
}

// startsLike: word could be f's kong name, by its first letter (kongName
// lower-cases the field name's first letter and puts no dash before it),
// so that looking a word up among the commands makes one name, not all.
func startsLike(f reflect.StructField, word string) bool {
	if _, ok := f.Tag.Lookup("name"); ok {
		return true
	}
	first, _ := utf8.DecodeRuneInString(f.Name)
	w, _ := utf8.DecodeRuneInString(word)
	return unicode.ToLower(first) == w
}

func defaultCommand(t reflect.Type, cmds []int) int {
	for _, i := range cmds {
		if _, ok := t.Field(i).Tag.Lookup("default"); ok {
			return i
		}
	}
	return -1
}

// globalValueFlags are the long names of the global flags that take a
// value, so that "--session check" is not read as the command "check".
func globalValueFlags(root reflect.Type) map[string]bool {
	g, _ := root.FieldByName("Globals")
	out := map[string]bool{}
	for i := 0; i < g.Type.NumField(); i++ {
		f := g.Type.Field(i)
		if f.Type.Kind() != reflect.Bool {
			out[kongName(f)] = true
		}
	}
	return out
}

// kongName is the name kong gives a field: its name tag, else the field
// name in lower case with dashes between words (LogLevel: log-level).
func kongName(f reflect.StructField) string {
	if name := f.Tag.Get("name"); name != "" {
		return name
	}
	var b strings.Builder
	runes := []rune(f.Name)
	for i, r := range runes {
		if i > 0 && unicode.IsUpper(r) && (unicode.IsLower(runes[i-1]) || i+1 < len(runes) && unicode.IsLower(runes[i+1])) {
			b.WriteByte('-')
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}
