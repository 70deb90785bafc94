package main

import (
	"strings"

	"github.com/alecthomas/kong"
)

// Shell completion scripts are generated from kong's model of the CLI at
// the time they are printed, so they offer exactly the commands and flags
// the parser accepts. The scripts are static (no call back into specdev
// on each Tab): a table of what each command path takes, and a small
// driver per shell that walks the words typed so far.

// CompletionCmd prints a shell completion script.
type CompletionCmd struct {
	Shell string `arg:"" enum:"bash,zsh,fish" help:"The shell: bash, zsh or fish."`
}

// Run prints the script for the shell.
func (c *CompletionCmd) Run(k *kong.Kong, app *App) error {
	spec := completionSpec(k.Model.Node)
	var script string
	switch c.Shell {
	case "bash":
		script = bashScript(spec)
	case "zsh":
		script = zshScript(spec)
	default:
		script = fishScript(spec)
	}
	_, err := app.stdout.Write([]byte(script))
	return err
}

// Special values of a flag or argument: complete file names.
const filesValue = "@files"

// compPath is what one command path takes: "" is the top level, "check
// record" a subcommand; "help check" the words help takes after it.
type compPath struct {
	path     string
	help     string     // the command's one-line help
	commands []compCmd  // subcommands (for help: the commands it can name)
	flags    []compFlag // its own flags and its default command's (not the global ones)
	args     []string   // candidate words of its first argument, or filesValue
}

type compCmd struct{ name, help string }

type compFlag struct {
	name   string
	short  rune
	help   string
	value  bool     // takes a value
	values []string // candidate values, or filesValue
}

type compSpec struct {
	name    string
	paths   []compPath
	globals []compFlag
}

func completionSpec(root *kong.Node) compSpec {
	spec := compSpec{name: root.Name, globals: compFlags(root.Flags)}
	var walk func(n *kong.Node)
	walk = func(n *kong.Node) {
		p := compPath{path: nodePath(n), help: n.Help, commands: compCmds(n), flags: compFlags(commandFlags(n))}
		if n.Type == kong.ApplicationNode {
			p.flags = nil
		}
		if len(n.Positional) > 0 {
			p.args = candidates(n.Positional[0])
		}
		if d := n.DefaultCmd; d != nil && len(d.Positional) > 0 {
			p.args = candidates(d.Positional[0])
		}
		spec.paths = append(spec.paths, p)
		if len(p.commands) > 0 {
			// "help" takes command words: help, help check, …
			spec.paths = append(spec.paths, compPath{path: strings.TrimSpace("help " + p.path), commands: p.commands})
		}
		for _, c := range visibleChildren(n) {
			if c.Name != "help" {
				walk(c)
			}
		}
	}
	walk(root)
	return spec
}

func compCmds(n *kong.Node) []compCmd {
	var out []compCmd
	for _, c := range visibleChildren(n) {
		for _, name := range append([]string{c.Name}, c.Aliases...) {
			if shellWord(name) {
				out = append(out, compCmd{name, c.Help})
			}
		}
	}
	return out
}

func compFlags(flags []*kong.Flag) []compFlag {
	var out []compFlag
	for _, f := range flags {
		if f.Hidden || !shellWord(f.Name) {
			continue
		}
		cf := compFlag{name: f.Name, short: f.Short, help: f.Help, value: !f.IsBool() && !f.IsCounter()}
		if cf.value {
			cf.values = candidates(f.Value)
		}
		out = append(out, cf)
		if f.IsBool() && f.Tag.Negatable == "_" {
			out = append(out, compFlag{name: "no-" + f.Name, help: f.Help})
		}
	}
	return out
}

// candidates are the words a value may be: its enum, the choices of a
// placeholder like auto|manual, file names for a file or path, else none.
func candidates(v *kong.Value) []string {
	if v.Enum != "" {
		return shellWords(strings.Split(v.Enum, ","))
	}
	ph := v.Tag.PlaceHolder
	if v.Flag != nil {
		ph = v.Flag.PlaceHolder
	}
	if alts := strings.Split(ph, "|"); len(alts) > 1 && len(shellWords(alts)) == len(alts) && strings.ToLower(ph) == ph {
		return alts
	}
	lower := strings.ToLower(ph + " " + v.Name)
	if strings.Contains(lower, "file") || strings.Contains(lower, "path") {
		return []string{filesValue}
	}
	return nil
}

// shellWord: a name that needs no quoting in any of the scripts.
func shellWord(s string) bool {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return false
		}
	}
	return s != ""
}

func shellWords(in []string) []string {
	var out []string
	for _, s := range in {
		if shellWord(s) {
			out = append(out, s)
		}
	}
	return out
}
