package review

import (
	"github.com/specdev/specdev/checkpoint"
)

// `specdev status --group NAME`: the group's assignments only, and one
// line that sums the group up. An assignment that cannot be read stays
// in (it may belong to the group; status names its error and exits 7,
// as without a group).

// inGroup keeps the group's members and the unreadable assignments; all
// of them without a group. A group nobody declared or is in is a usage
// error.
func (s *Service) inGroup(entries []checkpoint.Entry, group string) ([]checkpoint.Entry, error) {
	if group == "" {
		return entries, nil
	}
	decl, err := s.Store.Group(group)
	if err != nil {
		return nil, err
	}
	members, unreadable := checkpoint.GroupOf(entries, group, decl)
	if decl == nil && len(members) == 0 && len(unreadable) == 0 {
		return nil, s.noSuchGroup(group, entries)
	}
	return append(members, unreadable...), nil
}

// summarize adds the group's summary line to the text and the data.
func summarize(res *Result, group string, entries []checkpoint.Entry) {
	if group == "" {
		return
	}
	var labels []string
	for _, e := range entries {
		if e.Err == nil && e.Request != nil {
			labels = append(labels, peekLabel(e.Request))
		}
	}
	summary := groupSummary(group, labels)
	res.Text += summary + "\n"
	if data, ok := res.Data.(StatusData); ok {
		data.Group = &GroupSummary{Name: group, Summary: summary}
		res.Data = data
	}
	if res.Code == OK {
		res.Next = "wait for the group: specdev work --group " + group + " --timeout 10m; then: specdev gate --group " + group
	}
}
