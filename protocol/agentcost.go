package protocol

import (
	"fmt"
	"strconv"
	"time"
)

// AgentUsage is what agent runs used, summed: tokens as each agent
// reports them, the cost when it reports one, and wall time.
type AgentUsage struct {
	Runs            int     `json:"runs" specdev:"required"`
	InputTokens     int64   `json:"input_tokens" specdev:"required"`
	OutputTokens    int64   `json:"output_tokens" specdev:"required"`
	CacheReadTokens int64   `json:"cache_read_tokens" specdev:"required"`
	CostUSD         float64 `json:"cost_usd,omitzero"`
	DurationMS      int64   `json:"duration_ms" specdev:"required"`
}

// MaxTokens bounds a token count; MaxCostUSD a cost.
const (
	MaxTokens  = 1<<53 - 1
	MaxCostUSD = 1e9
)

// Add returns u with o added.
func (u AgentUsage) Add(o AgentUsage) AgentUsage {
	u.Runs += o.Runs
	u.InputTokens += o.InputTokens
	u.OutputTokens += o.OutputTokens
	u.CacheReadTokens += o.CacheReadTokens
	u.CostUSD += o.CostUSD
	u.DurationMS += o.DurationMS
	return u
}

// String is u for people: "2 runs, 45,100 tokens in (40,000 from cache), 2,100 out, $0.1234, 3m10s".
func (u AgentUsage) String() string {
	s := fmt.Sprintf("%s, %s tokens in (%s from cache), %s out", plural(u.Runs, "run"), Thousands(u.InputTokens),
		Thousands(u.CacheReadTokens), Thousands(u.OutputTokens))
	if u.CostUSD > 0 {
		s += fmt.Sprintf(", $%.4f", u.CostUSD)
	}
	return s + ", " + ShortDuration(time.Duration(u.DurationMS)*time.Millisecond)
}

func (u *AgentUsage) shape(c *check) {
	c.between("runs", int64(u.Runs), 0, MaxRound*MaxRound)
	c.between("input_tokens", u.InputTokens, 0, MaxTokens)
	c.between("output_tokens", u.OutputTokens, 0, MaxTokens)
	c.between("cache_read_tokens", u.CacheReadTokens, 0, MaxTokens)
	if !(u.CostUSD >= 0 && u.CostUSD <= MaxCostUSD) {
		c.fail("cost_usd", "is %v, outside 0 to %v", u.CostUSD, float64(MaxCostUSD))
	}
	c.between("duration_ms", u.DurationMS, 0, MaxDurationMS)
}

// AgentCost is what a request's agent runs used: in its round, and in
// its loop so far (the rounds since the loop's first request).
type AgentCost struct {
	Round AgentUsage `json:"round" specdev:"required"`
	Loop  AgentUsage `json:"loop" specdev:"required"`
}

func (a *AgentCost) shape(c *check) {
	c.sub("round", a.Round.shape)
	c.sub("loop", a.Loop.shape)
}

// Thousands writes n with thousands separators: 45,100.
func Thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return itoa(n) + " " + word + "s"
}
