package main

import (
	"fmt"
	"io"
	"strings"
	"sync"
)

// example is one command line shown on a help page, with what it does.
type example struct {
	note, cmd string
}

// examples are the EXAMPLES of each help page, by command path ("" is the
// overview), made when a help page is (a map literal is built at start-up
// by every command). A test parses every one against the CLI and checks
// that it selects the command of its page, and that every command has some.
var examples = sync.OnceValue(func() map[string][]example {
	return map[string][]example{
		"": {
			{"once per project, then one folder per assignment", "specdev init"},
			{"implementer: ask for a review of the changed files", `specdev work request --notes "adds login throttling"`},
			{"implementer: wait up to 10 minutes for the verdict", "specdev work --timeout 10m"},
			{"reviewer: wait for a review, claim it and print the briefing", "specdev check --session rv-4f2a --timeout 10m"},
			{"a human: decide the reviews awaiting approval", "specdev decide"},
			{"before a commit: did the review of exactly this change pass?", "specdev gate --staged"},
			{"everything at a glance, and who must act", "specdev status"},
			{"check the set-up: git, the gate, config, guides, hooks, every assignment", "specdev doctor"},
		},
		"init": {
			{"create .specdev/ in the current folder (safe to repeat)", "specdev init"},
			{"create it in another project", "specdev init --dir ../other-project"},
			{"also bring the installed agent guides up to this version (local edits are lost)", "specdev init --update-skills"},
		},
		"work": {
			{"the review state of the newest assignment and the one next step", "specdev work"},
			{"wait up to 10 minutes for the verdict (exit 3 if none came)", "specdev work --timeout 10m"},
			{"pause for a human after a rejection instead of fixing at once", "specdev work mode=manual"},
			{"the same for another assignment, as one JSON document", "specdev --json work --assignment 00002"},
			{"wait until every loop of group api passed or one needs a human, then show each (exit 0: all passed)", "specdev work --group api --timeout 30m"},
		},
		"work request": {
			{"ask for a review of the uncommitted, untracked and new committed files", `specdev work request --notes "adds login throttling"`},
			{"also review the commits since main", "specdev work request --base main"},
			{"review exactly these files", "specdev work request --files src/auth/login.go --files src/auth/throttle.go"},
			{"put assignment 00002 in group api of parallel loops (later rounds keep it)", "specdev work request --group api --assignment 00002"},
			{"the first of three loops of group api: the group waits for all three", "specdev work request --group api --expect 3 --assignment 00001"},
			{"a loop with a higher effort level (round limit 4), kept by its later requests", "specdev work request --effort high"},
			{"a checkpoint review of work in progress: findings on the way, not a round", `specdev work request --checkpoint --notes "halfway: the store is done"`},
		},
		"group": {
			{"the loops of group api at a glance, as specdev status --group api", "specdev group api"},
		},
		"group create": {
			{"declare group api over three loops, before they all started", "specdev group create api --loops 00001,00002,00003"},
		},
		"group drop": {
			{"a human drops the abandoned loop 00004 from group api", "specdev group drop api 00004"},
		},
		"work continue": {
			{"a human lets a paused implementer go on, with guidance", `specdev work continue --guidance "keep the public API unchanged"`},
		},
		"work unblock": {
			{"a human allows two more review rounds", "specdev work unblock --rounds 2"},
		},
		"work cancel": {
			{"withdraw the active request of assignment 00002", "specdev work cancel --assignment 00002"},
		},
		"check": {
			{"look at what waits for a reviewer; claims nothing", "specdev check"},
			{"poll once as session rv-4f2a: claim a review (exit 3: nothing to do yet)", "specdev check --session rv-4f2a"},
			{"claim under a newly generated session id", "specdev check --new-session"},
			{"wait up to 10 minutes for a review to claim", "specdev check --session rv-4f2a --timeout 10m"},
			{"review with a human approving the verdict (switches a review you hold)", "specdev check mode=manual --session rv-4f2a"},
			{"take over assignment 00002 from a live session", "specdev check --force --assignment 00002 --session rv-9c01"},
			{"have Claude Code review the next waiting review (specdev starts it and keeps its lease)", "specdev check --agent claude"},
			{"serve for an hour with up to 4 Codex reviewers at once", "specdev check --agent codex --parallel 4 --timeout 1h"},
		},
		"loop": {
			{"the whole loop of the newest assignment: Claude implements, Codex reviews", "specdev loop --implementer claude --reviewer codex"},
			{"the loop of assignment 00002, with one agent on both sides", "specdev loop --implementer claude --reviewer claude --assignment 00002"},
		},
		"agents": {
			{"the agents specdev can start, and whether each is installed", "specdev agents"},
			{"the same as one JSON document", "specdev --json agents"},
		},
		"check record": {
			{"a file without findings", "specdev check record src/auth/login.go --session rv-4f2a --lease ls-9b3e0c7a5d1f2e48"},
			{"a finding with its line and a suggestion", `specdev check record src/auth/throttle.go --session rv-4f2a --lease ls-9b3e0c7a5d1f2e48 --finding "important: the counter is kept in memory only" --line 42 --suggestion "persist it with the session store"`},
			{"many findings from a JSON file (specdev schema findings)", "specdev check record src/auth/login.go --session rv-4f2a --lease ls-9b3e0c7a5d1f2e48 --findings findings.json"},
			{"one more finding, keeping the file's earlier ones (a plain record replaces them)", `specdev check record src/auth/login.go --add --session rv-4f2a --lease ls-9b3e0c7a5d1f2e48 --finding "minor: log the lockout"`},
			{"from the folder src/auth: paths are read from the current folder, as git reads them", "specdev check record throttle.go --session rv-4f2a --lease ls-9b3e0c7a5d1f2e48"},
		},
		"check verdict": {
			{"every file is recorded and nothing must change", `specdev check verdict pass --summary "throttling works and is tested" --session rv-4f2a --lease ls-9b3e0c7a5d1f2e48`},
			{"changes are needed", `specdev check verdict fail --summary "the throttle resets on restart" --session rv-4f2a --lease ls-9b3e0c7a5d1f2e48`},
			{"a structured verdict (specdev schema verdict)", "specdev check verdict --file verdict.json --session rv-4f2a --lease ls-9b3e0c7a5d1f2e48"},
		},
		"check approve": {
			{"a human passes the one review awaiting approval", `specdev check approve --notes "ship it"`},
			{"the same when several await approval", "specdev check approve --assignment 00002"},
			{"pass a change the reviewer proposed to fail (an override)", `specdev check approve --override --notes "the failing test is flaky, tracked in #12"`},
		},
		"check reject": {
			{"a human fails the review awaiting approval", `specdev check reject --reason "the throttle must survive restarts"`},
		},
		"check release": {
			{"give your review back; the next reviewer resumes it", "specdev check release --session rv-4f2a --lease ls-9b3e0c7a5d1f2e48"},
		},
		"decide": {
			{"on a terminal: follow or override each proposal; elsewhere: list what awaits", "specdev decide"},
			{"only assignment 00002", "specdev decide --assignment 00002"},
		},
		"gate": {
			{"exit 0 only if the review of what the branch adds passed and nothing changed since", "specdev gate"},
			{"what git commit would commit (the pre-commit hook runs this)", "specdev gate --staged"},
			{"another gate, as one JSON document", "specdev --json gate --gate security"},
			{"sync at the end of a group: exit 0 only if every assignment of group api passed and still matches", "specdev gate --group api"},
		},
		"hook": {
			{"which hooks run specdev gate, and where", "specdev hook status"},
			{"the same: status is the default", "specdev hook"},
		},
		"hook install": {
			{"run specdev gate --staged before every commit (an existing hook still runs first)", "specdev hook install pre-commit"},
			{"run specdev gate before every push", "specdev hook install pre-push"},
		},
		"hook uninstall": {
			{"remove the pre-commit hook; a hook it chained is put back", "specdev hook uninstall pre-commit"},
		},
		"mcp": {
			{"serve the MCP tools on stdin and stdout (an MCP host starts this)", "specdev mcp"},
			{"the same for another project, under a fixed reviewer session", "specdev mcp --dir ../other-project --session rv-agent"},
		},
		"mcp config": {
			{"print Claude Code's entry for .mcp.json", "specdev mcp config claude"},
			{"add the entry to .cursor/mcp.json, keeping the servers there", "specdev mcp config cursor --write"},
			{"add it to ~/.codex/config.toml", "specdev mcp config codex --write"},
		},
		"status": {
			{"every assignment: status, round, reviewer, progress, and what needs a human", "specdev status"},
			{"the same as one JSON document (needs_human lists the commands)", "specdev --json status"},
			{"only the assignments of group api, and a one-line summary of the group", "specdev status --group api"},
		},
		"history": {
			{"the event log of assignment 00002", "specdev history 00002"},
			{"its last 5 events", "specdev history 00002 -n 5"},
			{"the verdicts and decisions of round 2", "specdev history 00002 --round 2 --event failed --event passed --event approved --event rejected"},
		},
		"report": {
			{"print the review report of the newest assignment", "specdev report"},
			{"only its path, e.g. to open it: vi \"$(specdev report 00002 --path)\"", "specdev report 00002 --path"},
			{"path and content as one JSON document", "specdev --json report 00002"},
		},
		"allow": {
			{"a person, after reading the gate: let it run when a review is claimed here", "specdev allow"},
			{"withdraw the consent: claims here give the review back until it is allowed again", "specdev allow --revoke"},
		},
		"doctor": {
			{"check git, the gate, config.json, the agent guides, the hooks and every assignment", "specdev doctor"},
			{"the same as one JSON document", "specdev --json doctor"},
		},
		"schema": {
			{"the fields a verdict file may have", "specdev schema verdict"},
		},
		"version": {
			{"the version, Go release and protocol version", "specdev version"},
			{"the same as a flag", "specdev --version"},
		},
		"help": {
			{"the help of a subcommand", "specdev help check record"},
		},
		"completion": {
			{"bash: add  source <(specdev completion bash)  to ~/.bashrc", "specdev completion bash"},
			{"zsh: add  source <(specdev completion zsh)  to ~/.zshrc, after compinit", "specdev completion zsh"},
			{"fish: write it to ~/.config/fish/completions/specdev.fish", "specdev completion fish"},
		},
	}
})

// writeExamples writes the EXAMPLES of the command at path, if it has any.
func writeExamples(w io.Writer, path string) {
	list := examples()[path]
	if list == nil {
		return
	}
	fmt.Fprint(w, "\nExamples:\n")
	for i, e := range list {
		if i > 0 {
			fmt.Fprintln(w)
		}
		for _, line := range wrap(strings.Fields(e.note), helpWidth-4) {
			fmt.Fprintf(w, "  # %s\n", line)
		}
		for _, line := range wrapCommand(e.cmd, helpWidth-2) {
			fmt.Fprintf(w, "  %s\n", line)
		}
	}
}
