package checkpoint

import (
	"context"

	"github.com/specdev/specdev/protocol"
)

// AgentLogFile is the log of the agents specdev started for an
// assignment, in its folder: their output, run after run.
const AgentLogFile = "agent.log"

// AgentRan records an agent run: its history event (agent_run,
// agent_incomplete or resume_fallback), and, for an agent_run, what it
// used, added to the request's round and loop. keep, if set, is the
// agent session to resume in the loop's next round or to finish this
// review; it is kept only while the run's reviewer session still has a
// say in the loop (it gave the last verdict, or holds or released this
// review), as reviewer_session_id is.
func (a *Assignment) AgentRan(ctx context.Context, session string, keep *protocol.AgentSession, event protocol.EventName,
	used *protocol.AgentUsage, detail map[string]any) error {
	return a.Update(ctx, func(tx *Tx) error {
		r := tx.Request
		if r != nil && used != nil {
			cost := protocol.AgentCost{}
			if r.AgentCost != nil {
				cost = *r.AgentCost
			}
			cost.Round, cost.Loop = cost.Round.Add(*used), cost.Loop.Add(*used)
			r.AgentCost = &cost
		}
		if r != nil && keep != nil && session != "" && (r.ReviewerSessionID == session || holdsOrReleased(tx, session)) {
			k := *keep
			r.AgentSession = &k
		}
		tx.Log(event, session, detail)
		return nil
	})
}

// holdsOrReleased: session holds the request's review, or gave it back
// unfinished.
func holdsOrReleased(tx *Tx, session string) bool {
	r, p := tx.Request, tx.Progress
	active := r.Status == protocol.StatusPending || r.Status == protocol.StatusInProgress
	return active && p != nil && progressBelongs(p, r) && p.SessionID == session
}
