package review

import (
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
	if g.staged {
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

func (g *gateCheck) goAhead() string {
	if g.staged {
		return "go ahead: git commit"
	}
	return "go ahead: commit or push"
}

// what names what the gate covers, for the start of a sentence.
func (g *gateCheck) what() string {
	if g.staged {
		return "the staged change"
	}
	return "what the branch adds"
}

// countFiles counts what the gate covers: "2 staged files are".
func (g *gateCheck) countFiles() string {
	word := "changed file"
	if g.staged {
		word = "staged file"
	}
	if len(g.files) == 1 {
		return "1 " + word + " is"
	}
	return plural(len(g.files), word) + " are"
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
