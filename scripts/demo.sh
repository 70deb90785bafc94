#!/bin/sh
# demo.sh BIN: a full review hand-off in a new git repository, narrated,
# as a user would type it. Every command is printed ("$ …") before it
# runs, with its real output and its exit code explained in one line.
# Nothing is set up silently: the environment, the git commands and the
# files written are shown too. The repository is kept for inspection.
#
# Each step's exit code (and, where it matters, a line of its output) is
# asserted: a step that does not behave as described stops the demo with
# a non-zero exit. Needs only a POSIX shell, git and the specdev binary.
set -eu

bin=${1:-bin/specdev}
[ -x "$bin" ] || { echo "demo: no specdev binary at $bin; build it first: make build" >&2; exit 1; }
bindir=$(cd "$(dirname "$bin")" && pwd)
[ "$(basename "$bin")" = specdev ] || { echo "demo: the binary must be named specdev (got $bin)" >&2; exit 1; }
command -v git >/dev/null 2>&1 || { echo "demo: git is not installed" >&2; exit 1; }

demo=$(mktemp -d "${TMPDIR:-/tmp}/specdev-demo.XXXXXX")
repo=$demo/repo
out=$demo/.last-output
waiter=

# Bold headings on a terminal only; plain text in a pipe, under NO_COLOR
# (set to anything, as specdev reads it) or on a dumb terminal.
if [ -t 1 ] && [ -z "${NO_COLOR+set}" ] && [ "${TERM:-dumb}" != dumb ]; then
	bold=$(printf '\033[1m') plain=$(printf '\033[0m')
else
	bold='' plain=''
fi

cleanup() {
	if [ -n "$waiter" ] && kill -0 "$waiter" 2>/dev/null; then kill "$waiter" 2>/dev/null || :; fi
	rm -f "$out"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

die() {
	printf '\ndemo: FAILED: %s\n' "$*" >&2
	printf 'demo: the demo repository is kept at %s for inspection\n' "$repo" >&2
	exit 1
}

# say TEXT: a section heading. note TEXT: a line of narration.
say() { printf '\n%s## %s%s\n' "$bold" "$*" "$plain"; }
note() { printf '# %s\n' "$*"; }

# quote ARG…: the arguments as a user would type them in a shell.
quote() {
	line=''
	for arg in "$@"; do
		case $arg in
		'') arg="''" ;;
		*[!A-Za-z0-9_./:=@%+,~-]*)
			case $arg in
			*[\"\$\`\\!]*) arg="'$(printf '%s' "$arg" | sed "s/'/'\\\\''/g")'" ;;
			*) arg="\"$arg\"" ;;
			esac
			;;
		esac
		line="$line${line:+ }$arg"
	done
	printf '%s' "$line"
}

# exitname CODE: specdev's name for an exit code (README, "exit code").
exitname() {
	case $1 in
	0) echo OK ;; 1) echo ERROR ;; 2) echo USAGE ;; 3) echo WAITING ;;
	4) echo CHANGES_REQUESTED ;; 5) echo BUSY ;; 6) echo BLOCKED ;;
	7) echo INVALID ;; 8) echo CONFLICT ;; 130) echo INTERRUPTED ;; *) echo "?" ;;
	esac
}

# run CODE WHY CMD…: print the command, run it, print its output (stdout
# and stderr as they came) and its exit code with WHY; stop unless the
# code is CODE.
run() {
	want=$1 why=$2
	shift 2
	printf '$ %s\n' "$(quote "$@")"
	got=0
	"$@" >"$out" 2>&1 </dev/null || got=$?
	cat "$out"
	explain "$1" "$got" "$why"
	[ "$got" = "$want" ] || die "$(quote "$@") exited $got, expected $want"
}

# explain PROG CODE WHY: the one line after each command.
explain() {
	if [ "$1" = specdev ]; then
		printf '[exit %s: %s%s]\n' "$2" "$(exitname "$2")" "${3:+ — $3}"
	else
		printf '[exit %s%s]\n' "$2" "${3:+ — $3}"
	fi
}

