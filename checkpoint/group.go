package checkpoint

import (
	"sort"

	"github.com/specdev/specdev/protocol"
)

// A group of parallel loops is the assignments whose current request names
// it (protocol.Request.Group). Membership is read from the requests, so it
// needs no file of its own and changes only with a request.

// GroupOf returns the entries (from Scan) whose request names group, in
// their order, and apart the ones that could not be read: any of them may
// belong to the group, and a caller that judges the group must not pass
// over them.
func GroupOf(entries []Entry, group string) (members, unreadable []Entry) {
	for _, e := range entries {
		switch {
		case e.Err != nil:
			unreadable = append(unreadable, e)
		case InGroup(e.Request, group):
			members = append(members, e)
		}
	}
	return members, unreadable
}

// Siblings are the other readable members of the group a's request names
// (none without a group): the "other loops" a reviewer of a is told about.
func (a *Assignment) Siblings(group string) ([]Entry, error) {
	if group == "" {
		return nil, nil
	}
	entries, err := a.store.Scan()
	if err != nil {
		return nil, err
	}
	members, _ := GroupOf(entries, group)
	out := members[:0]
	for _, e := range members {
		if e.Name != a.Name {
			out = append(out, e)
		}
	}
	return out, nil
}

// InGroup reports whether a request belongs to group.
func InGroup(r *protocol.Request, group string) bool {
	return r != nil && group != "" && r.Group == group
}

// GroupNames lists the groups the readable entries' requests name, sorted
// and each once: what a caller naming an unknown group may choose from.
func GroupNames(entries []Entry) []string {
	seen := map[string]bool{}
	var names []string
	for _, e := range entries {
		if e.Request != nil && e.Request.Group != "" && !seen[e.Request.Group] {
			seen[e.Request.Group] = true
			names = append(names, e.Request.Group)
		}
	}
	sort.Strings(names)
	return names
}
