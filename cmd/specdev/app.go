package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"syscall"
	"time"

	"github.com/alecthomas/kong"
	"github.com/charmbracelet/log"
	"github.com/mattn/go-isatty"

	"github.com/specdev/specdev/checkpoint"
	"github.com/specdev/specdev/report"
)

// App is what every command's Run receives: the global flags, the
// streams, the logger and the clock.
type App struct {
	*Globals
	ctx      context.Context
	stdin    io.Reader
	stdout   io.Writer
	stderr   io.Writer
	log      *log.Logger
	now      func() time.Time
	command  string // e.g. "check record <file>", for lock-holder messages
	terminal bool   // stdin is a terminal: a person is there to answer
	result   *Result
	store    *checkpoint.Store
}

// helpExit unwinds out of kong after it printed --help.
type helpExit int

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	var cli CLI
	// Signals are normal events: every long step gets this context, and a
	// command that stops because of it leaves its state consistent and
	// exits 130.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	app := &App{Globals: &cli.Globals, ctx: ctx, stdin: stdin, stdout: stdout, stderr: stderr, now: time.Now}
	parser, err := kong.New(&cli,
		kong.Name("specdev"),
		kong.Description("Hand review work back and forth between an implementer (specdev work) and a reviewer (specdev check) through files in the repository."),
		kong.Writers(stdout, stderr),
		kong.Exit(func(code int) { panic(helpExit(code)) }),
		kong.Bind(app),
	)
	if err != nil {
		writeError(stdout, stderr, false, err)
		return exitError
	}
	defer func() {
		if r := recover(); r != nil {
			h, ok := r.(helpExit)
			if !ok {
				panic(r)
			}
			code = int(h)
		}
	}()
	args = rewriteKeyValues(args, seedFormOf(parser.Model.Node))
	kctx, err := parser.Parse(args)
	if err != nil {
		writeError(stdout, stderr, slices.Contains(args, "--json"), err)
		return exitUsage
	}
	app.log = newLogger(stderr, cli.LogLevel)
	app.command = kctx.Command()
	app.terminal = isTerminal(stdin)
	if err := kctx.Run(); err != nil {
		if ctx.Err() != nil {
			err = &interruptedError{err}
		}
		writeError(stdout, stderr, cli.JSON, err)
		return exitCode(err)
	}
	if app.result == nil {
		return exitOK
	}
	writeResult(stdout, cli.JSON, *app.result)
	return app.result.Code
}

func newLogger(w io.Writer, level string) *log.Logger {
	lvl, err := log.ParseLevel(level)
	if err != nil {
		lvl = log.WarnLevel
	}
	return log.NewWithOptions(plainWriter{w}, log.Options{Level: lvl, Prefix: "specdev"})
}

// plainWriter hides the terminal behind stderr from the logging library:
// on a terminal it would query the terminal's colours at start-up and hang
// for seconds on one that does not answer. Logs are plain text.
type plainWriter struct{ w io.Writer }

func (p plainWriter) Write(b []byte) (int, error) { return p.w.Write(b) }

// isTerminal reports whether r is a terminal (not merely a character
// device: an agent's stdin is often /dev/null).
func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	return ok && isatty.IsTerminal(f.Fd())
}

// emit sets the command's result; run prints it once the command returns.
func (app *App) emit(res Result) error {
	app.result = &res
	return nil
}

// Store opens the .specdev folder found from the working directory (or
// --dir / SPECDEV_DIR).
func (app *App) Store() (*checkpoint.Store, error) {
	if app.store != nil {
		return app.store, nil
	}
	dir, err := checkpoint.Locate(".", app.Dir)
	if err != nil {
		return nil, err
	}
	st, err := checkpoint.Open(dir)
	if err != nil {
		return nil, err
	}
	st.Now = app.now
	st.Holder = "specdev " + app.command
	if app.Session != "" {
		st.Holder += ", session " + app.Session
	}
	st.Render = report.Render
	st.Logf = app.log.Warnf
	st.Warnf = func(format string, args ...any) { fmt.Fprintf(app.stderr, "specdev: warning: "+format+"\n", args...) }
	app.store = st
	return st, nil
}

// Target is the assignment named by --assignment, or the one with the
// highest name.
func (app *App) Target() (*checkpoint.Assignment, error) {
	st, err := app.Store()
	if err != nil {
		return nil, err
	}
	if app.Assignment != "" {
		return st.Resolve(app.Assignment)
	}
	return st.Latest()
}
