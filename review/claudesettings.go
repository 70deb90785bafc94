package review

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/specdev/specdev/internal/shellword"
	"github.com/specdev/specdev/protocol"
)

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
	bin, err := os.Executable()
	if err != nil {
		bin = "specdev"
	}
	return shellword.Word(bin) + ` --dir "$CLAUDE_PROJECT_DIR" ` + stopHookMark
}

// installClaudeStop adds the Stop hook to the settings (changed false
// when it is there already).
func (s *Service) installClaudeStop() (Result, error) {
	path := filepath.Join(s.Store.Root, claudeSettings)
	doc, err := readSettings(path)
	if err != nil {
		return Result{}, err
	}
	stop := stopGroups(doc)
	changed := !hasStopHook(stop)
	if changed {
		entry := map[string]any{"type": "command", "command": stopCommand(), "timeout": 10}
		stop = append(stop, map[string]any{"hooks": []any{entry}})
		setStopGroups(doc, stop)
		if err := writeSettings(path, doc); err != nil {
			return Result{}, err
		}
	}
	text := fmt.Sprintf("Installed the Claude Code Stop hook in %s: a stop with unreviewed or failed work is blocked with what is open and the next commands.\n", claudeSettings)
	if !changed {
		text = fmt.Sprintf("The Claude Code Stop hook is already in %s.\n", claudeSettings)
	}
	text += "It blocks at most the loop's round limit of times in a session and never when Claude Code already continued after a block.\n"
	return Result{State: map[bool]string{true: "installed", false: "unchanged"}[changed], Text: text,
		Data: map[string]any{"settings": claudeSettings, "command": stopCommand()},
		Next: "to turn it off: specdev hook uninstall " + ClaudeStopHook}, nil
}

// uninstallClaudeStop removes specdev's Stop hook entries, and only them.
func (s *Service) uninstallClaudeStop() (Result, error) {
	path := filepath.Join(s.Store.Root, claudeSettings)
	doc, err := readSettings(path)
	if err != nil {
		return Result{}, err
	}
	var kept []any
	removed := 0
	for _, g := range stopGroups(doc) {
		group, _ := g.(map[string]any)
		hooks, _ := group["hooks"].([]any)
		var rest []any
		for _, h := range hooks {
			if isOurs(h) {
				removed++
				continue
			}
			rest = append(rest, h)
		}
		if len(rest) > 0 || len(hooks) == 0 {
			group["hooks"] = rest
			kept = append(kept, g)
		}
	}
	if removed == 0 {
		return Result{State: "not_there", Text: fmt.Sprintf("No specdev Stop hook in %s: nothing to remove.", claudeSettings),
			Next: "to add it: specdev hook install " + ClaudeStopHook}, nil
	}
	setStopGroups(doc, kept)
	if err := writeSettings(path, doc); err != nil {
		return Result{}, err
	}
	return Result{State: "removed", Text: fmt.Sprintf("Removed the specdev Stop hook from %s; the rest of the file is as it was.", claudeSettings),
		Next: "to add it again: specdev hook install " + ClaudeStopHook}, nil
}

// readSettings reads the settings as a JSON object; a missing file is an
// empty one. A symlink is not followed.
func readSettings(path string) (map[string]any, error) {
	info, err := os.Lstat(path)
	if errors.Is(err, os.ErrNotExist) {
		return map[string]any{}, nil
	}
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, &protocol.InvalidError{File: claudeSettings, Problem: "is not a regular file (a symlink?)", Hint: "replace it with a regular file, then install again"}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	doc := map[string]any{}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, &protocol.InvalidError{File: claudeSettings, Problem: "is not a JSON object: " + err.Error(),
			Hint: "fix the file (Claude Code reads it too), then install again; nothing was changed"}
	}
	return doc, nil
}

func writeSettings(path string, doc map[string]any) error {
	data, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp := path + ".specdev-tmp"
	if err := os.WriteFile(tmp, append(data, '\n'), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// stopGroups are the settings' hooks.Stop entries.
func stopGroups(doc map[string]any) []any {
	hooks, _ := doc["hooks"].(map[string]any)
	stop, _ := hooks["Stop"].([]any)
	return stop
}

func setStopGroups(doc map[string]any, stop []any) {
	hooks, _ := doc["hooks"].(map[string]any)
	if hooks == nil {
		hooks = map[string]any{}
		doc["hooks"] = hooks
	}
	if len(stop) == 0 {
		delete(hooks, "Stop")
		if len(hooks) == 0 {
			delete(doc, "hooks")
		}
		return
	}
	hooks["Stop"] = stop
}

func hasStopHook(stop []any) bool {
	for _, g := range stop {
		group, _ := g.(map[string]any)
		hooks, _ := group["hooks"].([]any)
		for _, h := range hooks {
			if isOurs(h) {
				return true
			}
		}
	}
	return false
}

func isOurs(hook any) bool {
	h, _ := hook.(map[string]any)
	cmd, _ := h["command"].(string)
	return strings.HasSuffix(cmd, stopHookMark)
}
