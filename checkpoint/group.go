package checkpoint

import (
	"slices"
	"sort"

	"github.com/specdev/specdev/protocol"
)

// A group of parallel loops is the loops its declaration names
// (groupfile.go) or, for a group nobody declared, the assignments whose
// current request names it (protocol.Request.Group).

// GroupOf returns the members of group among entries (from Scan): the
// loops decl names when the group is declared, else the entries whose
// request names it; and apart the ones that could not be read and may
// belong to it, which a caller that judges the group must not pass over.
func GroupOf(entries []Entry, group string, decl *protocol.Group) (members, unreadable []Entry) {
	for _, e := range entries {
		switch {
		case decl != nil && !slices.Contains(decl.Loops, e.Name):
		case e.Err != nil:
			unreadable = append(unreadable, e)
		case decl != nil || InGroup(e.Request, group):
			members = append(members, e)
		}
	}
	return members, unreadable
}

// Siblings are the other readable members of group (none without a
// group): the "other loops" a reviewer of a is told about.
func (a *Assignment) Siblings(group string) ([]Entry, error) {
	if group == "" {
		return nil, nil
	}
	decl, err := a.store.Group(group)
	if err != nil {
		return nil, err
	}
	entries, err := a.store.Scan()
	if err != nil {
		return nil, err
	}
	members, _ := GroupOf(entries, group, decl)
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

// GroupNames lists the groups declared or named by the readable entries'
// requests, sorted and each once: what a caller naming an unknown group
// may choose from.
func GroupNames(entries []Entry, declared []*protocol.Group) []string {
	seen := map[string]bool{}
	var names []string
	add := func(name string) {
		if name != "" && !seen[name] {
			seen[name] = true
			names = append(names, name)
		}
	}
	for _, g := range declared {
		add(g.Name)
	}
	for _, e := range entries {
		if e.Request != nil {
			add(e.Request.Group)
		}
	}
	sort.Strings(names)
	return names
}
