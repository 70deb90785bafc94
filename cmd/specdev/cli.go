package main

import (
	"fmt"

	"github.com/alecthomas/kong"
)

// CLI is the command line of specdev. Every help page, the shell
// completion scripts and the examples test are generated from kong's model
// of this struct, so they cannot drift from what the parser accepts.
type CLI struct {
	Globals `group:"global"`

	Init       InitCmd       `cmd:"" help:"Create .specdev/ (assignments/, config.json, agent guides). Running it twice changes nothing."`
	Work       WorkCmd       `cmd:"" help:"The implementer's side: ask for a review, see the verdict, fix, ask again."`
	Check      CheckCmd      `cmd:"" help:"The reviewer's side: claim a review, record every file, give a verdict."`
	Decide     DecideCmd     `cmd:"" help:"(Human) decide the reviews awaiting approval: follow or override the reviewer's proposal. Never claims."`
	Loop       LoopCmd       `cmd:"" help:"Run an assignment's whole review loop with agents: the implementer works, the reviewer reviews, until a pass or a human must decide."`
	Agents     AgentsCmd     `cmd:"" help:"List the agents specdev can start (built in, and config.json \"agents\"), with whether each is on PATH."`
	Group      GroupCmd      `cmd:"" help:"Declare a group of parallel loops (create), or drop an abandoned loop from it (drop)."`
	Status     StatusCmd     `cmd:"" help:"All assignments at a glance, and what needs a human (with the command to run)."`
	History    HistoryCmd    `cmd:"" help:"The event log of an assignment (-n, --round, --event select part of it)."`
	Report     ReportCmd     `cmd:"" help:"Print an assignment's review report (review_report.md), or its path."`
	Doctor     DoctorCmd     `cmd:"" help:"Check the set-up: config.json, git, the pre-flight gate's consent, the agent guides, the hooks."`
	Allow      AllowCmd      `cmd:"" help:"(Human) let the project's pre-flight gate, as it is now, run at claims on this machine. Never run by an agent."`
	Gate       GateCmd       `cmd:"" help:"Exit 0 only if every file you commit (--staged) or push is what a passed review saw."`
	Hook       HookCmd       `cmd:"" help:"Install, remove or show the git hooks that run specdev gate (pre-commit, pre-push)."`
	Mcp        McpCmd        `cmd:"" help:"Serve specdev's operations as MCP tools on stdin and stdout (for Claude Code, Codex, Cursor…); specdev mcp config HOST prints the host's entry."`
	Schema     SchemaCmd     `cmd:"" help:"Print the JSON Schema of a file specdev reads (request, progress, verdict, findings, history, config, group)."`
	Version    VersionCmd    `cmd:"" help:"Print the version."`
	Help       HelpCmd       `cmd:"" help:"Show the help of a command: specdev help check record."`
	Completion CompletionCmd `cmd:"" help:"Print a shell completion script (bash, zsh or fish)."`
}

// Globals are the flags every command takes.
type Globals struct {
	Dir         string      `help:"Project folder (or its .specdev folder). Default: the nearest .specdev walking up." env:"SPECDEV_DIR" placeholder:"PATH" predictor:"dir"`
	JSON        bool        `name:"json" help:"Print exactly one JSON document on stdout."`
	LogLevel    string      `help:"Log level on stderr: ${enum} (default: ${default})." default:"warn" enum:"debug,info,warn,error" placeholder:"LEVEL"`
	Session     string      `help:"Your reviewer session id (you choose it; specdev check --new-session makes one)." env:"SPECDEV_SESSION" placeholder:"ID"`
	Lease       string      `help:"The lease your claim printed (specdev check): reviewer writes present it." env:"SPECDEV_LEASE" placeholder:"LEASE"`
	Assignment  string      `help:"Assignment folder name or a unique prefix of it." env:"SPECDEV_ASSIGNMENT" placeholder:"NAME"`
	ShowVersion versionFlag `name:"version" help:"Print the version and exit."`
}

// WorkCmd groups the implementer's commands. Without a subcommand it shows
// the review state and the one next step.
type WorkCmd struct {
	Show     WorkShowCmd     `cmd:"" default:"withargs" hidden:"" help:"Shows the review state and the one next step; with --timeout it waits for the verdict."`
	Request  WorkRequestCmd  `cmd:"" help:"Ask for a review of the changed files."`
	Continue WorkContinueCmd `cmd:"" help:"(Human) let a paused manual-mode implementer go on after a rejection."`
	Unblock  WorkUnblockCmd  `cmd:"" help:"(Human) lift a review loop blocked at its round limit."`
	Cancel   WorkCancelCmd   `cmd:"" help:"Withdraw an active review request."`

	OldStatus WorkShowCmd `cmd:"" name:"status" hidden:"" renamed:"specdev work" help:"The original tool's name of specdev work."`
}

// CheckCmd groups the reviewer's commands. Without a subcommand it polls
// once: it claims a review and prints the briefing.
type CheckCmd struct {
	Poll    CheckPollCmd    `cmd:"" default:"withargs" hidden:"" help:"Polls once: for your session (--session, SPECDEV_SESSION or --new-session) it claims a review and prints the briefing, and with --timeout waits for one; without a session it only shows what waits and claims nothing."`
	Record  CheckRecordCmd  `cmd:"" help:"Mark one file reviewed with its findings (your checkpoint)."`
	Verdict CheckVerdictCmd `cmd:"" help:"Give the verdict: pass or fail."`
	Approve CheckApproveCmd `cmd:"" help:"(Human) approve a review awaiting approval: it passes."`
	Reject  CheckRejectCmd  `cmd:"" help:"(Human) reject a review awaiting approval: it fails."`
	Release CheckReleaseCmd `cmd:"" help:"Give your review back; its progress is kept for the next reviewer."`

	OldStatus StatusCmd       `cmd:"" name:"status" hidden:"" renamed:"specdev status" help:"The original tool's name of specdev status."`
	OldRun    CheckPollCmd    `cmd:"" name:"run" hidden:"" renamed:"specdev check --session ID" help:"The original tool's name of specdev check."`
	OldResume CheckPollCmd    `cmd:"" name:"resume" hidden:"" renamed:"specdev check --session ID (it resumes the review the session holds)" help:"The original tool's name of specdev check."`
	OldAccept CheckApproveCmd `cmd:"" name:"accept" hidden:"" renamed:"specdev check approve" help:"The original tool's name of specdev check approve."`
}

// noteRenamed says today's name once on stderr when the command kctx
// selected is one of the original tool's (its field's renamed tag), so
// that a person or an agent with the old name learns the new one. The
// old names keep working: each runs the command that does the job today,
// and stdout and --json stay that command's own.
func noteRenamed(app *App, kctx *kong.Context) {
	if sel := kctx.Selected(); sel != nil && sel.Tag.Get("renamed") != "" {
		fmt.Fprintf(app.stderr, "specdev: note: %q is the original tool's name; today's is %s\n", "specdev "+sel.Path(), sel.Tag.Get("renamed"))
	}
}
