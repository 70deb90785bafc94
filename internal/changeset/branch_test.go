package changeset

import (
	"context"
	"slices"
	"testing"
)

// branchRepo is a repository whose branch "main" has two commits and whose
// checked-out branch "feature" adds one more, plus an uncommitted file.
// It returns the repository and the hash of main's tip.
func branchRepo(t *testing.T) (string, string) {
	t.Helper()
	repo := newRepo(t)
	git(t, repo, "checkout", "-q", "-b", "main")
	write(t, repo, "base.txt", "base\n")
	commitAll(t, repo, "base")
	write(t, repo, "main.txt", "main\n")
	commitAll(t, repo, "main")
	mainTip := git(t, repo, "rev-parse", "HEAD")
	git(t, repo, "checkout", "-q", "-b", "feature")
	write(t, repo, "feature.txt", "feature\n")
	commitAll(t, repo, "feature")
	write(t, repo, "wip.txt", "wip\n")
	return repo, mainTip
}

func TestBranchPoint(t *testing.T) {
	tests := []struct {
		name    string
		setup   func(t *testing.T) (repo, wantBase string) // wantBase "HEAD": HEAD's hash
		wantRef string                                     // "": no branch point
	}{
		{
			name:    "feature branch off main",
			setup:   branchRepo,
			wantRef: "main",
		},
		{
			name: "on main itself",
			setup: func(t *testing.T) (string, string) {
				repo, _ := branchRepo(t)
				git(t, repo, "checkout", "-q", "main")
				return repo, "HEAD"
			},
			wantRef: "main",
		},
		{
			name: "master when there is no main",
			setup: func(t *testing.T) (string, string) {
				repo, mainTip := branchRepo(t)
				git(t, repo, "branch", "-q", "-m", "main", "master")
				return repo, mainTip
			},
			wantRef: "master",
		},
		{
			name: "the upstream comes first",
			setup: func(t *testing.T) (string, string) {
				repo, _ := branchRepo(t)
				git(t, repo, "branch", "-q", "pushed", "HEAD")
				git(t, repo, "branch", "-q", "--set-upstream-to=pushed")
				write(t, repo, "later.txt", "later\n")
				commitAll(t, repo, "after the push")
				return repo, git(t, repo, "rev-parse", "pushed")
			},
			wantRef: "pushed",
		},
		{
			name: "origin/HEAD before main",
			setup: func(t *testing.T) (string, string) {
				repo, _ := branchRepo(t)
				first := git(t, repo, "rev-parse", "main~1")
				git(t, repo, "update-ref", "refs/remotes/origin/trunk", first)
				git(t, repo, "symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/trunk")
				return repo, first
			},
			wantRef: "origin/trunk",
		},
		{
			name: "no upstream and no default branch",
			setup: func(t *testing.T) (string, string) {
				repo, _ := branchRepo(t)
				git(t, repo, "branch", "-q", "-m", "main", "trunk")
				return repo, ""
			},
		},
		{
			name: "unrelated history is skipped",
			setup: func(t *testing.T) (string, string) {
				repo, mainTip := branchRepo(t)
				git(t, repo, "checkout", "-q", "--orphan", "master")
				commitAll(t, repo, "unrelated root")
				git(t, repo, "checkout", "-q", "feature")
				return repo, mainTip
			},
			wantRef: "main",
		},
		{
			name: "repository without commits",
			setup: func(t *testing.T) (string, string) {
				return newRepo(t), ""
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			requireGit(t)
			root, wantBase := tt.setup(t)
			ctx := context.Background()
			r, err := openRepo(ctx, root)
			if err != nil {
				t.Fatal(err)
			}
			if wantBase == "HEAD" {
				wantBase = r.head
			}
			bp, ok, err := r.branchPoint(ctx)
			if err != nil {
				t.Fatalf("branchPoint: %v", err)
			}
			if ok != (tt.wantRef != "") || bp.Ref != tt.wantRef || bp.Base != wantBase {
				t.Errorf("got %+v, %v; want ref %q base %q", bp, ok, tt.wantRef, wantBase)
			}
		})
	}
}

func TestCollectBranch(t *testing.T) {
	tests := []struct {
		name      string
		onMain    bool
		wantFiles []string
		wantBase  bool // Result.Base is main's tip; otherwise ""
	}{
		{"feature branch: its commits and uncommitted work", false, []string{"feature.txt", "wip.txt"}, true},
		{"on the default branch: uncommitted work only", true, []string{"feature.txt", "wip.txt"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			requireGit(t)
			repo, mainTip := branchRepo(t)
			if tt.onMain {
				// main catches up with feature; the work stays uncommitted
				git(t, repo, "checkout", "-q", "main")
				write(t, repo, "feature.txt", "feature\n")
			}
			res, err := Collect(context.Background(), Options{Root: repo, Branch: true})
			if err != nil {
				t.Fatalf("Collect: %v", err)
			}
			if !slices.Equal(res.Files, tt.wantFiles) {
				t.Errorf("Files: got %q, want %q", res.Files, tt.wantFiles)
			}
			wantBase := ""
			if tt.wantBase {
				wantBase = mainTip
			}
			if res.Base != wantBase {
				t.Errorf("Base: got %q, want %q", res.Base, wantBase)
			}
			if res.Branch == nil || res.Branch.Ref != "main" {
				t.Fatalf("Branch: got %+v, want ref main", res.Branch)
			}
			if adds := res.Branch.Base != res.HeadCommit; adds != tt.wantBase {
				t.Errorf("branch adds commits: got %v, want %v", adds, tt.wantBase)
			}
		})
	}
}

func TestCollectExplicitBaseWinsOverBranch(t *testing.T) {
	requireGit(t)
	repo, _ := branchRepo(t)
	first := git(t, repo, "rev-parse", "main~1")
	res, err := Collect(context.Background(), Options{Root: repo, Base: first, Branch: true})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"feature.txt", "main.txt", "wip.txt"}; !slices.Equal(res.Files, want) {
		t.Errorf("Files: got %q, want %q", res.Files, want)
	}
	if res.Base != first || res.Branch != nil {
		t.Errorf("Base, Branch: got %q, %+v; want %q, nil", res.Base, res.Branch, first)
	}
}

func TestCurrentBranch(t *testing.T) {
	requireGit(t)
	repo, _ := branchRepo(t)
	ctx := context.Background()
	if got := CurrentBranch(ctx, repo); got != "feature" {
		t.Errorf("on feature: got %q", got)
	}
	git(t, repo, "checkout", "-q", "--detach")
	if got := CurrentBranch(ctx, repo); got != "" {
		t.Errorf("detached: got %q, want \"\"", got)
	}
	if got := CurrentBranch(ctx, tempDir(t)); got != "" {
		t.Errorf("outside git: got %q, want \"\"", got)
	}
}
