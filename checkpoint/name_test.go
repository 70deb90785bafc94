package checkpoint

import (
	"regexp"
	"strings"
	"testing"
)

// CheckName accepts exactly what ^[A-Za-z0-9][A-Za-z0-9._-]*$ matches, up
// to 200 bytes.
func TestCheckNameMatchesItsPattern(t *testing.T) {
	pattern := regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)
	for _, name := range []string{
		"00002_feature_login", "a", "Z9", "a.b-c_d", "", ".hidden", "-x", "_x", "a b", "a/b",
		"é", "a\x00", "a\n", "../x", "x..", strings.Repeat("a", 200), strings.Repeat("a", 201),
	} {
		want := pattern.MatchString(name) && len(name) <= 200
		if got := CheckName(name) == nil; got != want {
			t.Errorf("CheckName(%q) accepts: %v, want %v", name, got, want)
		}
	}
}
