package checkpoint

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/specdev/specdev/protocol"
)

// GroupsDir is the folder under .specdev/ that holds the declared groups
// (protocol.Group), a file each, and the lock every change of one takes.
const GroupsDir = "groups"

func (s *Store) groupsDir() string { return filepath.Join(s.Dir, GroupsDir) }

func groupRel(name string) string { return protocol.StateDir + "/" + GroupsDir + "/" + name + ".json" }

// Group reads the declaration of the group called name; nil when the
// group is not declared.
func (s *Store) Group(name string) (*protocol.Group, error) {
	if err := protocol.CheckName(name); err != nil {
		return nil, &protocol.UsageError{Msg: "group: " + err.Error(), Hint: "use letters, digits, '.', '_' and '-', e.g. api"}
	}
	data, err := readStateFile(filepath.Join(s.groupsDir(), name+".json"), groupRel(name), protocol.MaxFileSize)
	if err != nil || data == nil {
		return nil, err
	}
	g, err := protocol.DecodeGroup(groupRel(name), data)
	if err == nil && g.Name != name {
		err = &protocol.InvalidError{File: groupRel(name), Field: "name", Problem: fmt.Sprintf("is %s, not the file's name", protocol.QuotePrefix(g.Name)),
			Hint: "a group file is named after its group: rename the file or fix the field"}
	}
	return g, err
}

// Groups reads every declared group, sorted by name.
func (s *Store) Groups() ([]*protocol.Group, error) {
	entries, err := os.ReadDir(s.groupsDir())
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var groups []*protocol.Group
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".json")
		if !ok || isTemp(e.Name()) || protocol.CheckName(name) != nil {
			continue
		}
		g, err := s.Group(name)
		if err != nil {
			return nil, err
		}
		if g != nil {
			groups = append(groups, g)
		}
	}
	sort.Slice(groups, func(i, j int) bool { return groups[i].Name < groups[j].Name })
	return groups, nil
}

// UpdateGroup changes the declaration of the group called name under the
// groups' lock: fn gets the current one (nil: not declared) and returns
// the new one (nil: leave it). The new one is validated, then written
// atomically, never through a link.
func (s *Store) UpdateGroup(ctx context.Context, name string, fn func(*protocol.Group) (*protocol.Group, error)) (*protocol.Group, error) {
	dir, rel := s.groupsDir(), protocol.StateDir+"/"+GroupsDir
	_, err := mkdir(dir)
	if err = cmp.Or(err, checkFolder(dir, rel)); err != nil {
		return nil, err
	}
	lock, err := folderLock{store: s, dir: dir, rel: rel}.take(ctx)
	if err != nil {
		return nil, err
	}
	defer lock.unlock()
	cleanTemps(dir)
	cur, err := s.Group(name)
	if err != nil {
		return nil, err
	}
	g, err := fn(cur)
	if err != nil || g == nil {
		return cur, err
	}
	if err := cmp.Or(g.Validate(), checkNotLink(filepath.Join(dir, name+".json"), groupRel(name))); err != nil {
		return nil, err
	}
	data, err := protocol.EncodeGroup(g)
	if err != nil {
		return nil, err
	}
	return g, writeAtomic(dir, fileWrite{name + ".json", data})
}

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
		case decl != nil || e.Request != nil && group != "" && e.Request.Group == group:
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
	return slices.DeleteFunc(members, func(e Entry) bool { return e.Name == a.Name }), nil
}

// GroupNames lists the groups declared or named by the readable entries'
// requests, sorted and each once: what a caller naming an unknown group
// may choose from.
func GroupNames(entries []Entry, declared []*protocol.Group) []string {
	var names []string
	for _, g := range declared {
		names = append(names, g.Name)
	}
	for _, e := range entries {
		if e.Request != nil {
			names = append(names, e.Request.Group)
		}
	}
	slices.Sort(names)
	return slices.DeleteFunc(slices.Compact(names), func(n string) bool { return n == "" })
}
