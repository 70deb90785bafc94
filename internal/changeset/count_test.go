package changeset

import (
	"context"
	"testing"
)

func TestCommitsSince(t *testing.T) {
	requireGit(t)
	tests := []struct {
		name   string
		setup  func(t *testing.T) (repo, since string)
		want   int
		wantOK bool
	}{
		{
			name:   "since the branch point",
			setup:  func(t *testing.T) (string, string) { repo, _ := branchRepo(t); return repo, "" },
			want:   1,
			wantOK: true,
		},
		{
			name: "since a commit, two more on top",
			setup: func(t *testing.T) (string, string) {
				repo, _ := branchRepo(t)
				since := git(t, repo, "rev-parse", "HEAD")
				commitAll(t, repo, "wip")
				write(t, repo, "more.txt", "more\n")
				commitAll(t, repo, "more")
				return repo, since
			},
			want:   2,
			wantOK: true,
		},
		{
			name:   "since HEAD itself",
			setup:  func(t *testing.T) (string, string) { repo, _ := branchRepo(t); return repo, "HEAD" },
			want:   0,
			wantOK: true,
		},
		{
			name: "since a commit that does not exist",
			setup: func(t *testing.T) (string, string) {
				repo, _ := branchRepo(t)
				return repo, "0123456789abcdef0123456789abcdef01234567"
			},
		},
		{
			name:  "a repository without commits",
			setup: func(t *testing.T) (string, string) { return newRepo(t), "" },
		},
		{
			name:  "outside git",
			setup: func(t *testing.T) (string, string) { return tempDir(t), "" },
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			repo, since := tt.setup(t)
			n, ok, err := CommitsSince(context.Background(), repo, since)
			if err != nil {
				t.Fatalf("CommitsSince: %v", err)
			}
			if n != tt.want || ok != tt.wantOK {
				t.Errorf("CommitsSince = %d, %v; want %d, %v", n, ok, tt.want, tt.wantOK)
			}
		})
	}
}
