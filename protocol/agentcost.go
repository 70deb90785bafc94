package protocol

import (
	"fmt"
	"strconv"
	"time"
)

// AgentUsage is what agent runs used, summed: tokens as each agent
// reports them, the cost when it reports one, and wall time.
type AgentUsage struct {
	Runs            int     `json:"runs" specdev:"required" check:"runs"`
	InputTokens     int64   `json:"input_tokens" specdev:"required" check:"tokens"`
	OutputTokens    int64   `json:"output_tokens" specdev:"required" check:"tokens"`
	CacheReadTokens int64   `json:"cache_read_tokens" specdev:"required" check:"tokens"`
	CostUSD         float64 `json:"cost_usd,omitzero"`
	DurationMS      int64   `json:"duration_ms" specdev:"required" check:"ms"`
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
	s := fmt.Sprintf("%s, %s tokens in (%s from cache), %s out", Plural(u.Runs, "run"), Thousands(u.InputTokens),
		Thousands(u.CacheReadTokens), Thousands(u.OutputTokens))
	if u.CostUSD > 0 {
		s += fmt.Sprintf(", $%.4f", u.CostUSD)
	}
	return s + ", " + ShortDuration(time.Duration(u.DurationMS)*time.Millisecond)
}

func (u *AgentUsage) shape(c *check) {
	if !(u.CostUSD >= 0 && u.CostUSD <= MaxCostUSD) {
		c.fail("cost_usd", "is %v, outside 0 to %v", u.CostUSD, float64(MaxCostUSD))
	}
}

// AgentCost is what a request's agent runs used: in its round, and in
// its loop so far (the rounds since the loop's first request).
type AgentCost struct {
	Round AgentUsage `json:"round" specdev:"required" check:"object"`
	Loop  AgentUsage `json:"loop" specdev:"required" check:"object"`
}

// Thousands writes n with thousands separators: 45,100.
func Thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// Plural is "1 file" or "4 files".
func Plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return itoa(n) + " " + word + "s"
}
