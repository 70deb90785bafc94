package review

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/specdev/specdev/checkpoint"
	"github.com/specdev/specdev/internal/shellword"
	"github.com/specdev/specdev/protocol"
)

// Declared groups (protocol.Group, kept in .specdev/groups/): specdev
// group create names a group's loops, work request --group --expect lets
// loops join one that waits for a number of them, and specdev group drop
// removes an abandoned loop. A loop is in at most one declared group.

// groupDeclared is the data of group create and group drop.
type groupDeclared struct {
	Group   string   `json:"group"`
	Loops   []string `json:"loops"`
	Expect  int      `json:"expect,omitempty"`
	Dropped string   `json:"dropped,omitempty"`
}

// GroupCreate declares the group's loops (assignment names or unique
// prefixes). Declaring again adds the loops not declared yet; only group
// drop takes one out.
func (s *Service) GroupCreate(ctx context.Context, group string, loops []string) (Result, error) {
	if err := checkGroupFlag(group); err != nil {
		return Result{}, err
	}
	if len(loops) == 0 || len(loops) > protocol.MaxGroupLoops {
		return Result{}, usage("name its loops: specdev group create "+group+" --loops 00001,00002",
			fmt.Sprintf("--loops: a group has 1 to %d loops", protocol.MaxGroupLoops))
	}
	var names []string
	for _, l := range loops {
		a, err := s.Store.Resolve(l)
		if err != nil {
			return Result{}, err
		}
		if err := s.notElsewhere(group, a.Name); err != nil {
			return Result{}, err
		}
		if !slices.Contains(names, a.Name) {
			names = append(names, a.Name)
		}
	}
	g, err := s.Store.UpdateGroup(ctx, group, func(cur *protocol.Group) (*protocol.Group, error) {
		if cur == nil {
			return s.declared(nil, group, names, 0), nil
		}
		added := without(names, cur.Loops)
		if len(added) == 0 {
			return nil, nil // declared as it is
		}
		return s.declared(cur, group, append(slices.Clone(cur.Loops), added...), cur.Expect), nil
	})
	if err != nil {
		return Result{}, err
	}
	return Result{State: "declared", Data: groupDeclared{Group: group, Loops: g.Loops, Expect: g.Expect},
		Text: fmt.Sprintf("Group %s declared: %s (%s). It is judged over exactly these; an abandoned one is dropped with: specdev group drop %s NAME",
			group, protocol.Plural(len(g.Loops), "loop"), strings.Join(g.Loops, ", "), group),
		Next: "wait for the group: specdev work --group " + group + " --timeout 10m"}, nil
}

// GroupDrop removes a loop from its group: the group is then judged
// without it (an undeclared group is declared with its other members).
// The loop's history records it (group_dropped).
func (s *Service) GroupDrop(ctx context.Context, group, loop string) (Result, error) {
	if err := checkGroupFlag(group); err != nil {
		return Result{}, err
	}
	name := loop
	if a, err := s.Store.Resolve(loop); err == nil {
		name = a.Name
	}
	entries, err := s.Store.Scan()
	if err != nil {
		return Result{}, err
	}
	g, err := s.Store.UpdateGroup(ctx, group, func(cur *protocol.Group) (*protocol.Group, error) {
		if cur == nil { // the members its requests name, declared without the dropped one
			members, _ := checkpoint.GroupOf(entries, group, nil)
			var loops []string
			for _, m := range members {
				loops = append(loops, m.Name)
			}
			cur = s.declared(nil, group, loops, 0)
		}
		if !slices.Contains(cur.Loops, name) {
			return nil, usage("see its loops: specdev work --group "+group, fmt.Sprintf("%s is not a loop of group %s", loop, group))
		}
		return s.declared(cur, group, without(cur.Loops, []string{name}), max(cur.Expect-1, 0)), nil
	})
	if err != nil {
		return Result{}, err
	}
	if a, err := s.Store.Assignment(name); err == nil {
		if err := a.Update(ctx, func(tx *checkpoint.Tx) error {
			tx.Log(protocol.EventGroupDropped, "", map[string]any{"group": group, "loops_left": len(g.Loops)})
			return nil
		}); err != nil {
			s.Log.Warnf("dropped %s from group %s, but its history could not record it: %v", name, group, err)
		}
	}
	return Result{State: "dropped", Data: groupDeclared{Group: group, Loops: orEmpty(g.Loops), Expect: g.Expect, Dropped: name},
		Text: fmt.Sprintf("Dropped %s from group %s: the group is judged over %s now (%s).", name, group, protocol.Plural(len(g.Loops), "loop"), strings.Join(g.Loops, ", ")),
		Next: "wait for the group: specdev work --group " + group + " --timeout 10m"}, nil
}

