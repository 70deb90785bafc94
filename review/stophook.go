package review

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/specdev/specdev/internal/atomicfile"
	"github.com/specdev/specdev/internal/shellword"
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
	limit, n := s.Store.Config.RoundLimit(), readCount(counter)+1
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
	if os.MkdirAll(filepath.Dir(path), 0o700) == nil {
		atomicfile.Replace(path, []byte(strconv.Itoa(n)+"\n"), 0o600)
	}
}

// The Stop hook lives in the project's .claude/settings.json, which Claude
// Code and its users also write: specdev adds its one entry and removes
// only that, keeping every other key as it is. A file that is not a JSON
// object is an error naming it, and nothing is written.

// claudeSettings is the project's Claude Code settings file.
const claudeSettings = ".claude/settings.json"

// stopHookMark identifies specdev's entry among the Stop hooks.
const stopHookMark = "hook run " + ClaudeStopHook

// stopCommand is the command Claude Code runs: this specdev (on PATH if
// its path is unknown), for the project Claude Code runs in.
func stopCommand() string {
	bin, _ := os.Executable() // "" on an error
	return shellword.Word(cmp.Or(bin, "specdev")) + ` --dir "$CLAUDE_PROJECT_DIR" ` + stopHookMark
}

// claudeStop adds the Stop hook to the settings (install), or removes
// specdev's entries and only them; either keeps every other key.
func (s *Service) claudeStop(install bool) (Result, error) {
	path := filepath.Join(s.Store.Root, claudeSettings)
	doc, err := readSettings(path)
	if err != nil {
		return Result{}, err
	}
	hooks, _ := doc["hooks"].(map[string]any)
	stop, _ := hooks["Stop"].([]any)
	kept, ours := withoutOurs(stop)
	limits := "It blocks at most the loop's round limit of times in a session and never when Claude Code already continued after a block.\n"
	data := map[string]any{"settings": claudeSettings, "command": stopCommand()}
	res := Result{State: "removed", Text: fmt.Sprintf("Removed the specdev Stop hook from %s; the rest of the file is as it was.", claudeSettings),
		Next: "to add it again: specdev hook install " + ClaudeStopHook}
	switch {
	case install && ours > 0:
		return Result{State: "unchanged", Text: fmt.Sprintf("The Claude Code Stop hook is already in %s.\n", claudeSettings) + limits, Data: data,
			Next: "to turn it off: specdev hook uninstall " + ClaudeStopHook}, nil
	case install:
		kept = append(stop, map[string]any{"hooks": []any{map[string]any{"type": "command", "command": stopCommand(), "timeout": 10}}})
		res = Result{State: "installed", Data: data, Next: "to turn it off: specdev hook uninstall " + ClaudeStopHook,
			Text: fmt.Sprintf("Installed the Claude Code Stop hook in %s: a stop with unreviewed or failed work is blocked with what is open and the next commands.\n", claudeSettings) + limits}
	case ours == 0:
		return Result{State: "not_there", Text: fmt.Sprintf("No specdev Stop hook in %s: nothing to remove.", claudeSettings),
			Next: "to add it: specdev hook install " + ClaudeStopHook}, nil
	}
	if hooks == nil {
		hooks = map[string]any{}
	}
	hooks["Stop"], doc["hooks"] = kept, hooks
	if len(kept) == 0 { // no key is left empty
		delete(hooks, "Stop")
	}
	if len(hooks) == 0 {
		delete(doc, "hooks")
	}
	return res, writeSettings(path, doc)
}

// readSettings reads the settings as a JSON object; a missing file is an
// empty one. A symlink is not followed.
func readSettings(path string) (map[string]any, error) {
	info, err := os.Lstat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return map[string]any{}, nil
	case err != nil:
		return nil, err
	case !info.Mode().IsRegular():
		return nil, &protocol.InvalidError{File: claudeSettings, Problem: "is not a regular file (a symlink?)", Hint: "replace it with a regular file, then install again"}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil || doc == nil { // JSON null decodes to no map at all
		return nil, &protocol.InvalidError{File: claudeSettings, Problem: "is not a JSON object: " + cmp.Or(err, errors.New("it is null")).Error(),
			Hint: "fix the file (Claude Code reads it too), then install again; nothing was changed"}
	}
	return doc, nil
}

func writeSettings(path string, doc map[string]any) error {
	data, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Replace(path, append(data, '\n'), 0o644)
}

// withoutOurs is the Stop groups without specdev's entries (a group
// left with no entry goes), and how many it left out. It changes the
// groups it keeps in place: the document is written only when it
// removed something (uninstall), or not at all.
func withoutOurs(stop []any) (kept []any, removed int) {
	for _, g := range stop {
		group, _ := g.(map[string]any)
		hooks, _ := group["hooks"].([]any)
		rest := slices.DeleteFunc(slices.Clone(hooks), isOurs)
		removed += len(hooks) - len(rest)
		switch {
		case len(rest) == len(hooks):
			kept = append(kept, g)
		case len(rest) > 0:
			group["hooks"] = rest
			kept = append(kept, group)
		}
	}
	return kept, removed
}

func isOurs(hook any) bool {
	h, _ := hook.(map[string]any)
	cmd, _ := h["command"].(string)
	return strings.HasSuffix(cmd, stopHookMark)
}
