#!/usr/bin/env bash
# demo.sh: a full review hand-off in a temporary git repository, narrated.
# An implementer asks for a review; a reviewer claims it, records every
# file (crashing half-way, so that a second reviewer takes over and
# resumes), fails it with findings; the implementer fixes and asks again;
# round 2 passes. Every command is shown with its output and exit code.
set -uo pipefail

bin=$(cd "$(dirname "${1:-bin/specdev}")" && pwd)/$(basename "${1:-bin/specdev}")
[ -x "$bin" ] || { echo "demo: build first (make build); no $bin" >&2; exit 1; }
demo=$(mktemp -d "${TMPDIR:-/tmp}/specdev-demo.XXXXXX")
trap 'rm -rf "$demo"' EXIT
mkdir "$demo/repo" && cd "$demo/repo"
export GIT_AUTHOR_NAME=demo GIT_AUTHOR_EMAIL=demo@example.com GIT_COMMITTER_NAME=demo GIT_COMMITTER_EMAIL=demo@example.com
export NO_COLOR=1

say() { printf '\n\033[1m## %s\033[0m\n' "$*"; }
run() {
	printf '\n$ specdev'
	for arg in "$@"; do
		case $arg in
		*[[:space:]\;\'\|\&]*) printf ' "%s"' "$arg" ;;
		*) printf ' %s' "$arg" ;;
		esac
	done
	printf '\n'
	"$bin" "$@"
	printf '[exit %d]\n' $?
}

say "A project with some code, and specdev set up"
mkdir -p src/auth
printf 'package auth\n\nfunc Login(user, pass string) bool { return check(user, pass) }\n' >src/auth/login.go
git init -q -b main && git add -A && git commit -qm "initial"
run init
mkdir -p .specdev/assignments/00001_login_throttling
cat >.specdev/config.json <<'JSON'
{
  "version": 1,
  "stale_after": "2s",
  "lock_timeout": "10s",
  "effort": "medium",
  "preflight_timeout": "1m"
}
JSON
cat >.specdev/verify-gates.sh <<'SH'
#!/bin/sh
echo "gofmt: ok"; echo "structure: ok"
SH
chmod +x .specdev/verify-gates.sh

say "Implementer: build the feature and ask for a review"
printf 'package auth\n\nfunc Login(user, pass string) bool { return !Throttled(user) && check(user, pass) }\n' >src/auth/login.go
printf 'package auth\n\nvar failures = map[string]int{}\n\nfunc Throttled(user string) bool { return failures[user] > 5 }\n' >src/auth/throttle.go
printf 'package auth\n\nimport "testing"\n\nfunc TestThrottled(t *testing.T) {}\n' >src/auth/throttle_test.go
run work request --notes "adds login throttling"
run work

say "Reviewer A: claim it (the pre-flight gate runs first) and review two of the three files"
export SPECDEV_SESSION=rv-a
run check
run check record src/auth/login.go
run check record src/auth/throttle.go --finding "important: the failure counter is kept in memory only" --line 3 --suggestion "persist it with the session store"

say "Reviewer A crashes. Two seconds later (stale_after in config.json) the review is stale"
sleep 2.2
run status

say "Reviewer B: the next poll takes the review over and resumes where A stopped"
export SPECDEV_SESSION=rv-b
run check
run check record src/auth/throttle_test.go --finding "important: TestThrottled asserts nothing"

say "Reviewer A comes back: fenced off, it learns who took over"
SPECDEV_SESSION=rv-a run check record src/auth/throttle_test.go

say "Reviewer B gives the verdict"
run check verdict fail --summary "the throttle resets on restart and is untested"

say "Implementer: the rejection, with every finding"
unset SPECDEV_SESSION
run work

say "Reviewer B waits for the next round: specdev check --timeout 30 (file notifications, no busy loop)"
( SPECDEV_SESSION=rv-b "$bin" check --timeout 30 >"$demo/wait.out" 2>&1; echo "[exit $?]" >>"$demo/wait.out" ) &
waiter=$!
sleep 0.5

say "Implementer: fix, commit, and ask for round 2 (what changed since the reviewed commit, plus the files with findings)"
printf 'package auth\n\nfunc Throttled(user string) bool { return store.Failures(user) > 5 }\n' >src/auth/throttle.go
printf 'package auth\n\nimport "testing"\n\nfunc TestThrottled(t *testing.T) { if Throttled("x") { t.Fatal("new user throttled") } }\n' >src/auth/throttle_test.go
git add -A && git commit -qm "persist failures; test the throttle"
run work request --notes "counter persisted; test added"

say "Reviewer B's waiting check woke up as the request landed and claimed round 2"
wait "$waiter"
printf '\n$ SPECDEV_SESSION=rv-b specdev check --timeout 30   (started before the request)\n'
cat "$demo/wait.out"

say "Reviewer B reviews round 2 and passes it"
export SPECDEV_SESSION=rv-b
run check record src/auth/login.go
run check record src/auth/throttle.go
run check record src/auth/throttle_test.go
run check verdict pass --summary "counter persisted; test covers the throttle"

say "Implementer: passed"
unset SPECDEV_SESSION
run work
run status
run history

say "The report the reviewers wrote, file by file"
cat .specdev/assignments/00001_login_throttling/review_report.md
