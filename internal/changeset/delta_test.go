package changeset

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// ChangeSince picks the review's files out of one diff of the whole tree,
// and lists each with the counts git diff --numstat gives it (a binary
// file, which it gives none, as binary).
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
	write(t, repo, "image.bin", "\x00\x01\x02")
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
		{"a binary file counts as one line", to, []string{"image.bin", "small.go"}, 1 + 1},
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
				args := []string{"diff", format, "--no-renames", since, tt.to}
				return strings.Split(git(t, repo, append(append(args, "--"), tt.files...)...), "\n")
			}
			var want []string
			for _, line := range diff("--numstat") {
				f := strings.SplitN(line, "\t", 3)
				if f[0] == "-" {
					want = append(want, fmt.Sprintf(" %s | binary", f[2]))
				} else {
					want = append(want, fmt.Sprintf(" %s | +%s -%s", f[2], f[0], f[1]))
				}
			}
			if got.Stat != strings.Join(want, "\n") {
				t.Errorf("Stat:\n%s\nwant:\n%s", got.Stat, strings.Join(want, "\n"))
			}
			if strings.Contains(got.Stat, "other.go") {
				t.Errorf("Stat names a file outside the review:\n%s", got.Stat)
			}
		})
	}
}
