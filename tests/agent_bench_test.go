package tests

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/specdev/specdev/protocol"
)

// agentRun is one agent_run of the loop, as the history keeps it.
type agentRun struct {
	round                          int
	role                           string
	prompt, input, cached, outTkns int64
}

// BenchmarkAgentLoop runs specdev loop with the fake agents on a 30-file
// review, three rounds, one fix a round (fail, fail, pass), twice: with
// claude, whose sessions specdev resumes (the reviewer gets the
// follow-up briefing), and with a "fresh" agent of the same command that
// cannot resume (every run a new session with the full prompt). It
// prints, per round and role, the prompt bytes sent and the tokens the
// fake reports: a fresh session reads all its prompt afresh, a resumed
// one reads its transcript from the cache. The fake reviewer puts each
// finding on the first file's first line, which the loop would take for a
// repeat and stop as stuck: stop_on_repeat is off, since the three rounds
// are what is measured.
func BenchmarkAgentLoop(b *testing.B) {
	var resumed, fresh []agentRun
	for b.Loop() {
		resumed = runAgentLoop(b, "claude")
		fresh = runAgentLoop(b, "fresh")
	}
	fmt.Printf("\nagent loop, 30 files, 3 rounds, one fix per round (fake agents):\n")
	fmt.Printf("%-6s %-8s %-12s %13s %13s %11s %8s\n", "round", "mode", "role", "prompt bytes", "fresh tokens", "cache read", "output")
	for i := range resumed {
		for _, m := range []struct {
			name string
			r    agentRun
		}{{"resumed", resumed[i]}, {"fresh", fresh[i]}} {
			fmt.Printf("%-6d %-8s %-12s %13d %13d %11d %8d\n", m.r.round, m.name, m.r.role, m.r.prompt, m.r.input, m.r.cached, m.r.outTkns)
		}
	}
	sum := func(runs []agentRun) (prompt, input, cached int64) {
		for _, r := range runs {
			prompt, input, cached = prompt+r.prompt, input+r.input, cached+r.cached
		}
		return
	}
	rp, ri, rc := sum(resumed)
	fp, fi, fc := sum(fresh)
	fmt.Printf("in all: resumed %d prompt bytes, %d fresh tokens, %d from cache; fresh %d prompt bytes, %d fresh tokens, %d from cache\n",
		rp, ri, rc, fp, fi, fc)
	b.ReportMetric(float64(rp)/float64(fp), "prompt-share-resumed")
	b.ReportMetric(float64(ri)/float64(fi), "fresh-token-share-resumed")
}

// runAgentLoop runs the loop with agent on both sides in a new repository.
func runAgentLoop(b *testing.B, agent string) []agentRun {
	root, fake := b.TempDir(), b.TempDir()
	env := append(withoutSpecdevVars(os.Environ()), "GIT_AUTHOR_NAME=b", "GIT_AUTHOR_EMAIL=b@b", "GIT_COMMITTER_NAME=b",
		"GIT_COMMITTER_EMAIL=b@b", "FAKE_AGENT_DIR="+fake, "PATH="+binDir+string(os.PathListSeparator)+os.Getenv("PATH"))
	must := func(args ...string) string {
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Dir, cmd.Env = root, env
		out, err := cmd.CombinedOutput()
		if err != nil {
			b.Fatalf("%v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	must("git", "init", "-q", "-b", "main")
	must("git", "commit", "-q", "--allow-empty", "-m", "init")
	must("git", "checkout", "-q", "-b", "feature")
	must(specdevBin(), "init")
	assignment := filepath.Join(root, ".specdev", "assignments", "00001_payments")
	if err := os.MkdirAll(assignment, 0o755); err != nil {
		b.Fatal(err)
	}
	writeFiles(b, "", map[string]string{
		filepath.Join(assignment, "plan.md"): "# Payments\nA processor with one handler per payment kind; a retry never pays twice.\n",
		filepath.Join(root, ".specdev", "config.json"): `{"version": 1, "stop_on_repeat": false, "agents": {"fresh": {"argv": ["claude", "-p", "--output-format", "json"],
			"session": "session_id", "input_tokens": "usage.input_tokens", "output_tokens": "usage.output_tokens",
			"cache_read_tokens": "usage.cache_read_input_tokens", "cost_usd": "total_cost_usd"}}}`,
		filepath.Join(fake, "script"): "implement internal/payments/processor/handler_00.go // retries\n" +
			"fail the retry path pays twice\nimplement internal/payments/processor/handler_07.go // pay once\n" +
			"fail the refund is not idempotent\nimplement internal/payments/processor/handler_19.go // refund once\npass\n",
	})
	loopFiles(b, root)
	must("git", "add", "-A")
	must("git", "commit", "-q", "-m", "payments service")
	must(specdevBin(), "loop", "--implementer", agent, "--reviewer", agent)
	var runs []agentRun
	for _, e := range historyOf(b, filepath.Join(assignment, protocol.HistoryFile)) {
		if e.Event != protocol.EventAgentRun {
			continue
		}
		n := func(k string) int64 { f, _ := e.Detail[k].(float64); return int64(f) }
		role, _ := e.Detail["role"].(string)
		runs = append(runs, agentRun{round: e.Round, role: role, prompt: n("prompt_bytes"), input: n("input_tokens"),
			cached: n("cache_read_tokens"), outTkns: n("output_tokens")})
	}
	if len(runs) != 6 {
		b.Fatalf("%s: %d agent runs, want 6 (3 rounds, implementer and reviewer)", agent, len(runs))
	}
	return runs
}

func historyOf(b *testing.B, path string) []protocol.Event {
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	var events []protocol.Event
	for _, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		var e protocol.Event
		if err := json.Unmarshal(line, &e); err != nil {
			b.Fatal(err)
		}
		events = append(events, e)
	}
	return events
}
