package changeset

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// ChangeSince picks the review's files out of one diff of the whole tree,
// and lists each with the counts git diff --numstat gives it, then the
// summary line of git diff --stat.
func TestChangeSince(t *testing.T) {
	requireGit(t)
	repo := newRepo(t)
	long := "a/very/deeply/nested/folder/structure/that/goes/on/and/on/for/quite/a/while/until/the/file.go"
	for _, f := range []string{"small.go", "big.go", "both.go", "other.go", "gone.go", long} {
		write(t, repo, f, strings.Repeat("line\n", 10))
	}
	commitAll(t, repo, "base")
	since := git(t, repo, "rev-parse", "HEAD")
	write(t, repo, "small.go", strings.Repeat("line\n", 10)+"one more\n")
	write(t, repo, "big.go", strings.Repeat("line\n", 10)+strings.Repeat("added\n", 300))
	write(t, repo, "both.go", strings.Repeat("changed\n", 4)+strings.Repeat("line\n", 3))
	write(t, repo, "other.go", "not in the review\n")
	write(t, repo, long, "short now\n")
	remove(t, repo, "gone.go")
	commitAll(t, repo, "change")
	to := git(t, repo, "rev-parse", "HEAD")
	write(t, repo, "untracked.go", "a\nb\nc\n")

	tests := []struct {
		name  string
		to    string
		files []string
		lines int
	}{
		{"one small change", to, []string{"small.go"}, 1},
		{"many files, long name, deletion", to, []string{"big.go", "both.go", "gone.go", "small.go", long}, 300 + 11 + 10 + 1 + 11},
		{"work tree, untracked counted whole", "", []string{"small.go", "untracked.go"}, 1 + 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ChangeSince(context.Background(), repo, since, tt.to, tt.files)
			if err != nil {
				t.Fatal(err)
			}
			if got.Lines != tt.lines {
				t.Errorf("Lines: got %d, want %d", got.Lines, tt.lines)
			}
			diff := func(format string) []string {
				args := []string{"diff", format, "--no-renames", since}
				if tt.to != "" {
					args = append(args, tt.to)
				}
				return strings.Split(git(t, repo, append(append(args, "--"), tt.files...)...), "\n")
			}
			var want []string
			for _, line := range diff("--numstat") {
				f := strings.SplitN(line, "\t", 3)
				want = append(want, fmt.Sprintf(" %s | +%s -%s", f[2], f[0], f[1]))
			}
			summary := diff("--stat")
			want = append(want, summary[len(summary)-1])
			if got.Stat != strings.Join(want, "\n") {
				t.Errorf("Stat:\n%s\nwant:\n%s", got.Stat, strings.Join(want, "\n"))
			}
			if strings.Contains(got.Stat, "other.go") {
				t.Errorf("Stat names a file outside the review:\n%s", got.Stat)
			}
		})
	}
}

// A file's line gives its counts, or says it is binary; the summary line
// is git's, its plurals and its rule for leaving out a count of none.
func TestStatText(t *testing.T) {
	tests := []struct {
		changes []fileChange
		want    string
	}{
		{[]fileChange{{name: "a.go", added: 2, removed: 1}}, " a.go | +2 -1\n 1 file changed, 2 insertions(+), 1 deletion(-)\n"},
		{[]fileChange{{name: "a.go"}}, " a.go | +0 -0\n 1 file changed, 0 insertions(+), 0 deletions(-)\n"},
		{[]fileChange{{name: "a.go", removed: 1}, {name: "b.bin", binary: true}},
			" a.go | +0 -1\n b.bin | binary\n 2 files changed, 1 deletion(-)\n"},
		{[]fileChange{{name: "dir/a.go", added: 1000}, {name: "b.go", added: 1}},
			" dir/a.go | +1000 -0\n b.go | +1 -0\n 2 files changed, 1001 insertions(+)\n"},
	}
	for i, tt := range tests {
		if got := statText(tt.changes); got != tt.want {
			t.Errorf("%d: got\n%q\nwant\n%q", i, got, tt.want)
		}
	}
}
