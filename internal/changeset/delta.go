package changeset

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// maxStat bounds the stat text kept for a briefing.
const maxStat = 20_000

// Size is how big a change is: the lines added and removed in the files
// since a commit, and a stat of them: each file's counts.
type Size struct {
	Lines int    // added + removed, as git diff --numstat counts them
	Stat  string // a line a file and git's summary line (statText), cut to maxStat bytes
}

// ChangeSince measures the change of files (relative to root) between
// commit since and commit to (the work tree when to is ""), as
// `git diff --no-renames since to -- files` shows it; with the work tree,
// a file git does not track (new and not yet added) counts its lines as
// added. A binary file counts as one line. Git diffs the whole tree
// once and the files are picked out of its answer: as pathspecs, each
// path git looks at would be matched against every one of them.
func ChangeSince(ctx context.Context, root, since, to string, files []string) (Size, error) {
	if len(files) == 0 {
		return Size{}, nil
	}
	args := []string{"diff", "--numstat", "--relative", "--no-renames", "-z", since}
	if to != "" {
		args = append(args, to)
	}
	out, err := runGit(ctx, root, args...)
	if err != nil {
		return Size{}, err
	}
	want := make(map[string]bool, len(files))
	for _, f := range files {
		want[f] = true
	}
	var size Size
	var changes []fileChange
	for _, rec := range splitNUL(out) {
		parts := strings.SplitN(rec, "\t", 3)
		if len(parts) < 3 || !want[parts[2]] {
			continue
		}
		delete(want, parts[2]) // seen
		c := fileChange{name: parts[2], binary: parts[0] == "-"}
		c.added, _ = strconv.Atoi(parts[0]) // git diff --numstat's counts: "-" (0 here) for a binary file
		c.removed, _ = strconv.Atoi(parts[1])
		if c.binary {
			size.Lines++ // a binary file counts as one line
		}
		size.Lines += c.added + c.removed
		changes = append(changes, c)
	}
	for f := range want {
		if to == "" {
			size.Lines += LineCount(root, f) // untracked: all of it is new
		}
	}
	size.Stat = strings.TrimRight(statText(changes), "\n")
	if len(size.Stat) > maxStat {
		size.Stat = size.Stat[:strings.LastIndexByte(size.Stat[:maxStat], '\n')+1] + " …"
	}
	return size, nil
}

// LineCount counts the lines of a file (relative to root); a file that
// cannot be read (deleted) has none. A last line without a newline counts.
func LineCount(root, file string) int {
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(file)))
	if err != nil || len(data) == 0 {
		return 0
	}
	n := bytes.Count(data, []byte("\n"))
	if data[len(data)-1] != '\n' {
		n++
	}
	return n
}

// fileChange is one file of git diff --numstat: lines added and removed,
// or binary.
type fileChange struct {
	name           string
	added, removed int
	binary         bool
}

// statText lists changes a line a file, " name | +added -removed" (a
// binary file " name | binary"), then git's summary line. It is made
// from the numbers of one diff of the whole tree, so that git never
// gets the review's files as a list of pathspecs.
func statText(changes []fileChange) string {
	if len(changes) == 0 {
		return ""
	}
	var b strings.Builder
	added, removed := 0, 0
	for _, c := range changes {
		added, removed = added+c.added, removed+c.removed
		if c.binary {
			fmt.Fprintf(&b, " %s | binary\n", c.name)
		} else {
			fmt.Fprintf(&b, " %s | +%d -%d\n", c.name, c.added, c.removed)
		}
	}
	b.WriteString(statSummary(len(changes), added, removed))
	return b.String()
}

// statSummary is git's last line of a stat.
func statSummary(files, added, removed int) string {
	s := fmt.Sprintf(" %d %s changed", files, plural(files, "file", "files"))
	if added > 0 || removed == 0 {
		s += fmt.Sprintf(", %d %s(+)", added, plural(added, "insertion", "insertions"))
	}
	if removed > 0 || added == 0 {
		s += fmt.Sprintf(", %d %s(-)", removed, plural(removed, "deletion", "deletions"))
	}
	return s + "\n"
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
