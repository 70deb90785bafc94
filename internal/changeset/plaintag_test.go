package changeset

import (
	"regexp"
	"testing"
)

// plainTag accepts exactly what ^[A-Za-z0-9][A-Za-z0-9._/+-]*$ matches.
func TestPlainTagMatchesItsPattern(t *testing.T) {
	pattern := regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._/+-]*$`)
	for _, tag := range []string{
		"v1.2.3", "release/2026-11", "1+build", "a", "", ".v1", "-x", "/x", "+x", "v1 2",
		"v1;rm", "$(x)", "it's", "é", "v1\n", "a_b",
	} {
		if got, want := plainTag(tag), pattern.MatchString(tag); got != want {
			t.Errorf("plainTag(%q) = %v, want %v", tag, got, want)
		}
	}
}
