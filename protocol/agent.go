package protocol

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
)

// The agents specdev starts itself (config.json "agents"), and what a
// request remembers of their runs: the agent session to resume in the
// loop's next round, and what the runs used.

// AgentConfig says how to start one agent. Every path names a value in
// the agent's JSON output (each line of its stdout that is a JSON object
// is read; the last line that has the value wins), by object keys and
// list indexes joined with dots: "usage.input_tokens", "items.0.id".
type AgentConfig struct {
	Argv            []string `json:"argv,omitempty" specdev:"nonzero" check:"argv"`          // the command; the prompt follows as its last argument (or goes to stdin)
	ResumeArgv      []string `json:"resume_argv,omitempty" specdev:"nonzero" check:"argv"`   // the command that resumes a session; one element holds AgentSessionMark
	Prompt          string   `json:"prompt,omitempty" check:"prompt"`                        // "arg" (the default) or "stdin"
	Session         string   `json:"session,omitempty" specdev:"nonzero" check:"agent_path"` // the path of the agent's session id
	InputTokens     string   `json:"input_tokens,omitempty" specdev:"nonzero" check:"agent_path"`
	OutputTokens    string   `json:"output_tokens,omitempty" specdev:"nonzero" check:"agent_path"`
	CacheReadTokens string   `json:"cache_read_tokens,omitempty" specdev:"nonzero" check:"agent_path"`
	Cost            string   `json:"cost_usd,omitempty" specdev:"nonzero" check:"agent_path"`
	Timeout         Duration `json:"timeout,omitzero" specdev:"nonzero" check:"agent_timeout"` // a run that takes longer is killed (default DefaultAgentTimeout)
}

// AgentSessionMark is where resume_argv takes the session id.
const AgentSessionMark = "{session}"

// How an agent gets its prompt.
const (
	PromptArg   = "arg"
	PromptStdin = "stdin"
)

// The bounds of an agent's settings.
const (
	MaxAgents           = 32
	MaxAgentPathParts   = 8
	MaxAgentPathPart    = 64
	DefaultAgentTimeout = time.Hour
)

// AgentTimeoutBounds is the range of an agent's timeout.
var AgentTimeoutBounds = DurationBounds{time.Second, 24 * time.Hour}

// builtinAgents are the agents every project has without a config: their
// command lines and JSON output as the Claude Code and Codex CLI
// documentation describe them (docs/design.md names the versions). A
// config entry of the same name changes the fields it sets.
var builtinAgents = map[string]AgentConfig{
	"claude": {
		Argv:       []string{"claude", "-p", "--output-format", "json"},
		ResumeArgv: []string{"claude", "-p", "--output-format", "json", "--resume", AgentSessionMark},
		Session:    "session_id", InputTokens: "usage.input_tokens", OutputTokens: "usage.output_tokens",
		CacheReadTokens: "usage.cache_read_input_tokens", Cost: "total_cost_usd",
	},
	"codex": {
		Argv:       []string{"codex", "exec", "--json"},
		ResumeArgv: []string{"codex", "exec", "--json", "resume", AgentSessionMark},
		Session:    "thread_id", InputTokens: "usage.input_tokens", OutputTokens: "usage.output_tokens",
		CacheReadTokens: "usage.cached_input_tokens",
	},
}

// BuiltinAgents are the names of the built-in agents, sorted.
var BuiltinAgents = []string{"claude", "codex"}

// Agent returns the agent called name: the config's entry over the
// built-in one of that name, with the defaults applied.
func (c Config) Agent(name string) (AgentConfig, bool) {
	base, builtin := builtinAgents[name]
	own, configured := c.Agents[name]
	if !builtin && !configured {
		return AgentConfig{}, false
	}
	if len(own.Argv) > 0 {
		base.Argv, base.ResumeArgv = own.Argv, own.ResumeArgv // a command of its own resumes only as it says
	} else if len(own.ResumeArgv) > 0 {
		base.ResumeArgv = own.ResumeArgv
	}
	base.Prompt = cmp.Or(own.Prompt, base.Prompt, PromptArg)
	base.Session = cmp.Or(own.Session, base.Session)
	base.InputTokens = cmp.Or(own.InputTokens, base.InputTokens)
	base.OutputTokens = cmp.Or(own.OutputTokens, base.OutputTokens)
	base.CacheReadTokens = cmp.Or(own.CacheReadTokens, base.CacheReadTokens)
	base.Cost = cmp.Or(own.Cost, base.Cost)
	base.Timeout = cmp.Or(own.Timeout, base.Timeout, Duration(DefaultAgentTimeout))
	return base, true
}

// ResumeCommand is the command that resumes session, or nil if the
// agent cannot resume.
func (a AgentConfig) ResumeCommand(session string) []string {
	if len(a.ResumeArgv) == 0 || session == "" {
		return nil
	}
	argv := make([]string, len(a.ResumeArgv))
	for i, arg := range a.ResumeArgv {
		argv[i] = strings.ReplaceAll(arg, AgentSessionMark, session)
	}
	return argv
}

func (a *AgentConfig) shape(c *check) {
	n := 0
	for _, arg := range a.ResumeArgv {
		if strings.Contains(arg, AgentSessionMark) {
			n++
		}
	}
	if len(a.ResumeArgv) > 0 && n != 1 {
		c.failHint("resume_argv", `write it like ["claude", "-p", "--resume", "{session}"]`,
			"must hold %s in exactly one element (it holds it in %d)", AgentSessionMark, n)
	}
}

// agentPath is the schema's pattern of an agent's output path: 1 to
// MaxAgentPathParts parts joined by dots, each 1 to MaxAgentPathPart of
// [A-Za-z0-9_-]. Compiled on first use: only a config with agents needs it.
var agentPath = lazyPattern(fmt.Sprintf(`^[\w-]{1,%d}(\.[\w-]{1,%d}){0,%d}$`, MaxAgentPathPart, MaxAgentPathPart, MaxAgentPathParts-1))

// agentSemantics: an agent that is not built in names its command.
func (c *check) agentSemantics(agents map[string]AgentConfig) {
	for _, name := range slices.Sorted(maps.Keys(agents)) {
		if _, builtin := builtinAgents[name]; !builtin && len(agents[name].Argv) == 0 && c.err == nil {
			c.failHint("agents."+name+".argv", fmt.Sprintf(`give its command, e.g. "argv": [%q, "--json"]`, name),
				"is missing: %s is not a built-in agent (%s)", QuotePrefix(name), strings.Join(BuiltinAgents, ", "))
		}
	}
}

// AgentSession is the agent session that worked on a loop's review (it
// reviewed the previous round, or left this one unfinished), for the
// next run of the same agent to resume.
type AgentSession struct {
	Agent string `json:"agent" specdev:"required" check:"name"`
	ID    string `json:"id" specdev:"required" check:"set_session"`
}

// FallbackAgentSessionLost is the resume_fallback reason of an agent
// whose session could not be resumed: it starts afresh, with the full
// briefing.
const FallbackAgentSessionLost = "agent_session_lost"
