package checkpoint

import (
	"regexp"
	"strings"
	"testing"
)

// Store.Assignment takes as an assignment's name exactly what
// ^[A-Za-z0-9][A-Za-z0-9._-]*$ matches, up to 200 bytes: any other name
// is refused as such, before the folder is looked for.
func TestAssignmentNameMatchesItsPattern(t *testing.T) {
	st := testAssignment(t).store
	pattern := regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)
	for _, name := range []string{
		"00002_feature_login", "a", "Z9", "a.b-c_d", "", ".hidden", "-x", "_x", "a b", "a/b",
		"é", "a\x00", "a\n", "../x", "x..", strings.Repeat("a", 200), strings.Repeat("a", 201),
	} {
		want := pattern.MatchString(name) && len(name) <= 200
		_, err := st.Assignment(name)
		if got := err == nil || !strings.Contains(err.Error(), "must match"); got != want {
			t.Errorf("Assignment(%q) takes the name: %v (%v), want %v", name, got, err, want)
		}
	}
}
