package review

import (
	"context"
	"fmt"
	"time"

	"github.com/specdev/specdev/checkpoint"
	"github.com/specdev/specdev/internal/gitremote"
	"github.com/specdev/specdev/internal/watch"
	"github.com/specdev/specdev/protocol"
)

// With "remote" in config.json, each assignment's review state lives on
// that git remote (internal/gitremote) and the store goes through it on
// every transaction; the operations here only keep the folders on this
// machine up to date with it where they look at many at once (a
// reviewer's poll, status --remote), and wait on it by polling, since git
// cannot tell anyone that a ref moved.

// useRemote connects the store to the remote config.json names, if any.
func useRemote(st *checkpoint.Store) {
	if name := st.Config.Remote; name != "" {
		st.Remote = gitremote.New(st.Root, name)
	}
}

// wait is watch.Wait for an operation's look. With a remote it looks at
// the remote at most remote_poll apart: a quarter of that at first and
// after a change (changed, if given, says a look saw one), doubling
// while nothing changes.
func (s *Service) wait(ctx context.Context, dirs func() []string, look func() (bool, time.Time, error), changed func() bool) error {
	if s.Store.Remote == nil {
		return watch.Wait(ctx, dirs, pollInterval, look)
	}
	most := time.Duration(s.Store.Config.RemotePoll)
	every := most / 4
	paced := func() (bool, time.Time, error) {
		start := time.Now() // the looks start every apart, however long one takes
		done, next, err := look()
		if changed != nil && changed() {
			every = most / 4
		}
		if at := start.Add(every); next.IsZero() || at.Before(next) {
			next = at
		}
		every = min(every*2, most)
		return done, next, err
	}
	return watch.Wait(ctx, dirs, most, paced)
}

// syncRemote brings the folders here up to the remote, if there is one:
// see checkpoint.Store.Sync.
func (s *Service) syncRemote(ctx context.Context) (changed bool, problems []error, err error) {
	if s.Store.Remote == nil {
		return false, nil, nil
	}
	return s.Store.Sync(ctx)
}

// RemoteStatus is Status as the remote holds the assignments, read from
// it without changing the folders here.
func (s *Service) RemoteStatus(ctx context.Context, group string) (Result, error) {
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
		e := checkpoint.Entry{Name: v.Name, Request: v.Snap.Request, Err: v.Err}
		if r := e.Request; r != nil && (r.Status == protocol.StatusInProgress || r.Status == protocol.StatusAwaitingApproval) {
			e.Progress = v.Snap.Progress
		}
		entries = append(entries, e)
	}
	res, err := s.statusOf(entries, group)
	if err == nil {
		res.Text += fmt.Sprintf("As the remote %s holds them (%d assignments).\n", s.Store.Remote.Name(), len(entries))
	}
	return res, err
}
