package changeset

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/specdev/specdev/protocol"
)

// Size is how big a change is: the lines added and removed in the files
// since a commit, and a stat of them: each file's counts.
type Size struct {
	Lines int    // added + removed, as git diff --numstat counts them
	Stat  string // a line a file, " name | +added -removed" (" name | binary"), cut to protocol.MaxStatLength bytes
}

// ChangeSince measures the change of files (relative to root) between
// commit since and commit to (a review's snapshot, so never the work
// tree), as `git diff --no-renames since to -- files` shows it. A binary
// file counts as one line. Git diffs the whole tree once and the files
// are picked out of its answer: as pathspecs, each path git looks at
// would be matched against every one of them.
func ChangeSince(ctx context.Context, root, since, to string, files []string) (Size, error) {
	if len(files) == 0 {
		return Size{}, nil
	}
	out, err := runGit(ctx, root, "diff", "--numstat", "--relative", "--no-renames", "-z", since, to)
	if err != nil {
		return Size{}, err
	}
	want := make(map[string]bool, len(files))
	for _, f := range files {
		want[f] = true
	}
	var size Size
	var stat strings.Builder
	for _, rec := range splitNUL(out) {
		parts := strings.SplitN(rec, "\t", 3)
		if len(parts) < 3 || !want[parts[2]] {
			continue
		}
		if parts[0] == "-" {
			size.Lines++ // a binary file, which --numstat gives no counts, counts as one line
			fmt.Fprintf(&stat, " %s | binary\n", parts[2])
			continue
		}
		added, _ := strconv.Atoi(parts[0])
		removed, _ := strconv.Atoi(parts[1])
		size.Lines += added + removed
		fmt.Fprintf(&stat, " %s | +%d -%d\n", parts[2], added, removed)
	}
	size.Stat = strings.TrimRight(stat.String(), "\n")
	if len(size.Stat) > protocol.MaxStatLength {
		size.Stat = size.Stat[:strings.LastIndexByte(size.Stat[:protocol.MaxStatLength], '\n')+1] + " …"
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
	return bytes.Count(bytes.TrimSuffix(data, []byte("\n")), []byte("\n")) + 1
}
