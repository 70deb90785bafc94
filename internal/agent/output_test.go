package agent

import (
	"strings"
	"testing"

	"github.com/specdev/specdev/protocol"
)

func TestScannerReadsEachAgentsOutput(t *testing.T) {
	claude, _ := protocol.Config{}.Agent("claude")
	codex, _ := protocol.Config{}.Agent("codex")
	mine := protocol.AgentConfig{Session: "meta.ids.1", InputTokens: "u.in"}
	tests := []struct {
		name   string
		agent  protocol.AgentConfig
		output string
		want   reported
	}{
		{"claude's result object", claude,
			`{"type":"result","session_id":"abc","total_cost_usd":0.25,"usage":{"input_tokens":12,"cache_read_input_tokens":300,"output_tokens":7}}` + "\n",
			reported{Session: "abc", Used: protocol.AgentUsage{InputTokens: 12, CacheReadTokens: 300, OutputTokens: 7, CostUSD: 0.25}}},
		{"codex's events, the last line without a newline", codex,
			"{\"type\":\"thread.started\",\"thread_id\":\"th-1\"}\nnot json\n{\"type\":\"turn.completed\",\"usage\":{\"input_tokens\":40,\"cached_input_tokens\":30,\"output_tokens\":2}}",
			reported{Session: "th-1", Used: protocol.AgentUsage{InputTokens: 40, CacheReadTokens: 30, OutputTokens: 2}}},
		{"the last line with a value wins", codex,
			"{\"usage\":{\"input_tokens\":1}}\n{\"usage\":{\"input_tokens\":2}}\n{\"usage\":{}}\n",
			reported{Used: protocol.AgentUsage{InputTokens: 2}}},
		{"list indexes; wrong types and negative counts are ignored", mine,
			`{"meta":{"ids":["x","y"]},"u":{"in":-5}}` + "\n" + `{"meta":{"ids":[1,2]},"u":{"in":"9"}}` + "\n",
			reported{Session: "y"}},
		{"a line past the limit is skipped whole", codex,
			`{"thread_id":"` + strings.Repeat("a", maxLine) + "\"}\n{\"thread_id\":\"ok\"}\n",
			reported{Session: "ok"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &scanner{agent: Agent{AgentConfig: tt.agent}}
			for _, chunk := range chunks(tt.output, 7) { // written in pieces, as a pipe delivers it
				s.Write([]byte(chunk))
			}
			if got := s.result(); got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func chunks(s string, n int) []string {
	var out []string
	for len(s) > n {
		out, s = append(out, s[:n]), s[n:]
	}
	return append(out, s)
}

func FuzzScanner(f *testing.F) {
	f.Add(`{"session_id":"a","usage":{"input_tokens":1e400,"output_tokens":3}}` + "\n{")
	f.Add("{\"total_cost_usd\":-1}\n\n{\"usage\":[1]}")
	claude, _ := protocol.Config{}.Agent("claude")
	f.Fuzz(func(t *testing.T, out string) {
		s := &scanner{agent: Agent{AgentConfig: claude}}
		s.Write([]byte(out))
		got := s.result()
		u := got.Used
		if u.InputTokens < 0 || u.OutputTokens < 0 || u.CacheReadTokens < 0 || u.CostUSD < 0 || u.CostUSD > protocol.MaxCostUSD {
			t.Errorf("out of bounds: %+v", got)
		}
	})
}
