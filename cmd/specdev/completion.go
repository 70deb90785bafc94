package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/alecthomas/kong"
	"github.com/posener/complete"
	"github.com/willabides/kongplete"

	"github.com/specdev/specdev/protocol"
	"github.com/specdev/specdev/schemas"
)

// Shell completion is kongplete's: the shell runs specdev itself with the
// command line typed so far in COMP_LINE, and kongplete answers from
// kong's model of the CLI, so it offers exactly the commands, flags and
// values the parser accepts. specdev completion SHELL prints the lines
// that tell the shell to ask specdev.

// CompletionCmd prints a shell completion script.
type CompletionCmd struct {
	Shell string `arg:"" enum:"bash,zsh,fish" help:"The shell: bash, zsh or fish."`
}

// completionScripts are kongplete's lines for each shell (it prints them
// for the login shell only); zsh runs bash's completion through
// bashcompinit.
var completionScripts = map[string]string{
	"bash": "complete -C specdev specdev\n",
	"zsh":  "autoload -U +X bashcompinit && bashcompinit\ncomplete -C specdev specdev\n",
	"fish": `function __complete_specdev
    set -lx COMP_LINE (commandline -cp)
    test -z (commandline -ct)
    and set COMP_LINE "$COMP_LINE "
    specdev
end
complete -f -c specdev -a "(__complete_specdev)"
`,
}

// Run prints the script for the shell.
func (c *CompletionCmd) Run(app *App) error {
	_, err := fmt.Fprintf(app.stdout, "# %s completion for specdev: the shell asks specdev (in $PATH) for the words\n%s",
		c.Shell, completionScripts[c.Shell])
	return err
}

// completing reports whether a shell runs specdev for completions.
func completing() bool { return os.Getenv("COMP_LINE") != "" }

// completeLine prints the completions of the command line in COMP_LINE and
// ends the run through kong's Exit; it returns only if it printed none. A
// group's bare form ("specdev check --timeout 5") is not completed:
// kongplete leaves out a group's default command, as it is hidden.
func completeLine(parser *kong.Kong) error {
	kongplete.Complete(parser, kongplete.WithPredictors(map[string]complete.Predictor{
		"file":    complete.PredictFiles("*"),
		"dir":     complete.PredictDirs("*"),
		"mode":    complete.PredictSet("auto", "manual"),
		"effort":  complete.PredictSet(protocol.EffortLevels...),
		"outcome": complete.PredictSet("pass", "fail"),
		"schema":  complete.PredictSet(schemas.Names()...),
		"command": complete.PredictFunc(func(a complete.Args) []string { return commandWords(parser.Model.Node, a) }),
	}))
	return errors.New("shell completion: COMP_LINE holds no command line")
}

// commandWords are the commands "specdev help" can name after the words
// already typed after it.
func commandWords(root *kong.Node, a complete.Args) []string {
	node := root
	for _, w := range a.Completed {
		for _, c := range node.Children {
			if c.Name == w {
				node = c
			}
		}
	}
	return visibleCommands(node)
}
