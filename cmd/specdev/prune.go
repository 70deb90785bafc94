package main

import (
	"reflect"
	"slices"
	"strings"
)

// Building kong's model of every command is most of a short command's own
// start-up: about 2.5 ms of "specdev version", which must stay within 4x
// an empty Go program, and of an idle "specdev check", within 5x. So parse
// first tries a model of only the commands the words of the command line
// select: otherCommands is the kong.IgnoreFields pattern of the CLI
// fields of the commands they leave out (one pattern: compiling one a
// field cost a tenth of an idle check), or "" if no word names a command.
// Help (help, --help, -h) always gets the whole model: a group's page
// lists its commands.
//
// The smaller model is a part of the whole one, and kong picks a command
// only by its exact name, so a command line the smaller model parses, the
// whole model parses the same way. Anything it refuses is parsed again
// with the whole model, which gives the error, its suggestion and the help
// as always. A group run bare keeps only its default command: no word
// names one of the others, so the whole model cannot select them either.
func otherCommands(args []string) string {
	if slices.ContainsFunc(args, func(arg string) bool { return arg == "help" || arg == "--help" || arg == "-h" }) {
		return ""
	}
	if i := slices.Index(args, "--"); i >= 0 {
		args = args[:i]
	}
	var others []string
	for group, top := reflect.TypeFor[CLI](), true; ; top = false {
		commands := commandFields(group)
		if len(commands) == 0 {
			return pattern(others)
		}
		chosen, rest := namedCommand(commands, args)
		if chosen == nil {
			chosen = defaultCommand(commands)
			if top || chosen == nil {
				return pattern(others)
			}
		}
		for _, f := range commands {
			if f.Name != chosen.Name {
				others = append(others, group.Name()+`\.`+f.Name)
			}
		}
		group, args = chosen.Type, rest
	}
}

// pattern matches exactly the fields named, or is "" for none.
func pattern(fields []string) string {
	if len(fields) == 0 {
		return ""
	}
	return "^(?:" + strings.Join(fields, "|") + ")$"
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
