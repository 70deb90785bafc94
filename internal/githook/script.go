package githook

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"

	"github.com/specdev/specdev/internal/shellword"
)

// Spec is the hook to write.
type Spec struct {
	Hook   string   // pre-commit or pre-push
	Binary string   // absolute path of the specdev to run; "" or missing at run time: specdev on PATH
	Args   []string // its arguments, e.g. gate --staged --dir .
}

// markerPrefix starts the second line of every hook specdev writes.
const markerPrefix = "# specdev hook: "

// commandPrefix starts the line that records what the hook runs.
const commandPrefix = "# runs: "

// Script is the text of the hook: run the chained hook, if any and
// executable, then the gate; when the gate blocks, say how to go on. The
// pre-push hook keeps the refs git pushes (its stdin) for both, and gives
// the gate the remote's name (its first argument) with --pre-push.
func Script(s Spec) []byte {
	verb, bypass, keep, feed, push := "commit", "git commit --no-verify", "", "", ""
	if s.Hook == "pre-push" {
		verb, bypass, push = "push", "git push --no-verify", ` --pre-push "$1"`
		keep, feed = "refs=$(cat) # the refs git pushes, for the chained hook and the gate\n", `printf '%s\n' "$refs" | `
	}
	command := shellword.Join(s.Args) + push
	var b bytes.Buffer
	fmt.Fprintf(&b, `#!/bin/sh
%[1]s%[2]s
# Installed by "specdev hook install %[2]s"; "specdev hook uninstall %[2]s" removes it
# and puts back the hook it chains, if there is one.
%[3]sspecdev %[4]s
%[9]s
chained="$(dirname -- "$0")/%[2]s%[5]s"
if [ -x "$chained" ]; then
	%[10]s"$chained" "$@" || exit $?
fi

installed=%[6]s
specdev="$installed"
if [ ! -x "$specdev" ]; then
	specdev=$(command -v specdev) || {
		echo "specdev hook %[2]s: specdev is neither at $installed nor on PATH." >&2
		echo "Install it, or remove this hook: specdev hook uninstall %[2]s" >&2
		echo "To %[7]s without the review gate, knowingly: %[8]s" >&2
		exit 1
	}
fi
%[10]s"$specdev" %[4]s && exit 0
status=$?
echo >&2
echo "specdev hook %[2]s: the review gate blocked this %[7]s (exit $status); see above." >&2
echo "To %[7]s without it, knowingly: %[8]s" >&2
exit $status
`, markerPrefix, s.Hook, commandPrefix, command, ChainSuffix, shellword.Quote(s.Binary), verb, bypass, keep, feed)
	return b.Bytes()
}

// parseScript tells whether a hook's text is one specdev wrote for hook,
// and what it runs.
func parseScript(hook string, data []byte) (ours bool, command string) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	for i := 0; sc.Scan() && i < 8; i++ {
		line := sc.Text()
		switch {
		case i == 1:
			if line != markerPrefix+hook {
				return false, ""
			}
			ours = true
		case strings.HasPrefix(line, commandPrefix):
			command = strings.TrimPrefix(line, commandPrefix)
		}
	}
	return ours, command
}
