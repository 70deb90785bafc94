package review

import (
	"context"
	"fmt"
	"reflect"
	"strings"

	"github.com/specdev/specdev/checkpoint"
	"github.com/specdev/specdev/internal/gitremote"
	"github.com/specdev/specdev/protocol"
)

// remoteLoops are the loops as the remote c.Remote holds them, for
// specdev gate --remote in CI: the passes reviewers pushed, never the
// state files of this checkout, which the change being judged could
// carry (a forged pass among them). With c.AllowedSigners a pass counts
// only if the commit that recorded it is signed by a key that file
// allows. Without c.Remote: none.
func (s *Service) remoteLoops(ctx context.Context, c GateOptions) ([]*gateCheck, error) {
	if c.Remote == "" {
		return nil, nil
	}
	r, err := s.remoteNamed(c.Remote)
	if err != nil {
		return nil, err
	}
	views, err := s.Store.RemoteViews(ctx, r)
	if err != nil {
		return nil, err
	}
	if views, err = s.namedViews(views, c); err != nil {
		return nil, err
	}
	loops := make([]*gateCheck, 0, len(views))
	for _, v := range views {
		if v.Err != nil {
			return nil, v.Err
		}
		g := &gateCheck{s: s, a: &checkpoint.Assignment{Name: v.Name}, snap: v.Snap, gate: requestGate(v.Snap, c.Gate)}
		if g.rec, g.passed, err = g.record(); err != nil {
			return nil, err
		}
		if g.passed && c.AllowedSigners != "" {
			if g.unsigned = signedPass(ctx, r, v.State, g.gate, c.AllowedSigners); g.unsigned != nil {
				g.passed = false
			}
		}
		loops = append(loops, g)
	}
	return loops, nil
}

// namedViews keeps the assignment --assignment names (in full or by a
// unique prefix), or the members of --group.
func (s *Service) namedViews(views []checkpoint.RemoteView, c GateOptions) ([]checkpoint.RemoteView, error) {
	var kept []checkpoint.RemoteView
	for _, v := range views {
		switch {
		case s.Assignment != "" && v.Name == s.Assignment:
			return []checkpoint.RemoteView{v}, nil
		case s.Assignment != "" && strings.HasPrefix(v.Name, s.Assignment),
			s.Assignment == "" && (c.Group == "" || v.Err != nil || v.Snap.Request.Group == c.Group):
			kept = append(kept, v)
		}
	}
	if s.Assignment != "" && len(kept) != 1 {
		return nil, &checkpoint.NotFoundError{Msg: fmt.Sprintf("the remote %s holds %d assignments matching %q", c.Remote, len(kept), s.Assignment),
			Hint: "name one the remote holds: specdev status --remote lists them"}
	}
	return kept, nil
}

// signedPass checks the signature of the commit that recorded the pass
// of gate that st holds: the oldest of the states before st that hold
// the very same pass record (the later ones carried it on).
func signedPass(ctx context.Context, r *gitremote.Remote, st *checkpoint.RemoteState, gate, signers string) error {
	tip, _ := st.Snapshot(r.Name())
	want, _ := passRecord(tip.Request, gate)
	at := st
	for at.Parent != "" {
		prev, err := r.Read(ctx, st.Ref, at.Parent)
		if err != nil {
			return err
		}
		req, err := protocol.DecodeRequest(protocol.RequestFile, prev.Files[protocol.RequestFile])
		if err != nil {
			break
		}
		if rec, ok := passRecord(req, gate); !ok || !reflect.DeepEqual(rec, want) {
			break
		}
		at = prev
	}
	if err := r.Verify(ctx, at.ID, signers); err != nil {
		return fmt.Errorf("commit %.12s of %s, which recorded it, is not signed by a key in %s (%v)", at.ID, st.Ref, signers, err)
	}
	return nil
}
