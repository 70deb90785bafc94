// Package review is specdev's operations layer: every operation the
// command line offers — request, claim, record, verdict, approve, reject,
// release, cancel, continue, unblock, gate, status, history, groups — as
// functions with typed options that return a Result. The command line,
// the MCP server and the agent runner are three faces of these
// operations; none of them holds a rule of its own.
//
// Invariants:
//   - Nothing here prints or exits: a Result carries the state, the text
//     for people and agents, the one next step and the outcome's Code;
//     an error carries its Code (CodeOf) and hint (HintOf).
//   - Every value that reaches a file is checked first by the rules the
//     file's reader applies (protocol's Validate), so bad input changes
//     nothing.
//   - Text from agents is made safe (protocol.SafeText) wherever a view
//     shows it.
package review

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"time"
	"unicode/utf8"

	"github.com/specdev/specdev/checkpoint"
	"github.com/specdev/specdev/internal/gitremote"
	"github.com/specdev/specdev/protocol"
	"github.com/specdev/specdev/report"
)

// Logger is where the operations log what a person need not see.
type Logger interface {
	Debug(msg any, keyvals ...any)
	Warnf(format string, args ...any)
}

// Service is one caller's handle on the review store: the store, who
// calls (the reviewer session and lease it holds, the assignment it
// names) and from where, the clock, and where notes go while it waits.
// The command line makes one per process; the MCP server one per
// connection.
type Service struct {
	Store *checkpoint.Store

	Session    string // the caller's reviewer session id ("" for an implementer or a look)
	Lease      string // the lease the caller's claim got
	Assignment string // the assignment the caller names: a full name or a unique prefix ("" for the default)
	Wd         string // the caller's working folder: paths are read from it as git reads them ("" for the project root)
	Checkout   string // the project folder in the caller's worktree of the repository ("" for the project root)

	Log    Logger
	Notify func(note string) // a note while an operation waits (nil: none)
}

// Options says how to open a Service.
type Options struct {
	Dir        string // --dir: the project or its .specdev folder ("" to search upward from Wd)
	Wd         string
	Holder     string // who takes locks, for BUSY messages ("specdev check record")
	Log        Logger
	Warn       func(format string, args ...any) // what a person must see though an operation succeeded
	Session    string
	Lease      string
	Assignment string
}

// Open finds the .specdev folder and opens its store.
func Open(opt Options) (*Service, error) {
	dir, checkout, err := checkpoint.Find(cmp.Or(opt.Wd, "."), opt.Dir)
	if err != nil {
		return nil, err
	}
	st, err := checkpoint.Open(dir)
	if err != nil {
		return nil, err
	}
	st.Holder = opt.Holder
	if opt.Session != "" {
		st.Holder += ", session " + opt.Session
	}
	st.Render = report.Render
	st.Digest = func(ctx context.Context, r *protocol.Request, files []string) (map[string]string, error) {
		root, err := st.CheckoutOf(r)
		if err != nil {
			return nil, err
		}
		sums, err := digestFiles(ctx, root, files, r.Staged)
		return sums.Files, err
	}
	if name := st.Config.Remote; name != "" { // see wait
		st.Remote = gitremote.New(st.Root, name)
	}
	log := cmp.Or(opt.Log, Logger(nopLogger{}))
	st.Logf = log.Warnf
	st.Warnf = opt.Warn
	return &Service{Store: st, Session: opt.Session, Lease: opt.Lease, Assignment: opt.Assignment, Wd: opt.Wd, Checkout: checkout, Log: log}, nil
}

// With returns a copy of s for another caller on the same store.
func (s *Service) With(session, lease, assignment string) *Service {
	c := *s
	c.Session, c.Lease, c.Assignment = session, lease, assignment
	return &c
}

func (s *Service) now() time.Time { return s.Store.Now() }

// checkoutOf is where r's git and file operations run (the caller's
// checkout when there is no request).
func (s *Service) checkoutOf(r *protocol.Request) (string, error) {
	if r == nil {
		return s.here(), nil
	}
	return s.Store.CheckoutOf(r)
}

// here is the caller's checkout of the project: the project root, or the
// project folder in the caller's worktree of the repository.
func (s *Service) here() string { return cmp.Or(s.Checkout, s.Store.Root) }

// checkCaller refuses a session id or lease that no state file may hold,
// before it is used or shown anywhere.
func (s *Service) checkCaller() error {
	if !utf8.ValidString(s.Session) {
		return usage("pass your session id in UTF-8", "--session (or SPECDEV_SESSION): is not valid UTF-8")
	}
	if err := protocol.CheckSession(s.Session); err != nil {
		return usage("choose an id of letters, digits and punctuation, e.g. rv-alice (or let specdev check --new-session make one)",
			"--session (or SPECDEV_SESSION): "+err.Error())
	}
	if err := protocol.CheckLease(s.Lease); err != nil {
		return usage("pass the lease your claim printed (specdev check --session ID prints it again)", "--lease (or SPECDEV_LEASE): "+err.Error())
	}
	return nil
}

// workingDir is the caller's folder, or "" (paths are then read from the
// project root) if it cannot be found.
func (s *Service) workingDir() string {
	if s.Wd != "" {
		return s.Wd
	}
	wd, _ := os.Getwd() // "" on an error
	return wd
}

// Target is the assignment the caller names, or the one with the
// highest name. With a remote, one this machine has no folder of yet is
// copied here from the remote first.
func (s *Service) Target() (*checkpoint.Assignment, error) {
	a, err := s.target()
	if err == nil || !errors.Is(err, checkpoint.ErrNotFound) {
		return a, err
	}
	if _, _, err := s.Store.Sync(context.Background()); err != nil {
		return nil, err
	}
	return s.target()
}

func (s *Service) target() (*checkpoint.Assignment, error) {
	if s.Assignment != "" {
		return s.Store.Resolve(s.Assignment)
	}
	return s.Store.Latest()
}

type nopLogger struct{}

func (nopLogger) Debug(any, ...any)    {}
func (nopLogger) Warnf(string, ...any) {}

// With "remote" in config.json, each assignment's review state lives on
// that git remote (internal/gitremote) and the store goes through it on
// every transaction; the operations here only keep the folders on this
// machine up to date with it where they look at many at once (a
// reviewer's poll, status --remote), and wait on it by polling, since git
// cannot tell anyone that a ref moved (see waitFor).

// RemoteStatus is Status as the remote holds the assignments, read from
// it without changing the folders here.
func (s *Service) RemoteStatus(ctx context.Context, group string) (Result, error) {
	if group != "" { // a --group that is no name is refused before the remote is asked
		if err := checkGroupFlag(group); err != nil {
			return Result{}, err
		}
	}
	if s.Store.Remote == nil {
		return Result{}, usage(`name the git remote that holds the review state in .specdev/config.json, e.g. "remote": "origin"`,
			"status --remote: no remote is set in .specdev/config.json")
	}
	views, err := s.Store.RemoteViews(ctx, s.Store.Remote)
	if err != nil {
		return Result{}, err
	}
	entries := make([]checkpoint.Entry, 0, len(views))
	for _, v := range views {
		entries = append(entries, v.Entry)
	}
	res, err := s.statusOf(entries, group)
	if err == nil {
		res.Text += fmt.Sprintf("As the remote %s holds them (%d assignments).\n", s.Store.Remote.Name(), len(entries))
	}
	return res, err
}
