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

// maxStat bounds the git diff --stat text kept for a briefing.
const maxStat = 20_000

// Size is how big a change is: the lines added and removed in the files
// since a commit, and git diff --stat of them.
type Size struct {
	Lines int    // added + removed, as git diff --numstat counts them
	Stat  string // as git diff --stat=100 lays it out (statText), cut to maxStat bytes
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

// statWidth is the width of the stat text, as git diff --stat=100 has it.
const statWidth = 100

// fileChange is one file of git diff --numstat: lines added and removed,
// or binary.
type fileChange struct {
	name           string
	added, removed int
	binary         bool
}

// statText lays out changes as git diff --stat=100 does: a line per file,
// " name | count +++---", names cut from the left to fit, the graph
// scaled to its share of the width, then the summary line. It is made
// from the numbers of one diff of the whole tree, so that git never
// gets the review's files as a list of pathspecs. A binary file shows
// "Bin" without git's byte counts, which --numstat does not give.
func statText(changes []fileChange) string {
	if len(changes) == 0 {
		return ""
	}
	nameWidth, numberWidth, graphWidth, maxChange := statWidths(changes)
	var b strings.Builder
	added, removed := 0, 0
	for _, c := range changes {
		added, removed = added+c.added, removed+c.removed
		fmt.Fprintf(&b, " %-*s |", nameWidth, cutName(c.name, nameWidth))
		if c.binary {
			fmt.Fprintf(&b, " %*s\n", numberWidth, "Bin")
			continue
		}
		plus, minus := scaleGraph(c.added, c.removed, graphWidth, maxChange)
		fmt.Fprintf(&b, " %*d", numberWidth, c.added+c.removed)
		if plus+minus > 0 {
			b.WriteString(" " + strings.Repeat("+", plus) + strings.Repeat("-", minus))
		}
		b.WriteString("\n")
	}
	b.WriteString(statSummary(len(changes), added, removed))
	return b.String()
}

// statWidths shares the width between the name, the count and the graph
// as git does: each as wide as it wants if all fit; else the graph gets
// at most 3/8 of the width (at least 6) and the name what is left.
func statWidths(changes []fileChange) (name, number, graph, maxChange int) {
	for _, c := range changes {
		name = max(name, len(c.name))
		if c.binary {
			number = len("Bin")
		} else {
			maxChange = max(maxChange, c.added+c.removed)
		}
	}
	number = max(number, len(strconv.Itoa(maxChange)))
	graph = maxChange
	if name+number+6+graph > statWidth {
		if graph > statWidth*3/8-number-6 {
			graph = max(statWidth*3/8-number-6, 6)
		}
		if name > statWidth-number-6-graph {
			name = statWidth - number - 6 - graph
		} else {
			graph = statWidth - number - 6 - name
		}
	}
	return name, number, graph, maxChange
}

// cutName shortens a name wider than width as git does: "..." and its
// end, from a folder boundary when there is one.
func cutName(name string, width int) string {
	if len(name) <= width {
		return name
	}
	tail := name[len(name)-max(width-3, 0):]
	if i := strings.IndexByte(tail, '/'); i >= 0 {
		tail = tail[i:]
	}
	return "..." + tail
}

// scaleGraph is how many "+" and "-" a file's line gets: one a line when
// the largest change fits the graph, else scaled down, at least one of
// each kind the file has.
func scaleGraph(added, removed, width, maxChange int) (plus, minus int) {
	if width > maxChange {
		return added, removed
	}
	total := scaleLinear(added+removed, width, maxChange)
	if total < 2 && added > 0 && removed > 0 {
		total = 2
	}
	if added < removed {
		plus = scaleLinear(added, width, maxChange)
		return plus, total - plus
	}
	minus = scaleLinear(removed, width, maxChange)
	return total - minus, minus
}

func scaleLinear(n, width, maxChange int) int {
	if n == 0 {
		return 0
	}
	return 1 + n*(width-1)/maxChange
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
