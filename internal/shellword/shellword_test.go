package shellword

import (
	"os/exec"
	"testing"
)

func TestWordRoundTripsThroughSh(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	for _, w := range []string{"src/a.go", "a b.go", "it's", `"q"`, "$HOME", "a;b", "-n", "", "ü.go", "*", "x\ny", `back\slash`} {
		out, err := exec.Command(sh, "-c", "printf %s "+Word(w)).Output()
		if err != nil {
			t.Fatalf("%q: %v", w, err)
		}
		if string(out) != w {
			t.Errorf("Word(%q) = %s reads back as %q", w, Word(w), out)
		}
	}
}

func TestWordLeavesPlainWordsAlone(t *testing.T) {
	for _, w := range []string{"src/a.go", "rv-1", "a=b", "v1.2:3"} {
		if got := Word(w); got != w {
			t.Errorf("Word(%q) = %q", w, got)
		}
	}
	if got := Join([]string{"git", "diff", "a b"}); got != "git diff 'a b'" {
		t.Errorf("Join = %q", got)
	}
}
