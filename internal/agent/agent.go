// Package agent runs coding agents for specdev: a reviewer agent on a
// review it claims (specdev check --agent), and for specdev loop an
// implementer agent too, resuming each agent's own session from run to
// run so that its context and prompt cache carry over.
//
// Invariants:
//   - Every change of state goes through the review package's operations;
//     the agent's own commands (specdev check record, specdev check
//     verdict) find their session, lease and assignment in its
//     environment. Nothing here holds a rule of the review protocol.
//   - An agent runs as an argv from the project root, never through a
//     shell, as the leader of its own process group: when it times out,
//     loses its review or specdev stops, the whole group is killed, and
//     on Linux the kernel kills it if specdev itself is killed.
//   - What an agent prints goes to the assignment's agent.log; what is
//     shown of it (a session id) passes through protocol.SafeText.
package agent

import (
	"cmp"
	"fmt"
	"maps"
	"os/exec"
	"slices"
	"strings"
	"time"

	"github.com/specdev/specdev/protocol"
	"github.com/specdev/specdev/review"
)

// Agent is one configured agent.
type Agent struct {
	Name string
	protocol.AgentConfig
}

// Lookup returns the agent called name: built in, or from config.json.
func Lookup(s *review.Service, name string) (Agent, error) {
	cfg, ok := s.Store.Config.Agent(name)
	if !ok {
		return Agent{}, &protocol.UsageError{Msg: fmt.Sprintf("no agent called %s", protocol.QuotePrefix(name)),
			Hint: "known agents: " + strings.Join(names(s), ", ") + " (specdev agents lists them; config.json \"agents\" adds more)"}
	}
	return Agent{Name: name, AgentConfig: cfg}, nil
}

// names are the agents' names, built in and configured, sorted.
func names(s *review.Service) []string {
	all := slices.AppendSeq(slices.Clone(protocol.BuiltinAgents), maps.Keys(s.Store.Config.Agents))
	slices.Sort(all)
	return slices.Compact(all)
}

// listed is one agent as specdev agents shows it.
type listed struct {
	Name      string   `json:"name"`
	Builtin   bool     `json:"builtin"`
	Command   []string `json:"command"`
	Resume    []string `json:"resume_command,omitempty"`
	Prompt    string   `json:"prompt"`
	Timeout   string   `json:"timeout"`
	Installed bool     `json:"installed"`
	Path      string   `json:"path,omitempty"`
}

// List shows every agent, with whether its program is on PATH.
func List(s *review.Service) review.Result {
	var b strings.Builder
	var all []listed
	for _, name := range names(s) {
		a, _ := Lookup(s, name)
		l := listed{Name: name, Builtin: slices.Contains(protocol.BuiltinAgents, name), Command: a.Argv, Resume: a.ResumeArgv,
			Prompt: a.Prompt, Timeout: protocol.ShortDuration(time.Duration(a.Timeout))}
		if path, err := exec.LookPath(a.Argv[0]); err == nil {
			l.Installed, l.Path = true, path
		}
		all = append(all, l)
		kind := "built in"
		if _, configured := s.Store.Config.Agents[name]; configured {
			kind = map[bool]string{true: "config.json, in place of the built-in", false: "config.json"}[l.Builtin]
		}
		fmt.Fprintf(&b, "%-10s %s (%s; %s)\n", protocol.SafeText(name), protocol.SafeText(strings.Join(a.Argv, " ")), kind,
			protocol.SafeText(cmp.Or(l.Path, "not on PATH")))
	}
	return review.Result{State: "agents", Text: b.String(), Data: map[string]any{"agents": all},
		Next: "review with one: specdev check --agent NAME; or run the whole loop: specdev loop --implementer NAME --reviewer NAME"}
}
