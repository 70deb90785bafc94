package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/specdev/specdev/internal/preflight"
	"github.com/specdev/specdev/protocol"
)

// maxArgPrompt is the longest prompt passed as an argument: Linux refuses
// a longer single argument (128 KiB). A longer one needs "prompt": "stdin".
const maxArgPrompt = 128<<10 - 1

// waitDelay is how long a run waits for the agent's output to close after
// the agent exited or was killed, in case a process that left its group
// holds it open.
const waitDelay = 2 * time.Second

// job is one run of an agent.
type job struct {
	agent   Agent
	resume  string // the agent session to resume ("": a fresh one)
	prompt  string
	env     []string // SPECDEV_… for the agent's own commands
	root    string   // the project root: where the agent runs
	log     string   // the file its output is appended to
	heading string   // the log's line above this run's output
}

// ran is how a run ended.
type ran struct {
	exit    int    // -1 when killed or never started
	outcome string // for the history: exited, crashed, timed_out, stopped (killed by the caller: its review left it, or specdev stops), not_started
	err     error  // it could not start
	reported
	took time.Duration
}

// crashed: the agent did not end by itself with exit 0.
func (r ran) crashed() bool { return r.outcome != "exited" }

// sessionLost: a run that resumed an agent session failed by itself
// without naming one: the agent no longer has that session.
func (r ran) sessionLost(resumed string) bool {
	return resumed != "" && r.outcome == "crashed" && r.exit > 0 && r.Session == ""
}

// execute runs the job and says how it ended; out reads its output as it
// comes. ctx ends it (with its whole group).
func execute(ctx context.Context, j job, out *scanner) ran {
	argv := j.agent.Argv
	if j.resume != "" {
		argv = j.agent.ResumeCommand(j.resume)
	}
	res := ran{exit: -1, outcome: "not_started"}
	var stdin io.Reader
	switch {
	case j.agent.Prompt == "stdin":
		stdin = strings.NewReader(j.prompt)
	case len(j.prompt) > maxArgPrompt:
		res.err = fmt.Errorf("the prompt is %d bytes, more than an argument may hold; set \"prompt\": \"stdin\" for agent %s in config.json",
			len(j.prompt), j.agent.Name)
		return res
	default:
		argv = append(append([]string{}, argv...), j.prompt)
	}
	log, err := os.OpenFile(j.log, os.O_WRONLY|os.O_APPEND|os.O_CREATE|syscall.O_NOFOLLOW, 0o644) // never through a symlink
	if err != nil {
		res.err = fmt.Errorf("open the agent log: %w", err)
		return res
	}
	defer log.Close()
	fmt.Fprintf(log, "\n=== %s %s\n", time.Now().UTC().Format(time.RFC3339), j.heading)
	runCtx, cancel := context.WithTimeout(ctx, time.Duration(j.agent.Timeout))
	defer cancel()
	cmd := exec.CommandContext(runCtx, argv[0], argv[1:]...)
	cmd.Dir, cmd.Env, cmd.Stdin = j.root, append(os.Environ(), j.env...), stdin
	cmd.Stdout, cmd.Stderr = io.MultiWriter(log, out), log
	cmd.SysProcAttr = preflight.GroupLeader()
	cmd.Cancel = func() error { return preflight.KillGroup(cmd.Process.Pid) }
	cmd.WaitDelay = waitDelay
	begin := time.Now()
	if err := cmd.Start(); err != nil {
		res.err = fmt.Errorf("start agent %s (%s): %w", j.agent.Name, argv[0], err)
		return res
	}
	_ = cmd.Wait() // the exit status is read from ProcessState
	_ = preflight.KillGroup(cmd.Process.Pid)
	res.took = time.Since(begin)
	res.exit = cmd.ProcessState.ExitCode()
	switch {
	case ctx.Err() != nil:
		res.outcome = "stopped"
	case errors.Is(runCtx.Err(), context.DeadlineExceeded):
		res.outcome = "timed_out"
	case res.exit != 0:
		res.outcome = "crashed"
	default:
		res.outcome = "exited"
	}
	res.reported = out.result()
	fmt.Fprintf(log, "=== exit %d after %s\n", res.exit, res.took.Round(time.Millisecond))
	return res
}

// maxLine bounds a line of an agent's output that is read for its
// session and usage; a longer line is skipped (it is still logged).
const maxLine = 4 << 20

// reported is what an agent's output said about its run.
type reported struct {
	Session string
	Used    protocol.AgentUsage // tokens and cost; Runs and DurationMS are the runner's
}

// scanner reads an agent's stdout as it comes: every line that is a JSON
// object is looked into at the agent's paths, and the last line that has
// a value sets it. It is an io.Writer safe to read while written.
type scanner struct {
	agent Agent
	mu    sync.Mutex
	line  []byte
	skip  bool // the current line is past maxLine
	got   reported
}

func (s *scanner) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for rest, ended := p, true; ended; {
		var part []byte
		part, rest, ended = bytes.Cut(rest, []byte("\n"))
		if !s.skip && len(s.line)+len(part) <= maxLine {
			s.line = append(s.line, part...)
		} else {
			s.skip, s.line = true, s.line[:0]
		}
		if ended {
			s.take()
		}
	}
	return len(p), nil
}

// take reads one whole line.
func (s *scanner) take() {
	line := bytes.TrimSpace(s.line)
	skip := s.skip
	s.line, s.skip = s.line[:0], false
	if skip || len(line) == 0 || line[0] != '{' {
		return
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	var doc any
	if dec.Decode(&doc) != nil {
		return
	}
	a := s.agent
	if v, ok := lookup(doc, a.Session).(string); ok && v != "" {
		s.got.Session = v
	}
	for _, f := range []struct {
		path string
		to   *int64
	}{{a.InputTokens, &s.got.Used.InputTokens}, {a.OutputTokens, &s.got.Used.OutputTokens}, {a.CacheReadTokens, &s.got.Used.CacheReadTokens}} {
		if n, ok := lookup(doc, f.path).(json.Number); ok {
			if v, err := n.Int64(); err == nil && v >= 0 && v <= protocol.MaxTokens {
				*f.to = v
			}
		}
	}
	if n, ok := lookup(doc, a.Cost).(json.Number); ok {
		if v, err := n.Float64(); err == nil && v >= 0 && v <= protocol.MaxCostUSD {
			s.got.Used.CostUSD = v
		}
	}
}

// result is what the output said, once the agent has exited (a last line
// without a newline counts).
func (s *scanner) result() reported {
	s.Write([]byte("\n"))
	return s.now()
}

// now is what the output has said so far.
func (s *scanner) now() reported {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.got
}

// lookup follows a path of keys and list indexes ("usage.input_tokens",
// "items.0.id") into a decoded document; nil if it leads nowhere.
func lookup(doc any, path string) any {
	if path == "" {
		return nil
	}
	for _, key := range strings.Split(path, ".") {
		switch v := doc.(type) {
		case map[string]any:
			doc = v[key]
		case []any:
			i, err := strconv.Atoi(key)
			if err != nil || i < 0 || i >= len(v) {
				return nil
			}
			doc = v[i]
		default:
			return nil
		}
	}
	return doc
}