# expect TEXT: the last command's output has a line containing TEXT.
expect() {
	grep -F -e "$1" "$out" >/dev/null || die "the output above lacks: $1"
}

# write FILE: write stdin to FILE, shown as the here-document that does it.
write() {
	printf "\$ cat > %s <<'EOF'\n" "$1"
	cat >"$1"
	cat "$1"
	printf 'EOF\n'
}

# append FILE: the same, appending.
append() {
	printf "\$ cat >> %s <<'EOF'\n" "$1"
	tee -a "$1"
	printf 'EOF\n'
}

# lease: the lease the last briefing handed out ("… lease ls-… …").
lease() {
	l=$(sed -n 's/.*lease \(ls-[0-9a-f][0-9a-f]*\).*/\1/p' "$out" | head -n 1)
	[ -n "$l" ] || die "the briefing above names no lease"
	echo "$l"
}

# step TEXT: a shell command of the set-up (cd, export, mkdir, git …),
# shown as typed and run as shown, in this shell; it must succeed. Its
# output goes through a file, as run's does, so no command writes to a
# terminal (git would page and colour there).
step() {
	printf '$ %s\n' "$1"
	eval "$1" >"$out" 2>&1 </dev/null || { cat "$out"; die "$1 failed"; }
	cat "$out"
}

# pause SECONDS: a visible wait.
pause() {
	printf '$ sleep %s\n' "$1"
	sleep "$1"
}

printf '%sspecdev demo%s: an implementer and a reviewer hand a change back and forth.\n' "$bold" "$plain"
note "Every command below is shown as you would type it, with its real output and exit code."
note "The implementer and the reviewer would each work in their own terminal; here they take turns."

say "The demo's shell: this specdev first on PATH, and nothing from your own set-up"
step "export PATH=$(quote "$bindir"):\"\$PATH\""
[ "$(command -v specdev)" = "$bindir/specdev" ] || die "specdev on PATH is $(command -v specdev), not $bindir/specdev"
note "Ignore your git config (hooks path, signing, …) and any repository named by the environment,"
note "and name the author of the demo's commits:"
step 'export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1'
step 'unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GIT_COMMON_DIR GIT_OBJECT_DIRECTORY'
step 'export GIT_AUTHOR_NAME=Demo GIT_AUTHOR_EMAIL=demo@example.com GIT_COMMITTER_NAME=Demo GIT_COMMITTER_EMAIL=demo@example.com'
note "specdev reads these when set; the demo passes sessions and leases as flags instead:"
step 'unset SPECDEV_SESSION SPECDEV_LEASE SPECDEV_ASSIGNMENT SPECDEV_DIR'
note "A person's consent to run a project's gate is kept outside the repository, in your config"
note "folder; the demo keeps it in its own folder:"
step "export SPECDEV_CONFIG_HOME=$(quote "$demo/config")"
run 0 "this is the specdev the demo runs" specdev version

say "A project: a git repository with some code on main"
step "mkdir $(quote "$repo") && cd $(quote "$repo")"
step 'git init -q -b main'
step 'mkdir -p src/auth'
write src/auth/login.go <<'EOF'
package auth

import "errors"

// ErrBadPassword is returned for a wrong user name or password.
var ErrBadPassword = errors.New("auth: bad user name or password")

// Store checks passwords.
type Store interface {
	Check(user, pass string) bool
}

// Login checks a user's password.
func Login(users Store, user, pass string) error {
	if !users.Check(user, pass) {
		return ErrBadPassword
	}
	return nil
}
EOF
step 'git add src && git commit -q -m "auth: log in with a password"'

