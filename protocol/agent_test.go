package protocol

import (
	"slices"
	"testing"
	"time"
)

func TestConfigAgent(t *testing.T) {
	c := Config{Agents: map[string]AgentConfig{
		"claude": {Timeout: Duration(time.Minute)},
		"codex":  {Argv: []string{"codex", "exec", "--json", "--full-auto"}},
		"mine":   {Argv: []string{"mine"}, Prompt: PromptStdin},
	}}
	claude, _ := c.Agent("claude")
	if time.Duration(claude.Timeout) != time.Minute || claude.Session != "session_id" || claude.Argv[0] != "claude" {
		t.Errorf("claude with a timeout of its own: %+v", claude)
	}
	if got := claude.ResumeCommand("s-1"); !slices.Equal(got, []string{"claude", "-p", "--output-format", "json", "--resume", "s-1"}) {
		t.Errorf("claude resumes with %q", got)
	}
	codex, _ := c.Agent("codex")
	if codex.ResumeArgv != nil || codex.ResumeCommand("s") != nil || codex.Session != "thread_id" {
		t.Errorf("codex with an argv of its own resumes only as it says: %+v", codex)
	}
	mine, _ := c.Agent("mine")
	if mine.Prompt != PromptStdin || time.Duration(mine.Timeout) != DefaultAgentTimeout || mine.Session != "" {
		t.Errorf("a custom agent: %+v", mine)
	}
	if _, ok := c.Agent("other"); ok {
		t.Error("an unknown agent was found")
	}
	if got := Thousands(-1234567); got != "-1,234,567" {
		t.Errorf("Thousands(-1234567) = %q", got)
	}
}
