package review

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/specdev/specdev/checkpoint"
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
// prefixes). Declaring again with more loops adds them; a declaration
// that leaves out a declared loop is refused (drop it instead).
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
		if missing := without(cur.Loops, names); len(missing) > 0 {
			return nil, &checkpoint.StateError{Msg: fmt.Sprintf("group %s is declared with %s too", group, strings.Join(missing, ", ")),
				Hint: fmt.Sprintf("name every loop to add some (specdev group create %s --loops %s,…), or drop one: specdev group drop %s %s",
					group, strings.Join(cur.Loops, ","), group, missing[0])}
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
			group, plural(len(g.Loops), "loop"), strings.Join(g.Loops, ", "), group),
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
		err = a.Update(ctx, func(tx *checkpoint.Tx) error {
			tx.Log(protocol.EventGroupDropped, "", map[string]any{"group": group, "loops_left": len(g.Loops)})
			return nil
		})
		if err != nil {
			s.Log.Warnf("dropped %s from group %s, but its history could not record it: %v", name, group, err)
		}
	}
	return Result{State: "dropped", Data: groupDeclared{Group: group, Loops: orEmpty(g.Loops), Expect: g.Expect, Dropped: name},
		Text: fmt.Sprintf("Dropped %s from group %s: the group is judged over %s now (%s).", name, group, plural(len(g.Loops), "loop"), strings.Join(g.Loops, ", ")),
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
	if err != nil {
		return "", err
	}
	for _, g := range groups {
		if slices.Contains(g.Loops, name) {
			return g.Name, nil
		}
	}
	return "", nil
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
	var out []string
	for _, l := range list {
		if !slices.Contains(drop, l) {
			out = append(out, l)
		}
	}
	return out
}
