package review

import (
	"cmp"
	"fmt"
	"strings"
)

// The wording of specdev gate: the step that opens the gate again, and
// how the files it covers are named.

// requestNext is the step that opens the gate again: a review of what it
// covers now, once any other active review is done.
func (g *gateCheck) requestNext() string {
	cmd := "ask for a review: " + g.requestCommand()
	if r := g.snap.Request; r != nil && r.Status.Active() {
		return fmt.Sprintf("wait for the review of gate %s (specdev work --timeout 10m), then %s", r.Gate, cmd)
	}
	return cmd
}

// requestCommand is the `work request` that reviews what the gate covers.
func (g *gateCheck) requestCommand() string {
	cmd := "specdev work request"
	if g.kind == staged {
		cmd += " --staged"
	}
	if g.gate != requestGate(g.snap, "") {
		cmd += " --gate " + g.gate
	}
	if g.s.Assignment != "" || g.named {
		cmd += " --assignment " + g.a.Name
	}
	return cmd
}

func (sc gateScope) goAhead() string {
	return "go ahead: " + cmp.Or(map[string]string{staged: "git commit", pushed: "git push"}[sc.kind], "commit or push")
}

// what names what the gate covers, for the start of a sentence.
func (sc gateScope) what() string {
	switch sc.kind {
	case staged:
		return "the staged change"
	case pushed:
		if sc.ref == "" {
			return "the push"
		}
		return "what the push of " + sc.ref + " carries"
	}
	return "what the branch adds"
}

// countOf counts n files of what the gate covers: "2 staged files are".
func (sc gateScope) countOf(n int) string {
	word := map[string]string{staged: "staged file", pushed: "pushed file", branch: "changed file"}[sc.kind]
	if n == 1 {
		return "1 " + word + " is"
	}
	return plural(n, word) + " are"
}

// atHead is ", head abc1234", or "" when the review knew no commit.
func atHead(commit string) string {
	if commit == "" {
		return ""
	}
	return ", head " + short(commit)
}

// writeFileList prints a titled list of files, if there are any.
func writeFileList(b *strings.Builder, title string, files []string) {
	if len(files) == 0 {
		return
	}
	fmt.Fprintf(b, "%s (%d):\n", title, len(files))
	for _, f := range files {
		fmt.Fprintf(b, "  %s\n", f)
	}
}
