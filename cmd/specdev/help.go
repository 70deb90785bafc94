package main

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/alecthomas/kong"
	"github.com/specdev/specdev/review"
)

// helpWidth is the widest a help page gets (narrower on a narrower
// terminal).
const helpWidth = 80

// helpOptions shape kong's help pages: commands before flags, each level
// of subcommands on its own page.
var helpOptions = kong.ConfigureHelp(kong.HelpOptions{
	Compact:             true,
	FlagsLast:           true,
	NoExpandSubcommands: true,
	WrapUpperBound:      helpWidth,
})

// globalFlags are the flags every command takes, listed apart.
var globalFlags = kong.Group{Key: "global", Title: "Global flags:"}

// HelpCmd prints the help page of a command.
type HelpCmd struct {
	Command []string `arg:"" optional:"" help:"The command, as words: check record." predictor:"command"`
}

// Run prints the page that "specdev COMMAND --help" prints.
func (c *HelpCmd) Run(k *kong.Kong) error {
	ctx, err := kong.Trace(k, append(slices.Clone(c.Command), "--help"))
	if err != nil {
		return err
	}
	if ctx.Error != nil {
		return cmp.Or(suggest(ctx.Error, ctx), usage("run specdev help for the commands", ctx.Error.Error()))
	}
	return ctx.PrintUsage(false)
}

// helpPrinter is kong's page (--help, -h, help) with what kong has no
// place for: the bare form of a group with a default command, the
// examples of the command and the exit codes.
func helpPrinter(options kong.HelpOptions, ctx *kong.Context) error {
	node := cmp.Or(ctx.Selected(), ctx.Model.Node)
	if d := node.DefaultCmd; d != nil {
		// kong's page of a group lists neither the help nor the flags of
		// its default command: it gets them for this page
		flags, detail := node.Flags, node.Detail
		node.Flags = append(slices.Clone(flags), d.Flags...)
		node.Detail = bareForm(node)
		defer func() { node.Flags, node.Detail = flags, detail }()
	}
	if err := kong.DefaultHelpPrinter(options, ctx); err != nil {
		return err
	}
	writeExamples(ctx.Stdout, node.Path())
	// a code and its name stay on one line
	words := []string{"Exit", "codes:"}
	for code := review.OK; code <= review.Conflict; code++ {
		words = append(words, fmt.Sprintf("%d %s,", code, code))
	}
	words[len(words)-1] = strings.TrimSuffix(words[len(words)-1], ",")
	_, err := fmt.Fprintf(ctx.Stdout, "\n%s\n", strings.Join(wrap(append(words, "(the README explains each)."), helpWidth), "\n"))
	return err
}

// bareForm describes a group run without a subcommand, which runs its
// default command: what it does, and its usage (the mode flag also in the
// seed's form, mode=auto).
func bareForm(group *kong.Node) string {
	d := group.DefaultCmd
	usage := []string{"specdev", group.Path()}
	for _, f := range d.Flags {
		switch {
		case f.Hidden:
		case f.Name == "mode":
			usage = append(usage, "[mode="+f.FormatPlaceHolder()+"]")
		default:
			usage = append(usage, "["+f.Summary()+"]")
		}
	}
	help := strings.ToLower(d.Help[:1]) + d.Help[1:]
	return "Without a command, specdev " + group.Path() + " " + help + "\n\n    " + strings.Join(wrap(usage, 76), "\n        ")
}

// wrap joins words into lines of at most width characters (a longer word
// gets a line of its own).
func wrap(words []string, width int) []string {
	var lines []string
	line := ""
	for _, word := range words {
		switch {
		case line == "":
			line = word
		case textWidth(line)+1+textWidth(word) > width:
			lines = append(lines, line)
			line = word
		default:
			line += " " + word
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}
