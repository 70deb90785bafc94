package changeset

import (
	"context"
	"maps"
	"slices"
	"testing"
)

func TestBaseHints(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, repo string)
		want  []Hint
	}{
		{
			name: "one commit: nothing before it",
			setup: func(t *testing.T, repo string) {
				write(t, repo, "a.txt", "a\n")
				commitAll(t, repo, "first")
			},
		},
		{
			name: "on main: the last commit",
			setup: func(t *testing.T, repo string) {
				write(t, repo, "a.txt", "a\n")
				commitAll(t, repo, "first")
				write(t, repo, "a.txt", "a2\n")
				commitAll(t, repo, "second")
			},
			want: []Hint{{"HEAD~1", "the last commit"}},
		},
		{
			name: "a tag before the last commit",
			setup: func(t *testing.T, repo string) {
				write(t, repo, "a.txt", "a\n")
				commitAll(t, repo, "first")
				git(t, repo, "tag", "v1.0")
				write(t, repo, "a.txt", "a2\n")
				commitAll(t, repo, "second")
				write(t, repo, "b.txt", "b\n")
				commitAll(t, repo, "third")
			},
			want: []Hint{{"HEAD~1", "the last commit"}, {"v1.0", "everything since tag v1.0"}},
		},
		{
			name: "a tag that a shell would need quoted is left out",
			setup: func(t *testing.T, repo string) {
				write(t, repo, "a.txt", "a\n")
				commitAll(t, repo, "first")
				git(t, repo, "tag", "v1$(x)")
				write(t, repo, "a.txt", "a2\n")
				commitAll(t, repo, "second")
				write(t, repo, "b.txt", "b\n")
				commitAll(t, repo, "third")
			},
			want: []Hint{{"HEAD~1", "the last commit"}},
		},
		{
			name: "a tag on HEAD~1 is the same as HEAD~1",
			setup: func(t *testing.T, repo string) {
				write(t, repo, "a.txt", "a\n")
				commitAll(t, repo, "first")
				git(t, repo, "tag", "v1.0")
				write(t, repo, "a.txt", "a2\n")
				commitAll(t, repo, "second")
			},
			want: []Hint{{"HEAD~1", "the last commit"}},
		},
		{
			name: "a last commit that touched only .specdev/ does not help",
			setup: func(t *testing.T, repo string) {
				write(t, repo, "a.txt", "a\n")
				commitAll(t, repo, "first")
				write(t, repo, ".specdev/config.json", "{}\n")
				commitAll(t, repo, "specdev init")
			},
		},
		{
			name: "a pushed feature branch: what it adds over main",
			setup: func(t *testing.T, repo string) {
				write(t, repo, "a.txt", "a\n")
				commitAll(t, repo, "first")
				git(t, repo, "checkout", "-q", "-b", "feature")
				write(t, repo, "f1.txt", "1\n")
				commitAll(t, repo, "f1")
				write(t, repo, "f2.txt", "2\n")
				commitAll(t, repo, "f2")
			},
			want: []Hint{{"HEAD~1", "the last commit"}, {"main", "everything this branch adds over main"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			requireGit(t)
			repo := newRepo(t)
			git(t, repo, "checkout", "-q", "-b", "main")
			tt.setup(t, repo)
			got, err := BaseHints(context.Background(), repo)
			if err != nil {
				t.Fatalf("BaseHints: %v", err)
			}
			if !slices.Equal(got, tt.want) {
				t.Fatalf("got %+v, want %+v", got, tt.want)
			}
			for _, h := range got { // every hint works
				res, err := Collect(context.Background(), Options{Root: repo, Base: h.Rev})
				if err != nil || len(res.Files) == 0 {
					t.Errorf("--base %s: got %q, %v; want files", h.Rev, res.Files, err)
				}
			}
		})
	}
}

func TestDigest(t *testing.T) {
	root := t.TempDir()
	write(t, root, "a.txt", "a\n")
	write(t, root, "dir/b.txt", "b\n")
	got, err := Digest(root, []string{"dir/b.txt", "a.txt", "gone.txt", "a.txt"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"a.txt": sha("a\n"), "dir/b.txt": sha("b\n"), "gone.txt": "deleted"}
	if !maps.Equal(got.Files, want) {
		t.Errorf("digests: got %v, want %v", got.Files, want)
	}
	fp, err := fingerprint(root, []string{"a.txt", "dir/b.txt", "gone.txt"})
	if err != nil {
		t.Fatal(err)
	}
	if got.Fingerprint != fp {
		t.Errorf("fingerprint: got %s, want Fingerprint's %s", got.Fingerprint, fp)
	}
}
