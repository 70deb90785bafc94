package changeset

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// ChangeSince picks the review's files out of one diff of the whole tree,
// and lays their stat out exactly as git diff --stat=100 does for them.
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
		{"scaled graph, long name, deletion", to, []string{"big.go", "both.go", "gone.go", "small.go", long}, 300 + 11 + 10 + 1 + 11},
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
			args := []string{"diff", "--stat=100", "--no-renames", since}
			if tt.to != "" {
				args = append(args, tt.to)
			}
			want := git(t, repo, append(append(args, "--"), tt.files...)...)
			if strings.TrimSpace(got.Stat) != want {
				t.Errorf("Stat:\n%s\nwant git's:\n%s", got.Stat, want)
			}
			if strings.Contains(got.Stat, "other.go") {
				t.Errorf("Stat names a file outside the review:\n%s", got.Stat)
			}
		})
	}
}

// The layout follows git's arithmetic for a graph that must be scaled
// and a name that must be cut, at the edges of both.
func TestStatText(t *testing.T) {
	name := strings.Repeat("x", 90) + "/tail.go"
	tests := []struct {
		changes []fileChange
		want    string
	}{
		{[]fileChange{{name: "a.go", added: 2, removed: 1}}, " a.go | 3 ++-\n 1 file changed, 2 insertions(+), 1 deletion(-)\n"},
		{[]fileChange{{name: "a.go"}}, " a.go | 0\n 1 file changed, 0 insertions(+), 0 deletions(-)\n"},
		{[]fileChange{{name: "a.go", removed: 1}, {name: "b.bin", binary: true}},
			" a.go  |   1 -\n b.bin | Bin\n 2 files changed, 1 deletion(-)\n"},
		{[]fileChange{{name: "a.go", added: 1000, removed: 1}, {name: "b.go", added: 1, removed: 1}},
			fmt.Sprintf(" a.go | 1001 %s-\n b.go |    2 +-\n 2 files changed, 1001 insertions(+), 2 deletions(-)\n", strings.Repeat("+", 85))},
		{[]fileChange{{name: name, added: 100}},
			fmt.Sprintf(" .../tail.go%s | 100 %s\n 1 file changed, 100 insertions(+)\n", strings.Repeat(" ", 52), strings.Repeat("+", 28))},
	}
	for i, tt := range tests {
		if got := statText(tt.changes); got != tt.want {
			t.Errorf("%d: got\n%q\nwant\n%q", i, got, tt.want)
		}
	}
}
