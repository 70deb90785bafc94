package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/alecthomas/kong"
	"github.com/specdev/specdev/review"
)

// Help pages are rendered from kong's model (help.go) plus the examples
// (examples.go): usage of the bare command, its arguments, subcommands,
// flags with defaults, examples, and the global flags apart. Text only,
// fixed width, never a query to the terminal.

// seedForms are the flags the seed documents write as key=value words;
// the usage line shows them that way (mode=auto|manual).
var seedForms = map[string]bool{"mode": true}

// HelpCmd prints the help page of a command.
type HelpCmd struct {
	Command []string `arg:"" optional:"" help:"The command, as words: check record."`
}

// Run prints the page of the named command, or the overview.
func (c *HelpCmd) Run(k *kong.Kong, app *App) error {
	node, err := findCommand(k.Model.Node, c.Command)
	if err != nil {
		return err
	}
	return writeHelp(app.stdout, node)
}

// findCommand walks words down the command tree; an unknown word is a
// usage error with a suggestion.
func findCommand(root *kong.Node, words []string) (*kong.Node, error) {
	node := root
	for _, w := range words {
		next := childNamed(node, w)
		if next == nil {
			return nil, unknownCommand(node, w)
		}
		node = next
	}
	return node, nil
}

func childNamed(node *kong.Node, name string) *kong.Node {
	for _, c := range node.Children {
		if c.Type != kong.CommandNode {
			continue
		}
		if c.Name == name {
			return c
		}
		for _, a := range c.Aliases {
			if a == name {
				return c
			}
		}
	}
	return nil
}

// helpPrinter is kong's HelpPrinter (--help, -h): the page of the selected
// command.
func helpPrinter(_ kong.HelpOptions, ctx *kong.Context) error {
	node := ctx.Selected()
	if node == nil {
		node = ctx.Model.Node
	}
	return writeHelp(ctx.Stdout, node)
}

// writeHelp prints the page of node. The hidden default command of a
// group (check's poll) is described on the group's page.
func writeHelp(w io.Writer, node *kong.Node) error {
	if node.Parent != nil && node.Parent.DefaultCmd == node {
		node = node.Parent
	}
	var p page
	p.usage(node)
	p.description(node)
	p.arguments(node)
	p.commands(node)
	p.flags("FLAGS", commandFlags(node))
	p.examples(node)
	p.flags("GLOBAL FLAGS (every command takes them)", rootOf(node).Flags)
	p.learnMore(node)
	_, err := io.WriteString(w, strings.ReplaceAll(p.String(), nbsp, " "))
	return err
}

func rootOf(node *kong.Node) *kong.Node {
	for node.Parent != nil {
		node = node.Parent
	}
	return node
}

// nodePath is the command's words without the program name ("check
// record"; "" for the root).
func nodePath(node *kong.Node) string { return node.Path() }

// commandFlags are the flags of node, of the groups above it (not the
// root's: those are global), and of its default command, which the bare
// form takes.
func commandFlags(node *kong.Node) []*kong.Flag {
	var out []*kong.Flag
	for n := node; n != nil && n.Type != kong.ApplicationNode; n = n.Parent {
		out = append(append([]*kong.Flag{}, n.Flags...), out...)
	}
	if node.DefaultCmd != nil {
		out = append(out, node.DefaultCmd.Flags...)
	}
	return out
}

type page struct{ strings.Builder }

func (p *page) section(title string) {
	if p.Len() > 0 {
		p.WriteString("\n")
	}
	p.WriteString(title + "\n")
}

func (p *page) usage(node *kong.Node) {
	p.section("USAGE")
	name := rootOf(node).Name
	if node.Type == kong.ApplicationNode {
		fmt.Fprintf(p, "  %s <command> [flags]\n", name)
		return
	}
	path := name + " " + nodePath(node)
	if d := node.DefaultCmd; d != nil {
		fmt.Fprintf(p, "  %s%s\n", path, bareForm(d))
	}
	if visibleChildren(node) != nil {
		fmt.Fprintf(p, "  %s <command> [flags]\n", path)
		return
	}
	fmt.Fprintf(p, "  %s%s [flags]\n", path, positionalSummary(node))
}

// bareForm lists every flag of a group's default command: the usage of
// the group without a subcommand.
func bareForm(d *kong.Node) string {
	var b strings.Builder
	for _, f := range d.Flags {
		if f.Hidden {
			continue
		}
		switch {
		case seedForms[f.Name]:
			fmt.Fprintf(&b, " [%s=%s]", f.Name, placeholder(f))
		case f.IsBool():
			fmt.Fprintf(&b, " [--%s]", f.Name)
		default:
			fmt.Fprintf(&b, " [--%s %s]", f.Name, placeholder(f))
		}
	}
	return b.String() + positionalSummary(d)
}

