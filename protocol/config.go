package protocol

import (
	"cmp"
	"time"
)

// ConfigFile is the name of the optional settings file in .specdev/.
const ConfigFile = "config.json"

// DefaultPreflightScript is run as the preflight gate when config.json names
// none and the script exists (relative to .specdev/).
const DefaultPreflightScript = "verify-gates.sh"

// Config is .specdev/config.json. Zero fields take their defaults.
type Config struct {
	Version          int      `json:"version,omitzero" specdev:"nonzero" check:"version"`
	StaleAfter       Duration `json:"stale_after,omitzero" specdev:"nonzero" check:"stale_after"`
	LockTimeout      Duration `json:"lock_timeout,omitzero" specdev:"nonzero" check:"lock_timeout"`
	Effort           string   `json:"effort,omitempty" specdev:"nonzero" check:"effort"`
	MaxRounds        int      `json:"max_rounds,omitzero" specdev:"nonzero" check:"config_rounds"`
	Preflight        []string `json:"preflight,omitempty" specdev:"nonzero" check:"argv"`
	PreflightTimeout Duration `json:"preflight_timeout,omitzero" specdev:"nonzero" check:"preflight_timeout"`
	CheckpointEvery  *int     `json:"checkpoint_every,omitempty" check:"checkpoint_every"` // nil: from effort (group.go); 0: never
	StopOnRepeat     *bool    `json:"stop_on_repeat,omitempty"`                            // nil: true (StopsOnRepeat)

	// Remote is the git remote that holds every assignment's review
	// state, for machines that share no disk ("": this folder only).
	Remote       string   `json:"remote,omitempty" specdev:"nonzero" check:"name"`
	RemotePoll   Duration `json:"remote_poll,omitzero" specdev:"nonzero" check:"remote_poll"` // the longest wait between two looks at the remote while waiting
	SignVerdicts bool     `json:"sign_verdicts,omitzero"`                                     // sign the commit of every verdict with git's signing key

	Agents map[string]AgentConfig `json:"agents,omitempty" check:"agents"` // by name; see agent.go
}

// StopsOnRepeat reports whether a rejection whose every blocking finding
// repeats the round before's stops the loop as stuck (default yes).
func (c Config) StopsOnRepeat() bool { return c.StopOnRepeat == nil || *c.StopOnRepeat }

// The defaults of config.json: what an absent field means.
const (
	DefaultStaleAfter       = 15 * time.Minute
	DefaultLockTimeout      = 10 * time.Second
	DefaultEffort           = "medium"
	DefaultPreflightTimeout = 5 * time.Minute
	DefaultRemotePoll       = 2 * time.Second
)

// effortRounds maps an effort level to its review round limit.
var effortRounds = map[string]int{"low": 2, "medium": 3, "high": 4, "max": 5}

// DefaultConfig is what `specdev init` writes.
func DefaultConfig() Config {
	return Config{
		Version:          1,
		StaleAfter:       Duration(DefaultStaleAfter),
		LockTimeout:      Duration(DefaultLockTimeout),
		Effort:           DefaultEffort,
		PreflightTimeout: Duration(DefaultPreflightTimeout),
	}
}

// WithDefaults returns the config with every zero field set to its
// default. The default preflight_timeout is 5m, or half of stale_after
// when that is shorter.
func (c Config) WithDefaults() Config {
	c.StaleAfter = cmp.Or(c.StaleAfter, Duration(DefaultStaleAfter))
	c.LockTimeout = cmp.Or(c.LockTimeout, Duration(DefaultLockTimeout))
	c.Effort = cmp.Or(c.Effort, DefaultEffort)
	c.RemotePoll = cmp.Or(c.RemotePoll, Duration(DefaultRemotePoll))
	// the gate must end within the reviewer's lease (Config.semantics)
	c.PreflightTimeout = cmp.Or(c.PreflightTimeout, min(Duration(DefaultPreflightTimeout), c.StaleAfter/2))
	return c
}

// ForEffort is the config a loop with its own effort level (work request
// --effort) runs by: that level's round limit and checkpoint interval, in
// place of config.json's effort, max_rounds and checkpoint_every. ""
// leaves the config as it is.
func (c Config) ForEffort(effort string) Config {
	if effort != "" {
		c.Effort, c.MaxRounds, c.CheckpointEvery = effort, 0, nil
	}
	return c
}

// RoundLimit is max_rounds if set, else the effort level's limit.
func (c Config) RoundLimit() int {
	return cmp.Or(c.MaxRounds, effortRounds[c.Effort], effortRounds[DefaultEffort]) // every level's limit is above 0
}
