package main

import (
	"strings"
	"time"

	"github.com/alecthomas/kong"

	"github.com/specdev/specdev/protocol"
)

// seedForm is what rewriteKeyValues needs of the command line's model: the
// commands whose bare form takes the seed's "key=value" words, with the
// flags those words may name, and which flags take a value.
type seedForm struct {
	keys      map[string]map[string]bool // "check" -> {"mode", "timeout", …}
	takeValue map[string]bool            // "--notes" takes the next word as its value
}

// seedFormOf reads the seed form from the model: the flags of the default
// subcommand of work and check.
func seedFormOf(root *kong.Node) seedForm {
	sf := seedForm{keys: map[string]map[string]bool{}, takeValue: map[string]bool{}}
	_ = kong.Visit(root, func(v kong.Visitable, next kong.Next) error {
		if f, ok := v.(*kong.Flag); ok && !f.IsBool() {
			sf.takeValue["--"+f.Name] = true
			if f.Short != 0 {
				sf.takeValue["-"+string(f.Short)] = true
			}
		}
		return next(nil)
	})
	for _, child := range root.Children {
		if (child.Name == "work" || child.Name == "check") && child.DefaultCmd != nil {
			keys := map[string]bool{}
			for _, f := range child.DefaultCmd.Flags {
				keys[f.Name] = true
			}
			sf.keys[child.Name] = keys
		}
	}
	return sf
}

// rewriteKeyValues turns the seed's form "specdev check mode=auto
// timeout=120" into "--mode=auto --timeout=120". Only the positional words
// right after a bare work or check are rewritten, and only keys that name
// one of its flags: never a flag's value ("--notes 'timeout=5 is ours'"),
// never an argument of a subcommand ("check record x=y.go"), nothing after
// "--".
func rewriteKeyValues(args []string, sf seedForm) []string {
	out := make([]string, 0, len(args))
	var keys map[string]bool // set once the command word is work or check
	command := ""
	for i := 0; i < len(args); i++ {
		arg := args[i]
		switch {
		case arg == "--":
			return append(out, args[i:]...)
		case strings.HasPrefix(arg, "-"):
			out = append(out, arg)
			if !strings.Contains(arg, "=") && sf.takeValue[arg] && i+1 < len(args) {
				i++
				out = append(out, args[i]) // the flag's value, as it is
			}
			continue
		case command == "":
			command, keys = arg, sf.keys[arg]
		default:
			name, _, ok := strings.Cut(arg, "=")
			if ok && keys[name] {
				arg = "--" + arg
			} else {
				keys = nil // a subcommand or an argument: the bare form is over
			}
		}
		out = append(out, arg)
	}
	return out
}

// Duration is a --timeout value in Go syntax ("2m") or plain seconds
// ("120"), from 0 to 24h (protocol.TimeoutBounds). NaN, infinities,
// negative and longer values are usage errors naming the flag.
type Duration time.Duration

// Decode implements kong.MapperValue; kong prefixes the error with the flag.
func (d *Duration) Decode(ctx *kong.DecodeContext) error {
	var s string
	if err := ctx.Scan.PopValueInto("duration", &s); err != nil {
		return err
	}
	parsed, err := protocol.ParseDurationIn(s, protocol.TimeoutBounds)
	if err != nil {
		return err
	}
	*d = Duration(parsed)
	return nil
}