// joinGroup puts the assignment into the declared group before its
// request is written: with expect, the group waits for that many loops
// (declared now if it was not); without, a declared group takes it only
// while it waits for loops to join. An undeclared group without expect
// stays as it was: its members are the requests that name it.
func (s *Service) joinGroup(ctx context.Context, name, group string, expect int) error {
	if err := s.notElsewhere(group, name); err != nil {
		return err
	}
	_, err := s.Store.UpdateGroup(ctx, group, func(cur *protocol.Group) (*protocol.Group, error) {
		switch {
		case cur == nil && expect == 0:
			return nil, nil
		case cur == nil:
			return &protocol.Group{Version: protocol.GroupVersion, Name: group, CreatedAt: protocol.At(s.now()), Loops: []string{name}, Expect: expect}, nil
		case slices.Contains(cur.Loops, name) && expect <= cur.Expect:
			return nil, nil
		}
		loops, most := cur.Loops, max(cur.Expect, expect)
		if !slices.Contains(cur.Loops, name) {
			if len(cur.Loops) >= most {
				return nil, &checkpoint.StateError{
					Msg:  fmt.Sprintf("%s is not a loop of group %s, which is declared complete: %s", name, group, strings.Join(cur.Loops, ", ")),
					Hint: fmt.Sprintf("add it: specdev group create %s --loops %s,%s (or ask with --expect %d)", group, strings.Join(cur.Loops, ","), name, len(cur.Loops)+1)}
			}
			loops = append(slices.Clone(cur.Loops), name)
		}
		return s.declared(cur, group, loops, most), nil
	})
	return err
}

// declared is cur (nil: a new group) with loops, waiting for expect of
// them; an expect the loops already reach is none.
func (s *Service) declared(cur *protocol.Group, group string, loops []string, expect int) *protocol.Group {
	g := protocol.Group{Version: protocol.GroupVersion, Name: group, CreatedAt: protocol.At(s.now())}
	if cur != nil {
		g = *cur
	}
	g.Loops, g.Expect = loops, expect
	if g.Expect <= len(g.Loops) {
		g.Expect = 0
	}
	return &g
}

// declaredGroupOf is the declared group the assignment is a loop of, or "".
func (s *Service) declaredGroupOf(name string) (string, error) {
	groups, err := s.Store.Groups()
	i := slices.IndexFunc(groups, func(g *protocol.Group) bool { return slices.Contains(g.Loops, name) })
	if err != nil || i < 0 {
		return "", err
	}
	return groups[i].Name, nil
}

// notElsewhere refuses to put a loop of one declared group into another.
func (s *Service) notElsewhere(group, name string) error {
	other, err := s.declaredGroupOf(name)
	if err != nil || other == "" || other == group {
		return err
	}
	return &checkpoint.StateError{Msg: fmt.Sprintf("%s is a loop of group %s", name, other),
		Hint: fmt.Sprintf("a loop is in one group at a time: drop it from %s first (specdev group drop %s %s)", other, other, name)}
}

// without is list minus the items of drop, in list's order.
func without(list, drop []string) []string {
	return slices.DeleteFunc(slices.Clone(list), func(l string) bool { return slices.Contains(drop, l) })
}

// Loops own their files. A request with --files names the loop's file
// set, which its later requests keep (protocol.Request.FileSet), as they
// keep its group. A request without it sweeps what changed; in a group,
// a sweep leaves out the files another loop of the group holds (its set,
// else its request's files), says so, and says how to take them in.

// heldFiles are changed files other loops of the group hold: file -> loop.
type heldFiles map[string]string

// leaveOutHeld drops from a sweep the files another loop of the group
// holds — one whose request is not withdrawn — except those the loop's
// own previous request named. Nothing left is a usage error naming them.
func (s *Service) leaveOutHeld(files []string, snap checkpoint.Snapshot, name, group string) ([]string, heldFiles, error) {
	if group == "" {
		return files, nil, nil
	}
	a, err := s.Store.Assignment(name)
	if err != nil {
		return nil, nil, err
	}
	members, err := a.Siblings(group) // an unreadable one holds nothing it can show
	if err != nil {
		return nil, nil, err
	}
	held := heldFiles{}
	for _, m := range members {
		if r := m.Request; r != nil && r.Status != protocol.StatusCancelled {
			files := r.FileSet // the files a loop holds: its file set, else its request's
			if files == nil {
				files = r.ChangedFiles
			}
			for _, f := range files {
				held[f] = m.Name
			}
		}
	}
	var own []string
	if snap.Request != nil {
		own = snap.Request.ChangedFiles
	}
	keep, left := []string{}, heldFiles{}
	for _, f := range files {
		if loop, ok := held[f]; ok && !slices.Contains(own, f) {
			left[f] = loop
		} else {
			keep = append(keep, f)
		}
	}
	if len(left) == 0 {
		return files, nil, nil
	}
	if len(keep) == 0 {
		return nil, nil, usage("to review them in this loop as well, name them: "+left.command(nil),
			fmt.Sprintf("nothing to review: every changed file is held by another loop of group %s: %s", group, withLoops(left)))
	}
	return keep, left, nil
}

// withLoops names each file with its loop: "b.go (00002_b), c.go (00003_c)".
func withLoops(h map[string]string) string {
	var parts []string
	for _, f := range slices.Sorted(maps.Keys(h)) {
		parts = append(parts, fmt.Sprintf("%s (%s)", f, h[f]))
	}
	return strings.Join(parts, ", ")
}

// command is the request that takes the held files in, with files.
func (h heldFiles) command(files []string) string {
	words := []string{"specdev", "work", "request"}
	all := append(slices.Clone(files), slices.Collect(maps.Keys(h))...)
	slices.Sort(all)
	for _, f := range slices.Compact(all) {
		words = append(words, "--files", f)
	}
	return shellword.Join(words)
}

// write says, in a request's answer, which files were left out.
func (h heldFiles) write(b *strings.Builder, r *protocol.Request) {
	if len(h) == 0 {
		return
	}
	fmt.Fprintf(b, "Left out, held by other loops of group %s (%d): %s\n", r.Group, len(h), withLoops(h))
	fmt.Fprintf(b, "To review them in this loop as well: specdev work cancel, then %s\n", h.command(r.ChangedFiles))
}
