package changeset

import (
	"bytes"
	"context"
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
	seen := map[string]bool{}
	for _, rec := range splitNUL(out) {
		parts := strings.SplitN(rec, "\t", 3)
		if len(parts) < 3 || !want[parts[2]] {
			continue
		}
		seen[parts[2]] = true
		c := fileChange{name: parts[2], binary: parts[0] == "-"}
		if c.binary {
			size.Lines++
		} else {
			c.added, c.removed = numstatLines(parts[0]), numstatLines(parts[1])
			size.Lines += c.added + c.removed
		}
		changes = append(changes, c)
	}
	for _, f := range files {
		if !seen[f] && to == "" {
			size.Lines += LineCount(root, f) // untracked: all of it is new
		}
	}
	size.Stat = strings.TrimRight(statText(changes), "\n")
	if len(size.Stat) > maxStat {
		size.Stat = size.Stat[:strings.LastIndexByte(size.Stat[:maxStat], '\n')+1] + " …"
	}
	return size, nil
}

// numstatLines reads one count of git diff --numstat.
func numstatLines(s string) int {
	n, _ := strconv.Atoi(s)
	return n
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