say "Set up specdev once per project: specdev init"
run 0 "created .specdev/" specdev init
expect "Initialized"
note "specdev init wrote the default config.json. The demo shortens stale_after, the time after"
note "which a silent reviewer counts as gone, from 15m to 3s so that a crash shows in seconds"
note "(preflight_timeout must stay below it):"
write .specdev/config.json <<'EOF'
{
  "version": 1,
  "stale_after": "3s",
  "lock_timeout": "10s",
  "effort": "medium",
  "preflight_timeout": "2s"
}
EOF
note "A pre-flight gate: a mechanical check that runs before a reviewer spends any effort."
write .specdev/verify-gates.sh <<'EOF'
#!/bin/sh
# refuse TODO markers in src/
if grep -rn TODO src; then echo "TODO markers left in src/"; exit 1; fi
echo "no TODO markers"
EOF
step 'chmod +x .specdev/verify-gates.sh'
note "The gate is code from the repository, and a claim runs it: it runs only once a person on"
note "this machine has read it and allowed it (a changed gate needs it again). Never an agent:"
run 0 "a person allowed the gate as it is now" specdev allow
expect "Allowed on this machine"
run 0 "the set-up is sound" specdev doctor

say "Implementer: one assignment, a feature branch, a commit"
note "Each piece of work is a folder under .specdev/assignments/:"
step 'mkdir -p .specdev/assignments/00001_login_throttling'
step 'git checkout -q -b login-throttling'
write src/auth/throttle.go <<'EOF'
package auth

import (
	"sync"
	"time"
)

// Throttle locks a user out for Lockout after MaxFailures failed logins.
type Throttle struct {
	MaxFailures int
	Lockout     time.Duration

	mu       sync.Mutex
	failures map[string]int
	until    map[string]time.Time
}

// Allowed says whether user may try to log in at now.
func (t *Throttle) Allowed(user string, now time.Time) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return !now.Before(t.until[user])
}

// Failed counts a failed login; the MaxFailures-th locks the user out
// and starts the count again.
func (t *Throttle) Failed(user string, now time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.failures == nil {
		t.failures, t.until = map[string]int{}, map[string]time.Time{}
	}
	t.failures[user]++
	if t.failures[user] >= t.MaxFailures {
		t.until[user], t.failures[user] = now.Add(t.Lockout), 0
	}
}
EOF
write src/auth/throttle_test.go <<'EOF'
package auth

import (
	"testing"
	"time"
)

func TestThrottleLocksOut(t *testing.T) {
	th := &Throttle{MaxFailures: 3, Lockout: time.Minute}
	now := time.Now()
	for i := 0; i < 3; i++ {
		th.Failed("ann", now)
	}
	if th.Allowed("ann", now) {
		t.Fatal("ann may log in after 3 failures")
	}
}
EOF
step 'git add src && git commit -q -m "auth: throttle failed logins"'
note "No review has been asked for yet:"
run 0 "no request yet" specdev work
note "Ask for one. Round 1 reviews what the branch adds: its commits since main (Range), plus"
note "anything uncommitted or untracked."
run 0 "the request is written; a reviewer can claim it" specdev work request --notes "throttles failed logins"
expect "Range: "
expect "src/auth/throttle.go"
run 3 "nothing to read yet: the review is pending" specdev work

say "Reviewer: a look, then an explicit claim under a session id"
run 0 "a look only: nothing was claimed" specdev check
note "Claiming needs a session id of your choice. The claim runs the pre-flight gate and prints"
note "the briefing, with a lease that every later command of this review must present:"
run 0 "claimed: rv-alice holds the review" specdev check --session rv-alice
expect "Review claimed: 00001_login_throttling"
lease=$(lease)
note "Record each file as it is reviewed (each record is a checkpoint); throttle_test.go gets a finding:"
run 0 "recorded" specdev check record src/auth/throttle.go --session rv-alice --lease "$lease"
run 0 "recorded, with its finding" specdev check record src/auth/throttle_test.go --session rv-alice --lease "$lease" \
	--finding "important: nothing tests that the lockout ends" --line 8 --suggestion "add a test that logs in after Lockout"
