package review

import (
	"slices"
	"testing"
)

func TestGitFromReachesTheRoot(t *testing.T) {
	for _, c := range []struct {
		root, wd string
		want     []string
	}{
		{"/p", "/p", []string{"git"}},
		{"/p", "/p/src/auth", []string{"git", "-C", "../.."}},
		{"/p", "/elsewhere", []string{"git", "-C", "../p"}},
		{"/p", "", []string{"git"}},
		{"", "/p", []string{"git"}},
	} {
		if got := gitFrom(c.root, c.wd); !slices.Equal(got, c.want) {
			t.Errorf("gitFrom(%q, %q) = %q, want %q", c.root, c.wd, got, c.want)
		}
	}
}
