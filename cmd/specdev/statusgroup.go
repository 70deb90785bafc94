package main

import (
	"github.com/specdev/specdev/checkpoint"
)

// `specdev status --group NAME`: the table of the group's assignments
// only, and one line that sums the group up. An assignment that cannot be
// read stays in the table (it may belong to the group; status names its
// error and exits 7, as without --group).

// checkFlags refuses a --group that is no name, before anything is read.
func (c *StatusCmd) checkFlags() error {
	if c.Group == "" {
		return nil
	}
	return checkGroupFlag(c.Group)
}

// inGroup keeps the group's members and the unreadable assignments; all
// of them without --group. A group nobody is in is a usage error.
func (c *StatusCmd) inGroup(entries []checkpoint.Entry) ([]checkpoint.Entry, error) {
	if c.Group == "" {
		return entries, nil
	}
	members, unreadable := checkpoint.GroupOf(entries, c.Group)
	if len(members) == 0 && len(unreadable) == 0 {
		return nil, noSuchGroup(c.Group, entries)
	}
	return append(members, unreadable...), nil
}

// summarize adds the group's summary line after the table, and to the
// --json data as "group".
func (c *StatusCmd) summarize(res *Result, entries []checkpoint.Entry) {
	if c.Group == "" {
		return
	}
	var labels []string
	for _, e := range entries {
		if e.Err == nil && e.Request != nil {
			labels = append(labels, peekLabel(e.Request))
		}
	}
	summary := groupSummary(c.Group, labels)
	res.Text += summary + "\n"
	if data, ok := res.Data.(map[string]any); ok {
		data["group"] = map[string]any{"name": c.Group, "summary": summary}
	}
	if res.Code == exitOK {
		res.Next = "wait for the group: specdev work --group " + c.Group + " --timeout 10m; then: specdev gate --group " + c.Group
	}
}