func positionalSummary(node *kong.Node) string {
	var b strings.Builder
	for _, arg := range node.Positional {
		b.WriteString(" " + argSummary(arg))
	}
	return b.String()
}

// argSummary is <file>, [<outcome>], or the choices when the argument's
// placeholder lists them: [pass|fail].
func argSummary(arg *kong.Positional) string {
	if c := candidates(arg); len(c) > 1 {
		s := strings.Join(c, "|")
		if !arg.Required {
			s = "[" + s + "]"
		}
		return s
	}
	return arg.Summary()
}

func (p *page) description(node *kong.Node) {
	text := node.Help
	if node.Type == kong.ApplicationNode {
		text = rootOf(node).Help
	}
	if d := node.DefaultCmd; d != nil && d.Help != "" {
		text += "\n\nWithout a command, " + rootOf(node).Name + " " + nodePath(node) + " " + lowerFirst(d.Help)
	}
	if node.Detail != "" {
		text += "\n\n" + node.Detail
	}
	if text == "" {
		return
	}
	p.WriteString("\n")
	for i, para := range strings.Split(text, "\n\n") {
		if i > 0 {
			p.WriteString("\n")
		}
		for _, line := range wrap(para, helpWidth) {
			p.WriteString(line + "\n")
		}
	}
}

func lowerFirst(s string) string {
	if s == "" || strings.ToUpper(s[:1]) != s[:1] {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

func (p *page) arguments(node *kong.Node) {
	if len(node.Positional) == 0 {
		return
	}
	p.section("ARGUMENTS")
	var rows [][2]string
	for _, arg := range node.Positional {
		rows = append(rows, [2]string{argSummary(arg), arg.Help})
	}
	p.rows(rows)
}

func visibleChildren(node *kong.Node) []*kong.Node {
	var out []*kong.Node
	for _, c := range node.Children {
		if !c.Hidden && c.Type == kong.CommandNode {
			out = append(out, c)
		}
	}
	return out
}

func (p *page) commands(node *kong.Node) {
	children := visibleChildren(node)
	if children == nil {
		return
	}
	p.section("COMMANDS")
	var rows [][2]string
	for _, c := range children {
		left := c.Name
		if len(c.Children) == 0 {
			left += positionalSummary(c)
		}
		rows = append(rows, [2]string{left, c.Help})
	}
	p.rows(rows)
}

func (p *page) flags(title string, flags []*kong.Flag) {
	var rows [][2]string
	for _, f := range flags {
		if !f.Hidden {
			rows = append(rows, [2]string{flagSummary(f), flagHelp(f)})
		}
	}
	if rows == nil {
		return
	}
	p.section(title)
	p.rows(rows)
}

// flagSummary is "-h, --help", "--timeout D", "--files PATH…" (may be
// repeated), "--[no-]intent-satisfied".
func flagSummary(f *kong.Flag) string {
	s := "--" + f.Name
	if f.IsBool() && f.Tag.Negatable != "" {
		s = "--[no-]" + f.Name
	}
	if f.Short != 0 {
		s = fmt.Sprintf("-%c, %s", f.Short, s)
	}
	if !f.IsBool() && !f.IsCounter() {
		s += " " + placeholder(f)
		if f.IsCumulative() {
			s += "…"
		}
	}
	return s
}

// placeholder is the flag's value as the user writes it: its
// placeholder, its choices (a|b), or its name.
func placeholder(f *kong.Flag) string {
	switch {
	case f.PlaceHolder != "":
		return f.PlaceHolder
	case f.Enum != "":
		return strings.ReplaceAll(f.Enum, ",", "|")
	}
	return strings.ToUpper(f.Name)
}

// flagHelp is the help text with the default and the environment
// variable that also sets the flag.
func flagHelp(f *kong.Flag) string {
	text := f.Help
	var extra []string
	if f.HasDefault && f.Default != "" {
		extra = append(extra, "default:"+nbsp+f.Default)
	}
	for _, env := range f.Envs {
		extra = append(extra, "env:"+nbsp+env)
	}
	if extra != nil {
		text = strings.TrimSuffix(text, ".") + " (" + strings.Join(extra, "; ") + ")."
	}
	return text
}

func (p *page) learnMore(node *kong.Node) {
	p.section("LEARN MORE")
	if visibleChildren(node) != nil {
		path := nodePath(node)
		if path != "" {
			path += " "
		}
		fmt.Fprintf(p, "  %s help %s<command> prints the help of a command.\n", rootOf(node).Name, path)
	}
	// a code and its name stay on one line: joined by a no-break space
	var codes []string
	for code := review.OK; code <= review.Conflict; code++ {
		codes = append(codes, fmt.Sprintf("%d%s%s", code, nbsp, code))
	}
	for _, line := range wrap("Exit codes: "+strings.Join(codes, ", ")+" (the README explains each).", helpWidth-2) {
		p.WriteString("  " + line + "\n")
	}
}
