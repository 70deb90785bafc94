package agent

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"sync"

	"github.com/specdev/specdev/protocol"
)

// maxLine bounds a line of an agent's output that is read for its
// session and usage; a longer line is skipped (it is still logged).
const maxLine = 4 << 20

// reported is what an agent's output said about its run.
type reported struct {
	Session   string
	Used      protocol.AgentUsage // tokens and cost; Runs and DurationMS are the runner's
	costKnown bool
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
			s.got.Used.CostUSD, s.got.costKnown = v, true
		}
	}
}

// result is what the output said, once the agent has exited (a last line
// without a newline counts).
func (s *scanner) result() reported {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.line) > 0 {
		s.take()
	}
	return s.got
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