note "A session without the lease cannot change the review:"
run 8 "refused without the lease; nothing changed" specdev check verdict fail --session rv-alice \
	--summary "the lockout is never shown to end"
run 0 "the verdict is recorded; the implementer sees it" specdev check verdict fail --session rv-alice --lease "$lease" \
	--summary "the lockout is never shown to end"

say "Implementer: read the rejection, fix, commit, ask again"
run 4 "the review failed; every finding is printed" specdev work
expect "nothing tests that the lockout ends"
append src/auth/throttle_test.go <<'EOF'

func TestThrottleLockoutEnds(t *testing.T) {
	th := &Throttle{MaxFailures: 1, Lockout: time.Minute}
	now := time.Now()
	th.Failed("ann", now)
	if !th.Allowed("ann", now.Add(time.Minute)) {
		t.Fatal("ann is still locked out after Lockout")
	}
}
EOF
step 'git commit -q -a -m "auth: test that the lockout ends"'
run 0 "round 2 is requested" specdev work request --notes "added the test"
expect "round 2 of 3"
note "The implementer waits for the verdict; no busy loop: it sleeps until the review's files change."
note "Here it runs in the background; its output goes to a file, shown when it returns."
printf '$ specdev work --timeout 2m > %s 2>&1 &\n' ../work-wait.out
specdev work --timeout 2m >"$demo/work-wait.out" 2>&1 </dev/null &
waiter=$!

say "Reviewer: the same session claims round 2 and gets a follow-up briefing"
note "rv-alice reviewed round 1, so it reads only what changed since, and checks its own finding:"
run 0 "claimed round 2: a follow-up" specdev check --session rv-alice
expect "Follow-up review of 00001_login_throttling, round 2 of 3"
expect "1 file unchanged, not to re-read"
grep -F 'src/auth/throttle.go' "$out" >/dev/null && die "the follow-up briefing lists throttle.go, which did not change"
lease=$(lease)
run 0 "recorded: no findings this time" specdev check record src/auth/throttle_test.go --session rv-alice --lease "$lease"
kill -0 "$waiter" 2>/dev/null || die "the implementer's specdev work --timeout 2m returned before the verdict"
note "The implementer's specdev work --timeout is still waiting as the verdict lands:"
run 0 "passed" specdev check verdict pass --session rv-alice --lease "$lease" --summary "the lockout ends, and a test shows it"
tries=0
while kill -0 "$waiter" 2>/dev/null; do
	tries=$((tries + 1))
	[ "$tries" -le 100 ] || die "specdev work --timeout 2m did not wake within 10 s of the verdict"
	sleep 0.1 2>/dev/null || sleep 1
done
code=0
wait "$waiter" || code=$?
waiter=
note "The waiting command returned as soon as the verdict landed:"
printf '$ cat %s\n' ../work-wait.out
cat "$demo/work-wait.out"
explain specdev "$code" "the waiting specdev work woke up with the pass"
[ "$code" = 0 ] || die "specdev work --timeout 2m exited $code, expected 0"
grep -F "Review passed: 00001_login_throttling" "$demo/work-wait.out" >/dev/null || die "the waiting specdev work did not print the pass"

say "A second assignment: a reviewer crashes, another takes over and resumes"
note "It is built on its own branch from main. rv-bob reviews it in manual mode: its verdict will be"
note "only a proposal, which a human decides."
step 'mkdir -p .specdev/assignments/00002_password_reset'
step 'git checkout -q -b password-reset main'
write src/auth/reset.go <<'EOF'
package auth

import (
	"crypto/rand"
	"encoding/hex"
)

// ResetToken returns a new random token for a password reset mail.
func ResetToken() (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}
EOF
write src/auth/reset_test.go <<'EOF'
package auth

import "testing"

