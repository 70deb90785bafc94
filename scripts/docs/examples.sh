#!/usr/bin/env bash
# scripts/docs/examples.sh [CHECKOUT]
#
# Re-runs every example of docs/reviewer.md, docs/implementer.md, README.md
# and skills/*/SKILL.md against the binary of the checkout (default: this
# one; it runs `make build` there first), in scratch
# repositories under /tmp/specdev-guide/, and writes each console block to
# /tmp/docs-out/<section>.txt: every command as typed, its stdout and
# stderr together, and "[exit N]". Commit hashes are stable between runs
# (fixed author, committer and dates); leases, request ids and times are not.
# Needs git, jq, python3 (the pseudo-terminal helper onterm.py beside this
# script), flock. Then it rebuilds docs/reviewer.md and docs/implementer.md
# from templates/ (WRITE=0 skips that): edit the templates, not the two
# guides, and run this again. Not part of make test: a person reads the
# result (git diff docs/) before committing it.
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

# sec NAME: the following blocks go to $OUT/NAME.txt.
sec() { F=$OUT/$1.txt; : >"$F"; }
# run 'CMD': show it, run it (stdout and stderr together), show its exit code.
run() {
	local cmd=${1//@L/$LEASE}
	printf '$ %s\n' "$cmd" >>"$F"
	eval "$cmd" >>"$F" 2>&1
	printf '[exit %d]\n' $? >>"$F"
}
# show 'CMD': show it and its output, no exit code (cat, cd, export…).
show() {
	local cmd=${1//@L/$LEASE}
	printf '$ %s\n' "$cmd" >>"$F"
	eval "$cmd" >>"$F" 2>&1
}
# quiet 'CMD': show it, run it, show only its exit code.
quiet() {
	local cmd=${1//@L/$LEASE}
	printf '$ %s\n' "$cmd" >>"$F"
	eval "$cmd" >/dev/null 2>&1
	printf '[exit %d]   (output omitted)\n' $? >>"$F"
}
# off 'CMD': run it, show nothing (set-up the reader does not need).
off() { eval "${1//@L/$LEASE}" >/dev/null 2>&1 || echo "docs-examples: failed: $1" >&2; }
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
ms() { date +%s%3N; }


########################################################################
# The shop: one assignment's whole loop, seen from both sides.
########################################################################
newrepo shop
mkdir -p src/auth
printf 'package auth\n\nfunc Login(user, pass string) bool { return check(user, pass) }\n' >src/auth/login.go
printf '# Changelog\n' >CHANGELOG.md
git add -A && commit -m initial

sec impl-init
run 'specdev init'
run 'mkdir -p .specdev/assignments/00001_login_throttling'
run 'specdev work'

cat >.specdev/config.json <<'JSON'
{
  "version": 1,
  "stale_after": "2s",
  "lock_timeout": "10s",
  "effort": "medium",
  "preflight_timeout": "1s"
}
JSON
cat >.specdev/verify-gates.sh <<'SH'
#!/bin/sh
# the mechanical gate: refuse TODO markers in src/
if grep -rn TODO src; then echo "TODO markers left in src/"; exit 1; fi
echo "no TODO markers"
SH
chmod +x .specdev/verify-gates.sh
git add .specdev && commit -m "specdev set-up"

sec rev-setup
show 'cat .specdev/config.json'
show 'cat .specdev/verify-gates.sh'
run 'specdev allow'

git checkout -q -b login-throttling
printf '# Changelog\n\n- login throttling\n' >CHANGELOG.md
printf 'package auth\n\nfunc Login(user, pass string) bool { return !Throttled(user) && check(user, pass) }\n' >src/auth/login.go
printf 'package auth\n\nvar failures = map[string]int{}\n\nfunc Throttled(user string) bool { return failures[user] > 5 }\n' >src/auth/throttle.go
printf 'package auth\n\nimport "testing"\n\nfunc TestThrottled(t *testing.T) {}\n' >src/auth/throttle_test.go
git add -A && commit -m "throttle failed logins"

sec impl-request
run 'git log --oneline main..'
run 'specdev work request --notes "adds login throttling"'
sec impl-request-json
show 'cat .specdev/assignments/00001_login_throttling/review_request.json'

sec impl-pending
run 'specdev work'
run 'specdev work request --notes "one more thing"'
run 'specdev work --timeout 2s'

sec rev-look
run 'specdev check                    # exit 0: a look, claims nothing'

sec rev-claim
run 'specdev check --session rv-alice'
lease 00001

sec rev-other-sees
run 'specdev check --session rv-other   # exit 3: nothing to claim'

sec rev-record
run 'specdev check record src/auth/login.go --session rv-alice'
run 'specdev check record src/auth/login.go --session rv-alice --lease @L'
run 'specdev check record src/auth/throttle.go --session rv-alice --lease @L --finding "important: the failure counter is kept in memory only" --line 3 --suggestion "persist it with the session store"'

sec impl-in-progress
run 'specdev work'

sec rev-pass-refused
run 'specdev check verdict pass --summary "looks fine" --session rv-alice --lease @L'

sec rev-record2
run 'specdev check record src/auth/throttle_test.go --session rv-alice --lease @L --finding "important: TestThrottled asserts nothing" --line 5 --suggestion "assert that the sixth failure throttles"'
run 'specdev check record CHANGELOG.md --session rv-alice --lease @L'

# the implementer waits in another terminal; the verdict wakes it
specdev work --timeout 10m >"$OUT/.wait.txt" 2>&1 &
waitpid=$!
sleep 2
sec rev-verdict1
run 'specdev check verdict fail --summary "the throttle resets on restart and is untested" --intent "stop password guessing by throttling repeated failed logins" --no-intent-satisfied --session rv-alice --lease @L'
t_verdict=$(ms)
wait $waitpid
waitrc=$?
t_woke=$(ms)
sec impl-woke
printf '$ specdev work --timeout 10m      # started 2 s before the verdict\n' >>"$F"
cat "$OUT/.wait.txt" >>"$F"
printf '[exit %d]\n' $waitrc >>"$F"
echo "$((t_woke - t_verdict))" >"$OUT/impl-woke-ms.txt"   # an upper bound: includes this script's steps

sec impl-json
run 'specdev --json work | jq "del(.data.request)"'

########################################################################
# Round 2: a follow-up for the same session
########################################################################
printf 'package auth\n\nimport "example.com/shop/session"\n\nfunc Throttled(user string) bool { return session.Failures(user) > 5 }\n' >src/auth/throttle.go
commit -am "throttle: keep the counter in the session store"

specdev check --session rv-alice --timeout 1m >"$OUT/.r2.txt" 2>&1 &
waitpid=$!
sleep 1
sec impl-round2-request
run 'specdev work request --notes "counter kept in the session store"'
wait $waitpid
r2rc=$?
sec rev-round2-briefing
printf '$ specdev check --session rv-alice --timeout 1m      # started 1 s before the request\n' >>"$F"
cat "$OUT/.r2.txt" >>"$F"
printf '[exit %d]\n' $r2rc >>"$F"
lease 00001
wc -c <"$OUT/.r2.txt" >"$OUT/rev-round2-bytes.txt"

sec rev-round2-record
run 'specdev check record src/auth/throttle.go --session rv-alice --lease @L --finding "minor: 5 is a magic number" --line 5 --suggestion "name it maxFailures"'
run 'specdev check record src/auth/throttle_test.go --session rv-alice --lease @L --finding "important: TestThrottled still asserts nothing" --line 5'
run 'specdev check verdict fail --summary "the test still asserts nothing" --session rv-alice --lease @L'

sec impl-round2-failed
run 'specdev work'

sec rev-report-addendum
show "sed -n '1,4p;/^# Addendum/,\$p' .specdev/assignments/00001_login_throttling/review_report.md"

########################################################################
# Round 3: another session, a full review; it crashes; a takeover
########################################################################
printf 'package auth\n\nimport "example.com/shop/session"\n\nconst maxFailures = 5\n\nfunc Throttled(user string) bool { return session.Failures(user) > maxFailures }\n' >src/auth/throttle.go
printf 'package auth\n\nimport "testing"\n\nfunc TestThrottled(t *testing.T) {\n\tfor i := 0; i < 6; i++ {\n\t\tfail("ann")\n\t}\n\tif !Throttled("ann") {\n\t\tt.Fatal("not throttled after 6 failures")\n\t}\n}\n' >src/auth/throttle_test.go
commit -am "throttle: name the limit, test it"
sec impl-round3-request
run 'specdev work request --notes "the test asserts the sixth failure; maxFailures named"'

sec rev-round3-claim
run 'specdev check --session rv-bob'
lease 00001
sec rev-round3-fallback
run 'specdev history 00001 --event resume_fallback'

sec rev-round3-record
run 'specdev check record src/auth/login.go --session rv-bob --lease @L --finding "minor: the error does not say the user is throttled" --line 3'
run 'specdev check record CHANGELOG.md --session rv-bob --lease @L'
BOBLEASE=$LEASE

sec rev-stale
show 'sleep 2.5   # rv-bob stopped: killed, or out of context; stale_after is 2s'
run 'specdev status'

sec rev-takeover
run 'specdev check --session rv-carol'
lease 00001

sec rev-fenced
LEASE=$BOBLEASE
run 'specdev check record src/auth/throttle.go --session rv-bob --lease @L'
lease 00001

sec rev-round3-finish
run 'specdev check record src/auth/throttle.go --session rv-carol --lease @L'
run 'specdev check record src/auth/throttle_test.go --session rv-carol --lease @L'
run 'specdev check verdict pass --summary "counter persisted, limit named, the test asserts the sixth failure" --intent "stop password guessing by throttling repeated failed logins" --intent-satisfied --session rv-carol --lease @L'

sec impl-round3-passed
run 'specdev work'

########################################################################
# 00002: recording in detail (replace, --add, refusals, paths, JSON),
# a verdict from a file, the report
########################################################################
mkdir -p .specdev/assignments/00002_password_reset docs
printf 'package auth\n\n// Reset mails a reset link.\nfunc Reset(user string) error { return mail(user, newToken()) }\n\nfunc newToken() string { return random(32) }\n' >src/auth/reset.go
printf 'package auth\n\nimport "testing"\n\nfunc TestReset(t *testing.T) { Reset("ann") }\n' >src/auth/reset_test.go
printf '# Password reset\n\nA reset link is mailed to the user.\n' >docs/reset.md
off 'specdev work request --assignment 00002 --notes "password reset by mail" --files src/auth/reset.go --files src/auth/reset_test.go --files docs/reset.md'
off 'specdev check --session rv-dana'
lease 00002

sec rev-env
show "export SPECDEV_SESSION=rv-dana SPECDEV_LEASE=$LEASE"
export SPECDEV_SESSION=rv-dana SPECDEV_LEASE=$LEASE

sec rev-rerecord
run 'specdev check record src/auth/reset.go --finding "critical: the token never expires" --line 6 --finding "minor: 32 is a magic number" --line 6'
run 'specdev check record src/auth/reset.go --finding "critical: the token never expires" --line 6 --suggestion "store an expiry with it"'
run 'specdev check record src/auth/reset.go --add --finding "minor: 32 is a magic number" --line 6 --suggestion "name it tokenBytes"'
run 'specdev check record src/auth/reset.go --add --finding "minor: 32 is a magic number" --line 6 --suggestion "name it tokenBytes"'

sec rev-record-refused
run 'specdev check record src/auth/reset.go --finding "critical: the token never expires" --finding "minor: 32 is a magic number" --line 6 --line 6 --line 7'
run 'specdev check record src/auth/login.go'
run 'specdev check record src/auth/reset.go --finding "major: typo"'
printf '[{"line": 5, "severity": "important", "descripton": "TestReset asserts nothing"}]\n' >findings.json
show 'cat findings.json'
run 'specdev check record src/auth/reset_test.go --findings findings.json'

sec rev-findings-json
printf '[{"line": 5, "severity": "important", "category": "tests", "description": "TestReset asserts nothing", "suggestion": "assert that a mail was sent with a token"}]\n' >findings.json
show 'cat findings.json'
run 'specdev check record src/auth/reset_test.go --findings findings.json'
run "echo '[{\"severity\": \"minor\", \"description\": \"say how long a link is valid\"}]' | specdev check record docs/reset.md --findings -"

sec rev-paths
show 'cd src/auth'
run 'specdev check record reset_test.go --add --finding "minor: name the test after what it checks"'
run "specdev check record '..\\..\\docs\\reset.md'"
run 'specdev check record ../../../reset.md'
run 'specdev check record /tmp/specdev-guide/shop/docs/reset.md --add --finding "minor: link the admin guide"'
show 'cd ../..'

sec rev-verdict-file
printf '{"passed": false, "summary": "reset tokens must expire", "intent": "let a user who forgot the password set a new one"}\n' >verdict.json
show 'cat verdict.json'
run 'specdev check verdict --file verdict.json'
cat >verdict.json <<'JSON'
{
  "passed": false,
  "summary": "reset tokens must expire, and the test must check the mail",
  "interpreted_intent": "let a user who forgot the password set a new one, safely",
  "intent_satisfied": false,
  "issues": [
    {"severity": "important", "category": "security", "description": "a reset does not end the user's other sessions"}
  ]
}
JSON
show 'cat verdict.json'
run 'specdev check verdict --file verdict.json'
unset SPECDEV_SESSION SPECDEV_LEASE

sec rev-report
show 'cat .specdev/assignments/00002_password_reset/review_report.md'

########################################################################
# 00003: the pre-flight gate fails; 00004: it cannot start
########################################################################
mkdir -p .specdev/assignments/00003_audit_log
printf 'package audit\n\n// TODO: rotate the file\nfunc Log(msg string) { println(msg) }\n' >src/audit.go
off 'specdev work request --assignment 00003 --files src/audit.go --notes "audit log"'
sec rev-preflight-fail
run 'specdev check --session rv-erin'
lease 00003
run 'specdev check verdict pass --summary ok --session rv-erin --lease @L'
run 'specdev history 00003'
printf 'package audit\n\nfunc Log(msg string) { println(msg) }\n' >src/audit.go

mkdir -p .specdev/assignments/00004_metrics
printf 'package metrics\n\nvar logins = counter("login_count")\n' >src/metrics.go
off 'specdev work request --assignment 00004 --mode manual --files src/metrics.go --notes "login metrics"'
chmod -x .specdev/verify-gates.sh
sec rev-gate-cannot-start
run 'specdev check --session rv-erin'
run 'specdev history 00004 -n 2'
sec impl-doctor-gate
run 'specdev doctor | sed -n 1,4p'
chmod +x .specdev/verify-gates.sh

########################################################################
# 00004: manual mode on both sides; a human decides
########################################################################
sec rev-manual-claim
run 'specdev check mode=manual --session rv-erin | sed -n 1,5p'
lease 00004
run 'specdev check record src/metrics.go --session rv-erin --lease @L --finding "important: the name breaks the Prometheus convention" --line 3 --suggestion "name it logins_total"'
run 'specdev check verdict fail --summary "rename the counter" --session rv-erin --lease @L'

sec impl-awaiting
run 'specdev work --assignment 00004'

sec rev-decide-list
run 'specdev check --session rv-other'
run 'specdev decide'

sec rev-decide-refusals
run 'specdev check approve'
run 'specdev check reject'

sec rev-decide-terminal
printf 'y\n\nthe name must end in _total; also add a help text\n' >"$OUT/.answers"
printf '$ specdev decide        # a person at a terminal; typed: y, an empty line, then the reason\n' >>"$F"
python3 "$HERE/onterm.py" 100 "$OUT/.answers" -- specdev decide >>"$F" 2>&1
printf '[exit %d]\n' $? >>"$F"

sec impl-paused
run 'specdev work --assignment 00004'
run 'specdev work request --assignment 00004 --notes "trying again"'
sec impl-continue
run 'specdev work continue --assignment 00004 --guidance "use the metrics helper in internal/metrics"'
run 'specdev work --assignment 00004'

########################################################################
# 00005: --force, release, resume; switching mode; a human approves
########################################################################
mkdir -p .specdev/assignments/00005_rate_limits
printf 'package limits\n\nfunc Allow(ip string) bool { return count(ip) < 100 }\n' >src/allow.go
printf 'package limits\n\nconst perMinute = 100\n' >src/limits.go
off 'specdev work request --assignment 00005 --files src/allow.go --files src/limits.go --notes "rate limits"'
sec rev-release
quiet 'specdev check --session rv-xavi'
lease 00005
quiet 'specdev check record src/allow.go --session rv-xavi --lease @L'
run 'specdev check --session rv-yuki'
run 'specdev check --force --session rv-yuki | sed -n 1,3p'
lease 00005
run 'specdev check release --session rv-yuki --lease @L'
run 'specdev check --session rv-zoe | sed -n "1,3p;/^Progress/,/^\$/p"'
lease 00005

sec rev-mode-switch
run 'specdev check mode=manual --session rv-zoe | sed -n 1,3p'
lease 00005
quiet 'specdev check record src/limits.go --session rv-zoe --lease @L'
run 'specdev check verdict pass --summary "simple enough" --session rv-zoe --lease @L'
run 'specdev check approve --assignment 00005 --notes "agreed; ship it"'

sec rev-history
run 'specdev history 00005'

########################################################################
# 00006: rounds and the round limit (effort low)
########################################################################
jq '.effort = "low"' .specdev/config.json >.specdev/config.tmp && mv .specdev/config.tmp .specdev/config.json
sec impl-limits-config
show 'cat .specdev/config.json'
run 'mkdir -p .specdev/assignments/00006_export'
printf 'package export\n\nfunc CSV(rows [][]string) string { return join(rows) }\n' >src/export.go
sec impl-limits-rounds
run 'specdev work request --files src/export.go --notes "CSV export"'
quiet 'specdev check --session rv-1'
lease 00006
quiet 'specdev check record src/export.go --session rv-1 --lease @L --finding "critical: fields with commas are not quoted"'
quiet 'specdev check verdict fail --summary "quote the fields" --session rv-1 --lease @L'
printf 'package export\n\nfunc CSV(rows [][]string) string { return join(quote(rows)) }\n' >src/export.go
run 'specdev work request --files src/export.go --notes "fields quoted"'
quiet 'specdev check --session rv-1'
lease 00006
quiet 'specdev check record src/export.go --session rv-1 --lease @L --finding "important: quotes inside a field are not doubled"'
quiet 'specdev check verdict fail --summary "double the quotes" --session rv-1 --lease @L'
printf 'package export\n\nfunc CSV(rows [][]string) string { return join(quote(escape(rows))) }\n' >src/export.go
sec impl-limits-blocked
run 'specdev work request --files src/export.go --notes "quotes doubled"'
run 'specdev work'
run 'specdev work cancel'
run 'specdev work request --files src/export.go --notes "quotes doubled"'
sec impl-limits-unblock
run 'specdev work unblock --rounds 1'
quiet 'specdev check --session rv-1'
lease 00006
quiet 'specdev check record src/export.go --session rv-1 --lease @L'
quiet 'specdev check verdict pass --summary "quoting is right now" --session rv-1 --lease @L'
run 'specdev work'
jq '.effort = "medium"' .specdev/config.json >.specdev/config.tmp && mv .specdev/config.tmp .specdev/config.json

########################################################################
# 00001 again: --files, --base, --gate, cancel
########################################################################
rm -f findings.json verdict.json
git add -A src docs && commit -m "reset, audit, metrics, limits, export"
printf 'package auth\n\n// Login checks a password unless the user is throttled.\nfunc Login(user, pass string) bool { return !Throttled(user) && check(user, pass) }\n' >src/auth/login.go
git add src/auth/login.go && commit -m "login: doc comment"
sec impl-choose
run 'specdev work request --assignment 00001 --files src/auth/login.go --gate docs --notes "doc comment only"'
run 'specdev work cancel --assignment 00001'
run 'specdev work request --assignment 00001 --base HEAD~1 --gate review --notes "the last commit only"'
run 'specdev work cancel --assignment 00001'

########################################################################
# The shop at the end of the day: status, report, history, doctor
########################################################################
jq '.stale_after = "15m" | .preflight_timeout = "1m"' .specdev/config.json >.specdev/config.tmp && mv .specdev/config.tmp .specdev/config.json
mkdir -p .specdev/assignments/00007_sessions .specdev/assignments/00008_search .specdev/assignments/00009_cache .specdev/assignments/00010_sitemap
printf 'package sessions\n\nfunc End(user string) { drop(user) }\n' >src/sessions.go
printf 'package search\n\nfunc Find(q string) []string { return index.Match(q) }\n' >src/search.go
printf 'package cache\n\nvar entries = map[string][]byte{}\n' >src/cache.go
printf 'package cache\n\nfunc Get(k string) []byte { return entries[k] }\n' >src/cache_get.go
printf 'package sitemap\n\nfunc Write() {}\n' >src/sitemap.go
off 'specdev work request --assignment 00007 --mode manual --files src/sessions.go --notes "end sessions"'
off 'specdev check --session rv-2 --assignment 00007'; lease 00007
off 'specdev check record src/sessions.go --session rv-2 --lease @L --finding "important: End leaves the remember-me cookie valid"'
off 'specdev check verdict fail --summary "the cookie outlives the session" --session rv-2 --lease @L'
off 'specdev work request --assignment 00008 --files src/search.go --notes "search"'
off 'specdev check mode=manual --session rv-3 --assignment 00008'; lease 00008
off 'specdev check record src/search.go --session rv-3 --lease @L'
off 'specdev check verdict pass --summary "fine" --session rv-3 --lease @L'
off 'specdev work request --assignment 00009 --files src/cache.go --files src/cache_get.go --notes "cache"'
off 'specdev check --session rv-4 --assignment 00009'; lease 00009
off 'specdev check record src/cache.go --session rv-4 --lease @L'
off 'specdev work request --assignment 00010 --files src/sitemap.go --notes "sitemap"'

sec impl-status
run 'COLUMNS=120 specdev status'
sec impl-status-narrow
run 'COLUMNS=60 specdev status'

sec impl-wait-terminal
printf '$ specdev work --assignment 00009 --timeout 2s\n' >>"$F"
python3 "$HERE/onterm.py" 100 - -- specdev work --assignment 00009 --timeout 2s >>"$F" 2>&1
printf '[exit %d]\n' $? >>"$F"

sec impl-report
run 'specdev report 00009 --path'
run 'specdev report 00009'
run 'specdev report 00010'
off 'specdev check --session rv-5 --assignment 00010'

sec rev-wait-terminal
printf '$ specdev check --session rv-6 --timeout 2s\n' >>"$F"
python3 "$HERE/onterm.py" 100 - -- specdev check --session rv-6 --timeout 2s >>"$F" 2>&1
printf '[exit %d]\n' $? >>"$F"


sec impl-history
run 'specdev history 00001 --round 1 --event failed --event claimed'

printf '\n<!-- a local note -->\n' >>.specdev/skills/reviewer/SKILL.md
chmod -x .specdev/verify-gates.sh
sec impl-doctor
run 'specdev doctor'
chmod +x .specdev/verify-gates.sh

########################################################################
# gate: round 1 finds committed work; the commit review gate; hooks
########################################################################
newrepo gate
mkdir -p src/auth
printf 'package auth\n\nfunc Login(user, pass string) bool { return check(user, pass) }\n' >src/auth/login.go
git add -A && commit -m initial
off 'specdev init'
mkdir -p .specdev/assignments/00001_login_throttling
git add .specdev && commit -m "specdev set-up"
git checkout -q -b login-throttling
printf 'package auth\n\nfunc Login(user, pass string) bool { return !Throttled(user) && check(user, pass) }\n' >src/auth/login.go
printf 'package auth\n\nvar failures = map[string]int{}\n\nfunc Throttled(user string) bool { return failures[user] > 5 }\n' >src/auth/throttle.go
git add -A && commit -m "throttle: count failed logins"

sec gate-first-request
run 'git log --oneline'
run 'specdev work request --notes "adds login throttling"'
off 'specdev check --session rv-1'; lease 00001
off 'specdev check record src/auth/login.go --session rv-1 --lease @L'
off 'specdev check record src/auth/throttle.go --session rv-1 --lease @L'
off 'specdev check verdict pass --summary fine --session rv-1 --lease @L'

sec gate-open
run 'specdev gate'

printf '#!/bin/sh\necho "lint: ok"\n' >.git/hooks/pre-commit
chmod +x .git/hooks/pre-commit
sec gate-hook-install
run 'specdev hook install pre-commit'
run 'specdev hook status'

printf 'package auth\n\nvar failures = map[string]int{}\n\nfunc Throttled(user string) bool { return failures[user] > 5 }\n\nfunc Fail(user string) { failures[user]++ }\n' >src/auth/throttle.go
sec gate-commit-blocked
run 'git add src/auth/throttle.go'
run 'git commit -q -m "throttle: count a failure"'

sec gate-staged
run 'specdev work request --staged --notes "Fail counts a failure"'
quiet 'specdev check --session rv-1'
lease 00001
quiet 'specdev check record src/auth/throttle.go --session rv-1 --lease @L'
quiet 'specdev check verdict pass --summary "fine" --session rv-1 --lease @L'
run 'git commit -q -m "throttle: count a failure"'

sec gate-branch-open
run 'specdev gate'

printf 'package auth\n\nvar failures = map[string]int{}\n\nfunc Throttled(user string) bool { return failures[user] >= 5 }\n\nfunc Fail(user string) { failures[user]++ }\n' >src/auth/throttle.go
printf 'package auth\n\nfunc Reset(user string) error { return nil }\n' >src/auth/reset.go
sec gate-closed
run 'specdev gate'
run 'specdev --json gate'

sec gate-bypass
run 'git add src && git commit -q --no-verify -m "reset: wip"'
run 'specdev hook uninstall pre-commit'
run 'cat .git/hooks/pre-commit'

git checkout -q main && git merge -q --ff-only login-throttling
sec gate-default-branch
run 'git branch --show-current'
run 'specdev work request'
run 'specdev work request --base HEAD~1'

########################################################################
# api: a group of parallel loops
########################################################################
newrepo api
mkdir -p src/api
printf 'package api\n' >src/api/api.go
git add -A && commit -m initial
off 'specdev init'
mkdir -p .specdev/assignments/00001_api_users .specdev/assignments/00002_api_orders .specdev/assignments/00003_api_billing
git add .specdev && commit -m "specdev set-up"
git checkout -q -b api
printf 'package api\n\nfunc Users() {}\n' >src/api/users.go
printf 'package api\n\nfunc Orders() {}\n' >src/api/orders.go
printf 'package api\n\nfunc Billing() {}\n' >src/api/billing.go
git add -A && commit -m "users, orders and billing endpoints"

sec group-request
run 'specdev work request --group api --assignment 00001 --files src/api/users.go --notes "users endpoints"'
off 'specdev work request --group api --assignment 00002 --files src/api/orders.go --notes "orders endpoints"'
off 'specdev work request --group api --assignment 00003 --files src/api/billing.go --notes "billing endpoints"'
off 'specdev check --session rv-1 --assignment 00001'; lease 00001
off 'specdev check record src/api/users.go --session rv-1 --lease @L'
off 'specdev check verdict pass --summary fine --session rv-1 --lease @L'
off 'specdev check --session rv-2 --assignment 00002'; lease 00002
off 'specdev check record src/api/orders.go --session rv-2 --lease @L --finding "important: no pagination"'
off 'specdev check verdict fail --summary "paginate" --session rv-2 --lease @L'

sec group-briefing
run 'specdev check --session rv-3 --assignment 00003'
lease 00003
L3=$LEASE

sec group-status
run 'specdev status --group api'

sec group-gate-closed
run 'specdev gate --group api'

printf 'package api\n\nfunc Orders(page int) {}\n' >src/api/orders.go
git commit -qam "orders: paginated"
sec group-wait
run 'specdev work request --assignment 00002 --files src/api/orders.go --notes "paginated"'
specdev work --group api --timeout 10m >"$OUT/.group.txt" 2>&1 &
waitpid=$!
sleep 1
LEASE=$L3
off 'specdev check record src/api/billing.go --session rv-3 --lease @L'
off 'specdev check verdict pass --summary fine --session rv-3 --lease @L'
off 'specdev check --session rv-2 --assignment 00002'; lease 00002
off 'specdev check record src/api/orders.go --session rv-2 --lease @L'
off 'specdev check verdict pass --summary fine --session rv-2 --lease @L'
wait $waitpid
grc=$?
printf '$ specdev work --group api --timeout 10m\n' >>"$F"
cat "$OUT/.group.txt" >>"$F"
printf '[exit %d]\n' $grc >>"$F"
run 'specdev gate --group api'

printf 'package api\n\nfunc Users(limit int) {}\n' >src/api/users.go
sec group-gate-changed
run 'specdev gate --group api'

########################################################################
# store: effort high, checkpoint reviews
########################################################################
newrepo store
mkdir -p src/store
printf 'package store\n' >src/store/store.go
git add -A && commit -m initial
off 'specdev init'
jq '.effort = "high"' .specdev/config.json >.specdev/config.tmp && mv .specdev/config.tmp .specdev/config.json
mkdir -p .specdev/assignments/00001_order_store
git add .specdev && commit -m "specdev set-up"
git checkout -q -b order-store
printf 'package store\n\nconst schema = "orders(id, total)"\n' >src/store/schema.go; git add -A; commit -m schema
printf 'package store\n\nfunc Write(o Order) error { return f.Write(o) }\n' >src/store/writer.go; git add -A; commit -m writer
printf 'package store\n\nfunc Read(id int) (Order, error) { return scan(id) }\n' >src/store/reader.go; git add -A; commit -m reader

sec cp-suggest
run 'specdev work'
run 'specdev work request --checkpoint --notes "schema, writer and reader; no index yet"'

sec cp-briefing
run 'specdev check --session rv-1'
lease 00001
quiet 'specdev check record src/store/reader.go --session rv-1 --lease @L'
quiet 'specdev check record src/store/schema.go --session rv-1 --lease @L'
quiet 'specdev check record src/store/writer.go --session rv-1 --lease @L --finding "important: writes are not fsynced before the rename" --line 3'
run 'specdev check verdict fail --summary "not durable yet" --session rv-1 --lease @L'

sec cp-found
run 'specdev work'
run 'specdev gate'
sec cp-status
run 'specdev status'

printf 'package store\n\nfunc Write(o Order) error { return syncWrite(f, o) }\n' >src/store/writer.go
printf 'package store\n\nvar index = map[int]int64{}\n' >src/store/index.go
git add src && commit -m "writer: fsync; index"
sec cp-real
run 'specdev work request --notes "order store with an index"'

########################################################################
# locks: a poll skips a locked review; clock skew
########################################################################
newrepo locks
printf 'package a\n' >a.go; printf 'package b\n' >b.go
git add -A && commit -m initial
off 'specdev init'
jq '.lock_timeout = "2s"' .specdev/config.json >.specdev/config.tmp && mv .specdev/config.tmp .specdev/config.json
mkdir -p .specdev/assignments/00001_login .specdev/assignments/00002_logout
off 'specdev work request --assignment 00001 --files a.go'
off 'specdev work request --assignment 00002 --files b.go'
flock -o .specdev/assignments/00001_login/.specdev.lock sleep 30 &
flockpid=$!
sleep 0.3
sec rev-locked
show 'flock -o .specdev/assignments/00001_login/.specdev.lock sleep 30 &    # another process holds the lock'
run 'specdev check --session rv-a | sed -n "1p;\$p"'
run 'specdev check --session rv-b'
run 'specdev check --session rv-b --assignment 00001'
kill $flockpid 2>/dev/null; wait $flockpid 2>/dev/null

future=$(date -u -d '+1 year' +%Y-%m-%dT%H:%M:%S.000Z)
P=.specdev/assignments/00002_logout/review_progress.json
jq --arg t "$future" '.last_activity = $t' $P >$P.new && mv $P.new $P
sec rev-clock-skew
run "jq -r .last_activity $P"
run 'specdev status'

########################################################################
# limits: bounds on what a reviewer records; config bounds
########################################################################
newrepo limits
mkdir -p src && printf 'package a\n' >src/a.go
git add -A && commit -m initial
off 'specdev init'
mkdir -p .specdev/assignments/00001_a
off 'specdev work request --files src/a.go'
off 'specdev check --session rv-4f2a'; lease 00001
mkdir -p .specdev/assignments/00002_b
off 'specdev work request --files src/a.go'
sec rev-new-session
run 'specdev check --new-session | sed -n "1,2p;/^Your session/p"'
sec rev-limits
run 'specdev check record src/a.go --session rv-4f2a --lease @L --finding "minor: off by one" --line=-5'
run 'specdev check record src/a.go --session rv-4f2a --lease @L --finding "$(printf %0120000d 0)"'
printf '{"stale_after": "2m", "preflight_timeout": "5m"}\n' >.specdev/config.json
sec rev-limits-config
show 'cat .specdev/config.json'
run 'specdev status'

########################################################################
# bad: bad input on the implementer's side
########################################################################
newrepo bad
mkdir -p src/auth
printf 'package auth\n' >src/auth/login.go; printf 'package auth\n' >src/auth/throttle.go
git add -A && commit -m initial
off 'specdev init'
printf 'package auth\n\nfunc Login() {}\n' >src/auth/login.go
sec impl-bad-paths
run 'mkdir -p .specdev/assignments/00001_bad_paths'
run 'ln -s /etc src/etc'
run 'specdev work request --files /etc/passwd'
run 'specdev work request --files ../outside.go'
run 'specdev work request --files src/etc/passwd'
run "specdev work request --files 'src\\auth\\login.go'"
run 'specdev work request'
run 'rm src/etc'
run 'ls -A .specdev/assignments/00001_bad_paths/ | wc -l'
sec impl-subfolder
show 'cd src/auth'
run "specdev work request --files login.go --files $G/bad/src/auth/throttle.go"
show 'cd ../..'
sec impl-bad-mode
run 'specdev work mode=sometimes'
sec impl-malformed
mkdir -p .specdev/assignments/00002_broken
printf '{"version": 1, "request_id": "rq-hand", "status": "done", "changed_files": ["src/audit.go"], "timestamp": "2026-01-01T00:00:00Z"}\n' >.specdev/assignments/00002_broken/review_request.json
run 'mkdir -p .specdev/assignments/00002_broken'
show 'cat .specdev/assignments/00002_broken/review_request.json'
show 'sha256sum .specdev/assignments/00002_broken/review_request.json'
run 'specdev work'
run 'specdev work request --notes "overwrite it?"'
show 'sha256sum .specdev/assignments/00002_broken/review_request.json'
rm -rf .specdev/assignments/00002_broken
sec impl-symlink-state
run 'mkdir -p .specdev/assignments/00003_cloned'
run 'ln -s ../../../../elsewhere.json .specdev/assignments/00003_cloned/review_request.json'
run 'specdev work --assignment 00003'
run 'specdev work request --assignment 00003 --files src/auth/login.go'

########################################################################
# help
########################################################################
cd "$G/shop"
sec rev-help
run 'specdev check --help | sed -n 1,10p'
run 'specdev check recrod          # exit 2'
sec readme-overview
run 'specdev | sed -n 1,3p'
run 'specdev version'
run 'specdev --version'

# figures quoted in the prose
sed '1d;$d' "$OUT/rev-claim.txt" | wc -c >"$OUT/rev-round1-bytes.txt"

########################################################################
# Assemble the guides: templates/*.md with @@section@@ (a line of its
# own: a console block; consecutive ones make one block) or @@figure@@
# inline, into the worktree's docs/.
########################################################################
if [ "${WRITE:-1}" = 1 ]; then
	python3 - "$OUT" "$WT" "$HERE/templates" <<'PY'
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
