package main

import (
	"context"
	"fmt"
	"io"
	"reflect"
	"slices"

	"github.com/alecthomas/kong"

	"github.com/specdev/specdev/review"
)

// App is what every command's Run receives: the global flags, the
// streams and the logger (the clock is the review layer's own).
type App struct {
	*Globals
	ctx      context.Context
	stdin    io.Reader
	stdout   io.Writer
	stderr   io.Writer
	log      *logger
	command  string // e.g. "check record <file>", for lock-holder messages
	terminal bool   // stdin is a terminal: a person is there to answer
	result   *review.Result
}

// helpExit unwinds out of kong after it printed --help.
type helpExit int

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	// Signals are normal events: every long step gets this context, and a
	// command that stops because of it leaves its state consistent and
	// exits 130 (signals.go).
	ctx := &signalContext{}
	defer ctx.release()
	app := &App{ctx: ctx, stdin: stdin, stdout: stdout, stderr: stderr}
	defer func() {
		if r := recover(); r != nil {
			h, ok := r.(helpExit)
			if !ok {
				panic(r)
			}
			code = int(h)
		}
	}()
	if len(args) == 0 {
		args = []string{"--help"} // a bare specdev prints the overview
	}
	kctx, err := parse(app, args)
	if err != nil {
		writeError(stdout, stderr, slices.Contains(args, "--json"), err)
		return exitCode(err)
	}
	app.log = newLogger(stderr, app.LogLevel)
	app.command = kctx.Command()
	app.terminal = isTerminal(stdin)
	noteRenamed(app, kctx)
	if err := kctx.Run(); err != nil {
		if ctx.interrupted() && exitCode(err) != int(review.Interrupted) {
			// what the command left behind is said by the operations
			// that know (a StoppedError); anything else only stopped
			err = &review.StoppedError{What: "stopped by a signal"}
		}
		writeError(stdout, stderr, app.JSON, err)
		return exitCode(err)
	}
	if app.result == nil {
		return exitOK
	}
	writeResult(stdout, app.JSON, *app.result)
	return int(app.result.Code)
}

// parse parses args, with the seed's key=value words rewritten to flags.
// A shell asking for completions (completion.go) is answered here.
func parse(app *App, args []string) (*kong.Context, error) {
	if model := smallerModel(args); model != nil && !completing() { // prune.go
		if parser, err := newParser(app, model); err == nil {
			if kctx, err := parser.Parse(rewriteKeyValues(args, seedFormOf(parser.Model.Node))); err == nil {
				return kctx, nil
			}
		}
	}
	parser, err := newParser(app, &CLI{})
	if err != nil {
		return nil, err
	}
	if completing() {
		return nil, completeLine(parser)
	}
	kctx, err := parser.Parse(rewriteKeyValues(args, seedFormOf(parser.Model.Node)))
	return kctx, withSuggestion(err)
}

// newParser builds kong's model of cli, a *CLI or a smaller model of it
// (prune.go), bound to app.
func newParser(app *App, cli any, options ...kong.Option) (*kong.Kong, error) {
	app.Globals = reflect.ValueOf(cli).Elem().FieldByName("Globals").Addr().Interface().(*Globals)
	parser, err := kong.New(cli, append([]kong.Option{
		kong.Name("specdev"),
		kong.Description("Hand review work back and forth between an implementer (specdev work) and a reviewer (specdev check) through files in the repository."),
		kong.Writers(app.stdout, app.stderr),
		kong.Exit(func(code int) { panic(helpExit(code)) }),
		helpOptions,
		kong.Help(helpPrinter),
		kong.ExplicitGroups([]kong.Group{globalFlags}),
		kong.PostBuild(func(k *kong.Kong) error {
			k.Model.HelpFlag.Group = &globalFlags
			return nil
		}),
		kong.Bind(app),
	}, options...)...)
	if err != nil {
		return nil, fmt.Errorf("building the command line: %w", err)
	}
	return parser, nil
}

// run runs an operation of the review layer on the caller's service
// and keeps its result for run to print.
func (app *App) run(op func(*review.Service) (review.Result, error)) error {
	s, err := app.Service()
	if err != nil {
		return err
	}
	return app.emit(s.Qualify(op(s)))
}

// emit sets the command's result, unless err is set; run prints it once
// the command returns.
func (app *App) emit(res review.Result, err error) error {
	if err == nil {
		app.result = &res
	}
	return err
}

// Service opens the review store found from the working directory (or
// --dir / SPECDEV_DIR) for the caller the global flags name.
func (app *App) Service() (*review.Service, error) {
	s, err := review.Open(review.Options{
		Dir: app.Dir, Holder: "specdev " + app.command, Log: app.log,
		Warn:    func(format string, args ...any) { fmt.Fprintf(app.stderr, "specdev: warning: "+format+"\n", args...) },
		Session: app.Session, Lease: app.Lease, Assignment: app.Assignment,
	})
	if err != nil {
		return nil, err
	}
	if isTerminal(app.stderr) {
		s.Notify = func(note string) { fmt.Fprintln(app.stderr, note) }
	}
	return s, nil
}