func TestResetTokensDiffer(t *testing.T) {
	a, _ := ResetToken()
	b, _ := ResetToken()
	if a == b {
		t.Fatal("two reset tokens are equal")
	}
}
EOF
step 'git add src && git commit -q -m "auth: password reset tokens"'
run 0 "requested" specdev work request --notes "reset tokens"
run 0 "claimed in manual mode: the verdict will be a proposal" specdev check mode=manual --session rv-bob
lease=$(lease)
run 0 "recorded" specdev check record src/auth/reset.go --session rv-bob --lease "$lease"
bob=$lease
note "rv-bob's process dies here (killed, or out of context) with one of two files recorded."
note "Once it has been silent for longer than stale_after (3s), its review counts as stale:"
pause 4
run 0 "rv-bob's review is marked STALE" specdev status
expect "STALE"
note "The next reviewer to poll takes the stale review over; the resume briefing says what is done:"
run 0 "taken over: rv-carol holds the review now" specdev check --session rv-carol
expect "Taken over from session rv-bob"
expect "Remaining:"
lease=$(lease)
note "rv-bob comes back; it is fenced off and told who took over:"
run 8 "rv-bob no longer holds the review" specdev check record src/auth/reset_test.go --session rv-bob --lease "$bob"
expect "taken over by rv-carol"
run 0 "recorded" specdev check record src/auth/reset_test.go --session rv-carol --lease "$lease" \
	--finding "minor: errors of ResetToken are ignored" --line 6
run 0 "proposed: a human decides" specdev check verdict pass --session rv-carol --lease "$lease" --summary "tokens are random; one nit in the test"
expect "Verdict proposed: PASS"

say "A human decides"
run 3 "still waiting: for a human now" specdev work
note "specdev decide asks on a terminal; anywhere else it lists what awaits a decision:"
run 6 "BLOCKED until a human decides" specdev decide
note "Every command can answer in JSON instead, for scripts and agents (same exit code):"
run 6 "the same answer, as one JSON document" specdev --json decide
expect '"awaiting_approval"'
run 0 "approved: the change passed" specdev check approve --assignment 00002 --notes "fine; fix the nit later"
run 0 "passed" specdev work
expect "Review passed: 00002_password_reset"

say "The commit gate: no commit goes in that a review did not pass"
run 0 "the hook is installed" specdev hook install pre-commit
note "A third assignment: the reset mail. It is staged and committed before anyone reviewed it:"
step 'mkdir -p .specdev/assignments/00003_reset_mail'
write src/auth/mail.go <<'EOF'
package auth

import "fmt"

// ResetMail is the text of a password reset mail.
func ResetMail(user, token string) string {
	return fmt.Sprintf("Hello %s,\n\nto set a new password, open /reset?token=%s\n", user, token)
}
EOF
step 'git add src/auth/mail.go'
run 1 "git refused the commit: its pre-commit hook (specdev gate --staged) failed" git commit -m "auth: the reset mail"
expect "the review gate blocked this commit"
expect "Not reviewed (1):"
note "Ask for a review of exactly the staged change; a reviewer passes it:"
run 0 "requested" specdev work request --staged --notes "the reset mail"
expect "the staged change"
run 0 "claimed" specdev check --session rv-carol
lease=$(lease)
run 0 "recorded" specdev check record src/auth/mail.go --session rv-carol --lease "$lease"
run 0 "passed" specdev check verdict pass --session rv-carol --lease "$lease" --summary "the mail says what to do"
note "The same commit again: the gate opens, and git commits."
run 0 "committed" git commit -m "auth: the reset mail"
expect "Gate review open"
expect "auth: the reset mail"

say "Where things stand"
run 0 "every review passed" specdev status
expect "00003_reset_mail"
step 'git log --oneline'

report=.specdev/assignments/00001_login_throttling/review_report.md
[ -f "$report" ] || die "no report at $report"
printf '\nThe demo repository is kept at %s: look at %s\n' "$repo" "$report"
printf '(or run specdev report 00001 there); remove it with: rm -rf %s\n' "$demo"
