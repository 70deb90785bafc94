package main

import (
	"cmp"
	"reflect"
	"slices"
	"strings"
)

// Building kong's model of every command is most of a short command's own
// start-up: about 2.5 ms of "specdev version", which must stay within 4x
// an empty Go program, and of an idle "specdev check", within 5x. So parse
// first tries a model of only the commands the words of the command line
// select: smallerModel is a value of a copy of the CLI type made with
// reflect.StructOf, in which each command group keeps only the command
// they name (with the same type, tags and methods), or nil if no word
// names a command. kong's own way to leave fields out, IgnoreFields,
// still reads every field's tag and matches a regular expression against
// each: a fifth of an idle check's allocations.
// Help (help, --help, -h) always gets the whole model: a group's page
// lists its commands.
//
// The smaller model is a part of the whole one, and kong picks a command
// only by its exact name, so a command line the smaller model parses, the
// whole model parses the same way. Anything it refuses is parsed again
// with the whole model, which gives the error, its suggestion and the help
// as always. A group run bare keeps only its default command: no word
// names one of the others, so the whole model cannot select them either.
func smallerModel(args []string) any {
	if slices.ContainsFunc(args, func(arg string) bool { return arg == "help" || arg == "--help" || arg == "-h" }) {
		return nil
	}
	if i := slices.Index(args, "--"); i >= 0 {
		args = args[:i]
	}
	if t := pruned(reflect.TypeFor[CLI](), args, true); t != nil {
		return reflect.New(t).Interface()
	}
	return nil
}

// pruned is group with only the command args name (or, below the top,
// the group's default), itself pruned; nil if that leaves nothing out.
func pruned(group reflect.Type, args []string, top bool) reflect.Type {
	commands := commandFields(group)
	chosen, rest := namedCommand(commands, args)
	if chosen == nil {
		if chosen = defaultCommand(commands); top || chosen == nil {
			return nil
		}
	}
	var fields []reflect.StructField
	for i := range group.NumField() {
		f := group.Field(i)
		if _, cmd := f.Tag.Lookup("cmd"); cmd && f.Name != chosen.Name {
			continue
		}
		if f.Name == chosen.Name {
			f.Type = cmp.Or(pruned(f.Type, rest, false), f.Type)
		}
		fields = append(fields, f)
	}
	return reflect.StructOf(fields)
}

// commandFields are the fields of group that are commands.
func commandFields(group reflect.Type) []reflect.StructField {
	var commands []reflect.StructField
	for i := range group.NumField() {
		if _, ok := group.Field(i).Tag.Lookup("cmd"); ok {
			commands = append(commands, group.Field(i))
		}
	}
	return commands
}

// namedCommand is the command of the first word of args that names one
// of commands, and the words after it; nil if no word does.
func namedCommand(commands []reflect.StructField, args []string) (*reflect.StructField, []string) {
	for i, arg := range args {
		for _, f := range commands {
			name := f.Tag.Get("name")
			if name == "" {
				name = strings.ToLower(f.Name)
			}
			if name == arg {
				return &f, args[i+1:]
			}
		}
	}
	return nil, nil
}

// defaultCommand is the command a group runs bare, or nil.
func defaultCommand(commands []reflect.StructField) *reflect.StructField {
	for _, f := range commands {
		if f.Tag.Get("default") != "" {
			return &f
		}
	}
	return nil
}
