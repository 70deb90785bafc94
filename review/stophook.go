package review

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/specdev/specdev/protocol"
)

// The review gate as a Claude Code Stop hook: when the agent is about to
// end its turn with work that specdev gate would refuse (unreviewed, or
// reviewed and failed), the hook blocks the stop and tells the agent what
// is open and the commands that move it on. It must never trap the
// agent: it answers at once (no review runs inside it), a stop Claude
// Code already let continue once (stop_hook_active) is never blocked
// again, its own failures let the stop through (said on stderr), and in
// one host session it blocks at most the loop's round limit of times,
// the last time naming the escapes.

// ClaudeStopHook is the hook's name for specdev hook install.
const ClaudeStopHook = "claude-stop"

// stopHookBudget bounds the hook's answer: a stop waits for it.
const stopHookBudget = 800 * time.Millisecond

// StopDecision is the hook's answer: Block with the reason the agent
// reads, or nothing (the stop goes through). Note is for the person, on
// stderr.
type StopDecision struct {
	Block  bool
	Reason string
	Note   string
}

// StopGate decides a Claude Code stop from the hook's input. It never
// returns an error: whatever fails lets the stop through, with a note.
func (s *Service) StopGate(ctx context.Context, input []byte) StopDecision {
	var in struct { // what Claude Code gives a Stop hook on stdin (the fields specdev reads)
		SessionID      string `json:"session_id"`
		StopHookActive bool   `json:"stop_hook_active"`
	}
	if err := json.Unmarshal(input, &in); err != nil {
		return StopDecision{Note: "specdev stop hook: unreadable hook input, the stop goes through: " + protocol.SafeText(err.Error())}
	}
	if in.StopHookActive {
		s.stopOverridden(ctx, in.SessionID)
		return StopDecision{}
	}
	ctx, cancel := context.WithTimeout(ctx, stopHookBudget)
	defer cancel()
	res, err := s.Gate(ctx, GateOptions{})
	if err != nil && CodeOf(err) != Waiting {
		return StopDecision{Note: "specdev stop hook: the review gate could not judge (" + protocol.SafeText(err.Error()) + "); the stop goes through"}
	}
	counter := s.stopCounter(in.SessionID)
	if err == nil && res.Code == OK {
		os.Remove(counter)
		return StopDecision{}
	}
	limit := s.Store.Config.RoundLimit()
	n := readCount(counter) + 1
	if n > limit {
		return StopDecision{Note: fmt.Sprintf("specdev stop hook: blocked %d times in this session, the loop's limit; the stop goes through", limit)}
	}
	writeCount(counter, n)
	return StopDecision{Block: true, Reason: stopReason(res, n, limit)}
}

// stopReason is what the agent reads: the gate's judgement, the commands
// that move the work on, and at the last block the escapes.
func stopReason(res Result, n, limit int) string {
	text := "specdev review gate: the work is not reviewed and passed yet.\n" + strings.TrimRight(res.Text, "\n") + "\n"
	if res.Next != "" {
		text += "Next: " + res.Next + "\n"
	}
	text += "To have it reviewed: specdev work request, then specdev work --timeout 10m (or let a reviewer agent run: specdev check --agent claude).\n"
	if n == limit {
		return text + fmt.Sprintf("This is the last block in this session (%d of %d). If the loop is blocked at its round limit, a human runs specdev work unblock; to turn this gate off: specdev hook uninstall %s.\n",
			n, limit, ClaudeStopHook)
	}
	return text + fmt.Sprintf("(Block %d of at most %d in this session.)\n", n, limit)
}

// stopOverridden records that Claude Code let a blocked stop through,
// in the history of the assignment the gate judges by default.
func (s *Service) stopOverridden(ctx context.Context, session string) {
	a, err := s.Target()
	if err != nil {
		return
	}
	detail := map[string]any{"host_session": session}
	if err := s.With(s.Session, s.Lease, a.Name).RecordAgentEvent(ctx, protocol.EventStopGateOverridden, detail); err != nil {
		s.Log.Warnf("stop hook: could not record %s: %v", protocol.EventStopGateOverridden, err)
	}
}

// stopCounter is the file that counts a host session's blocks: in the
// user's cache folder (machine-local, never in the project), one per
// project and session.
func (s *Service) stopCounter(session string) string {
	dir, err := os.UserCacheDir()
	if err != nil {
		dir = os.TempDir()
	}
	sum := sha256.Sum256([]byte(s.Store.Root + "\x00" + session))
	return filepath.Join(dir, "specdev", "stop-hook", hex.EncodeToString(sum[:12]))
}

func readCount(path string) int {
	data, _ := os.ReadFile(path) // none yet: 0
	n, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil || n < 0 || n > protocol.MaxRound {
		return 0
	}
	return n
}

// writeCount keeps the count; a count that cannot be kept only makes the
// hook block once more than the limit at worst, never trap the agent
// (Claude Code ends a turn itself after a few blocks).
func writeCount(path string, n int) {
	if os.MkdirAll(filepath.Dir(path), 0o700) != nil {
		return
	}
	tmp := path + ".tmp"
	if os.WriteFile(tmp, []byte(strconv.Itoa(n)+"\n"), 0o600) == nil {
		os.Rename(tmp, path)
	}
}
