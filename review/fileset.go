package review

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/specdev/specdev/checkpoint"
	"github.com/specdev/specdev/internal/shellword"
	"github.com/specdev/specdev/protocol"
)

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
	decl, err := s.Store.Group(group)
	if err != nil {
		return nil, nil, err
	}
	entries, err := s.Store.Scan()
	if err != nil {
		return nil, nil, err
	}
	members, _ := checkpoint.GroupOf(entries, group, decl) // an unreadable one holds nothing it can show
	held := heldFiles{}
	for _, m := range members {
		if r := m.Request; m.Name != name && r != nil && r.Status != protocol.StatusCancelled {
			for _, f := range owned(r) {
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
			fmt.Sprintf("nothing to review: every changed file is held by another loop of group %s: %s", group, left.list()))
	}
	return keep, left, nil
}

// owned are the files a loop holds: its file set, else its request's.
func owned(r *protocol.Request) []string {
	if r.FileSet != nil {
		return r.FileSet
	}
	return r.ChangedFiles
}

// list names each file with its loop: "b.go (00002_b), c.go (00003_c)".
func (h heldFiles) list() string {
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
	fmt.Fprintf(b, "Left out, held by other loops of group %s (%d): %s\n", r.Group, len(h), h.list())
	fmt.Fprintf(b, "To review them in this loop as well: specdev work cancel, then %s\n", h.command(r.ChangedFiles))
}

// existing keeps the files of a loop's set that still exist in root: a
// file the loop removed is no longer there to review.
func existing(root string, files []string) []string {
	out := []string{}
	for _, f := range files {
		if _, err := os.Lstat(filepath.Join(root, filepath.FromSlash(f))); err == nil {
			out = append(out, f)
		}
	}
	return out
}
