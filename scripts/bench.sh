#!/usr/bin/env bash
# bench.sh BIN: whole-process timings of specdev's performance targets.
# Each target is one line: its median over repeated runs, the target, and
# whether this run met it, beside an empty Go program timed in the same
# rounds and the figure of the Node.js tool specdev replaces. BASE_BIN=path
# adds an earlier build to the start-up rounds. RUNS=N (quick commands)
# and SLOW_RUNS=N (status over thousands, work request over 5,000 files)
# set the number of runs.
# Not a test: timings on a shared machine vary, so nothing here fails on
# a number; docs/performance.md keeps the figures.
set -euo pipefail

bin=$(cd "$(dirname "${1:-bin/specdev}")" && pwd)/$(basename "${1:-bin/specdev}")
scripts=$(cd "$(dirname "$0")" && pwd)
runs=${RUNS:-101}
slow_runs=${SLOW_RUNS:-7}
work=$(mktemp -d "${TMPDIR:-/tmp}/specdev-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
export XDG_CACHE_HOME=$work/cache # the poll cache lives in the user's cache folder

# The peer: the Node.js tool specdev replaces, its `check status` measured
# on this kind of machine (2 cores) before specdev existed: 90-120 ms of
# wall time, 52 MiB of peak resident memory. Being 20x faster is judged
# against its fast end.
node_ms_fast=90
node_ms_slow=120
node_mib=52

# --- timing --------------------------------------------------------------

# elapsed_us CMD…: run CMD (output dropped, any exit code), print its wall
# time in microseconds.
elapsed_us() {
	local start=$EPOCHREALTIME
	"$@" >/dev/null 2>&1 || true
	local end=$EPOCHREALTIME
	echo $((${end/./} - ${start/./}))
}

# median_of US…: the median of microsecond times, in ms with two decimals.
median_of() { printf '%s\n' "$@" | sort -n | awk '{ a[NR] = $1 } END { printf "%.2f", a[int((NR + 1) / 2)] / 1000 }'; }

# median_ms N CMD…: the median wall time of N runs of CMD, in ms.
median_ms() {
	local n=$1 i times=()
	shift
	for ((i = 0; i < n; i++)); do times+=("$(elapsed_us "$@")"); done
	median_of "${times[@]}"
}

# side_by_side N FUNC…: run each FUNC once a round, N rounds, and set
# median[FUNC]. Each round starts one command later than the one before:
# the place in a round moves a command's median by up to 10 % here.
declare -A median=()
side_by_side() {
	local n=$1 i j f
	shift
	local -a all=("$@")
	local -A times=()
	for ((i = 0; i < n; i++)); do
		for ((j = 0; j < ${#all[@]}; j++)); do
			f=${all[(i + j) % ${#all[@]}]}
			times[$f]+="$(elapsed_us "$f") "
		done
	done
	for f in "$@"; do median[$f]=$(median_of ${times[$f]}); done
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

# met A OP B: "met" if the comparison holds, else "MISSED".
met() { awk -v a="$1" -v b="$3" -v op="$2" 'BEGIN { ok = op == "<=" ? a <= b : a >= b; print ok ? "met" : "MISSED" }'; }

# peak_mib CMD…: peak resident memory of one run (GNU time), or "?".
peak_mib() {
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f '%M' -o "$work/rss" "$@" >/dev/null 2>&1 || true
		awk 'END { printf "%.1f", $1 / 1024 }' "$work/rss"
	else
		echo "?"
	fi
}

# expect CODE CMD…: run CMD once and stop the benchmark unless it exits
# with CODE: a command that fails fast would otherwise time as a fast one.
expect() {
	local want=$1 code=0
	shift
	"$@" >"$work/out" 2>&1 || code=$?
	if [ "$code" != "$want" ]; then
		echo "bench: $* exited $code, want $want:" >&2
		cat "$work/out" >&2
		exit 1
	fi
}

# line NAME FIGURE [TARGET VERDICT]: one target's line.
declare -a missed=()
targets=0
line() {
	if [ -n "${4:-}" ]; then
		targets=$((targets + 1))
		[ "$4" = met ] || missed+=("$1")
	fi
	local s
	printf -v s '  %-46s %-50s %-24s %s' "$1" "$2" "${3:-}" "${4:-}"
	echo "${s%"${s##*[! ]}"}"
}

# --- scenarios ------------------------------------------------------------

# new_project NAME: cd into a new project, with specdev init run.
new_project() {
	mkdir -p "$work/$1" && cd "$work/$1"
	"$bin" init >/dev/null
}

# lease_of ID: the lease of the review of assignment ID.
lease_of() { grep -o '"lease": "ls-[0-9a-f]*"' .specdev/assignments/"$1"_bench/review_progress.json | cut -d'"' -f4; }

# passed_project NAME N: N passed assignments. specdev takes the first
# through a whole review of one file; the others are copies of its files
# with their own names.
passed_project() {
	new_project "$1"
	local a=.specdev/assignments i id
	mkdir -p "$a/00001_bench" && echo "package a" >a.go
	"$bin" work request --files a.go >/dev/null
	"$bin" check --session rv-bench >/dev/null
	"$bin" check record a.go --session rv-bench --lease "$(lease_of 00001)" >/dev/null
	"$bin" check verdict pass --summary ok --session rv-bench --lease "$(lease_of 00001)" >/dev/null
	local req hist lock dirs=()
	req=$(<"$a/00001_bench/review_request.json") hist=$(<"$a/00001_bench/review_history.jsonl") lock=$(<"$a/00001_bench/.specdev.lock")
	for ((i = 2; i <= $2; i++)); do printf -v id '%05d' "$i" && dirs+=("$a/${id}_bench"); done
	((${#dirs[@]} == 0)) || printf '%s\0' "${dirs[@]}" | xargs -0 mkdir
	for ((i = 2; i <= $2; i++)); do
		printf -v id '%05d' "$i"
		local r=${req//\"00001\"/\"$id\"}
		printf '%s\n' "${r//00001_bench/${id}_bench}" >"$a/${id}_bench/review_request.json"
		printf '%s\n' "$hist" >"$a/${id}_bench/review_history.jsonl"
		printf '%s\n' "$lock" >"$a/${id}_bench/.specdev.lock"
	done
}

# Every program timed is a fresh copy in $work: the same binary run from
# an older file measured up to 15 % slower here (how its pages sit in the
# page cache), which made builds compared side by side look different.
cp "$bin" "$work/specdev" && bin=$work/specdev
if [ -n "${BASE_BIN:-}" ]; then cp "$BASE_BIN" "$work/specdev-base" && BASE_BIN=$work/specdev-base; fi
empty_go=$work/empty # built as specdev is
(cd "$scripts/.." && CGO_ENABLED=0 go build -trimpath -ldflags '-s -w' -o "$empty_go" ./scripts/startfloor)

echo "specdev performance targets: medians of $runs runs ($slow_runs for the slow ones), $(nproc) cores, $(date -u '+%Y-%m-%d %H:%M UTC')"

# Start-up: version, and a reviewer's poll that finds nothing to do
# among 100 assignments (each request withdrawn).
new_project p100
for ((i = 1; i <= 100; i++)); do
	printf -v id '%05d' "$i"
	mkdir -p ".specdev/assignments/${id}_bench" src && echo "x" >src/a.go
	"$bin" --assignment "$id" work request --files src/a.go >/dev/null
	"$bin" --assignment "$id" work cancel >/dev/null
done
expect 0 "$bin" version
# An idle poll is a reviewer's poll of requests at rest: the poll cache
# keeps a request out of the next poll only once it has rested 3 s (its
# pollSettle), so wait that long, then poll once to record them. The
# first poll after every request changed reads all 100; it is timed with
# the cache out of reach (an unusable cache folder).
sleep 3.5
expect 3 "$bin" check --session rv-idle
no_cache=$work/no-cache && : >"$no_cache"
expect 3 env XDG_CACHE_HOME="$no_cache/x" "$bin" check --session rv-idle
base_go() { "$empty_go"; }
sd_version() { "$bin" version; }
sd_check() { "$bin" check --session rv-idle; }
sd_check_cold() { XDG_CACHE_HOME=$no_cache/x "$bin" check --session rv-idle; }
funcs=(base_go sd_version sd_check sd_check_cold)
if [ -n "${BASE_BIN:-}" ]; then
	old_version() { "$BASE_BIN" version; }
	old_check() { "$BASE_BIN" check --session rv-idle; }
	funcs+=(old_version old_check)
fi
side_by_side "$runs" "${funcs[@]}"
go_ms=${median[base_go]}
check_ms=${median[sd_check]}
check_peak=$(peak_mib "$bin" check --session rv-idle)
line "empty Go program (baseline)" "$go_ms ms"
line "Node.js tool, check status (peer)" "$node_ms_fast-$node_ms_slow ms, $node_mib MiB"
r=$(ratio "${median[sd_version]}" "$go_ms")
line "start-up: specdev version" "${median[sd_version]} ms = ${r}x empty Go" "target <= 4x empty Go" "$(met "$r" "<=" 4)"
r=$(ratio "$check_ms" "$go_ms")
line "start-up: idle check, 100 assignments" "$check_ms ms = ${r}x empty Go, peak $check_peak MiB" "target <= 5x empty Go" "$(met "$r" "<=" 5)"
r=$(ratio "$node_ms_fast" "$check_ms")
line "start-up: idle check against the Node.js tool" "${r}x faster than its $node_ms_fast ms ($node_mib MiB)" "target >= 20x faster" "$(met "$r" ">=" 20)"
line "  first poll after all 100 changed" "${median[sd_check_cold]} ms = $(ratio "${median[sd_check_cold]}" "$go_ms")x empty Go, $(ratio "$node_ms_fast" "${median[sd_check_cold]}")x faster than Node.js"
if [ -n "${BASE_BIN:-}" ]; then
	line "BASE_BIN version, idle check" "${median[old_version]} ms, ${median[old_check]} ms"
fi

# Scale: status over 1,000 and 10,000 passed assignments, side by side
# (their ratio is the linearity), and an idle poll over 1,000.
passed_project p1000 1000
p1000=$PWD
passed_project p10000 10000
p10000=$PWD
expect 0 "$bin" status
expect 3 "$bin" --dir "$p1000/.specdev" check --session rv-idle
status_1000() { "$bin" --dir "$p1000/.specdev" status; }
status_10000() { "$bin" --dir "$p10000/.specdev" status; }
side_by_side "$slow_runs" status_1000 status_10000
s1=${median[status_1000]} s10=${median[status_10000]}
line "status, 10,000 passed assignments" "$s10 ms" "target <= 300 ms" "$(met "$s10" "<=" 300)"
r=$(ratio "$s10" "$s1")
line "status, 1,000 (linear from 1,000)" "$s1 ms; 10,000 take ${r}x" "target <= 10x" "$(met "$r" "<=" 10)"
t=$(median_ms "$runs" "$bin" --dir "$p1000/.specdev" check --session rv-idle)
line "idle check, 1,000 assignments" "$t ms = $(ratio "$t" "$go_ms")x empty Go" "target <= 15 ms" "$(met "$t" "<=" 15)"

# work request with 5,000 changed files: a git project whose 5,000
# committed files all changed since. Each run's request is withdrawn
# (untimed), so that every run asks for round 1 again. Before each run
# of the target the files change again (untimed): their content is new
# to git, whose snapshot of them must store it, as in a first request.
# The same request again, of content git has stored, is shown beside.
new_project w5000
git init -q . && git config user.email bench@localhost && git config user.name bench
mkdir -p .specdev/assignments/00001_bench
for ((d = 0; d < 50; d++)); do mkdir -p "src/d$d"; done
for ((f = 0; f < 5000; f++)); do echo "package d // $f" >"src/d$((f % 50))/f$f.go"; done
git add -A && git -c commit.gpgsign=false commit -qm files
change_all() { for ((f = 0; f < 5000; f++)); do echo "// $1" >>"src/d$((f % 50))/f$f.go"; done; }
change_all first
expect 0 "$bin" work request
"$bin" work cancel >/dev/null
new_times=() known_times=()
for ((i = 0; i < slow_runs; i++)); do
	change_all "run $i"
	# The set-up's writes are written back before a timed command: its
	# fsyncs would otherwise wait on part of them (with the hundreds of MB
	# of check record's set-up, a fifth of its time). A user's edits and
	# a reviewer's earlier records are long written back by then.
	sync
	new_times+=("$(elapsed_us "$bin" work request)")
	"$bin" work cancel >/dev/null
	known_times+=("$(elapsed_us "$bin" work request)")
	"$bin" work cancel >/dev/null
done
t=$(median_of "${new_times[@]}")
line "work request, 5,000 changed files" "$t ms" "target <= 250 ms" "$(met "$t" "<=" 250)"
line "  the same again (git has the content)" "$(median_of "${known_times[@]}") ms"

# check record in that review of 5,000 files, half of them recorded:
# the same file recorded again and again (it replaces its findings).
"$bin" work request >/dev/null
"$bin" check --session rv-bench >/dev/null
lease=$(lease_of 00001)
mapfile -t files < <(git ls-files src)
for f in "${files[@]:0:2500}"; do "$bin" check record "$f" --session rv-bench --lease "$lease" --finding "minor: x" >/dev/null; done
record() { "$bin" check record "${files[0]}" --session rv-bench --lease "$lease" --finding "minor: bench"; }
expect 0 record
sync # the set-up written back first, as for work request
t=$(median_ms "$runs" record)
line "check record, review of 5,000 files" "$t ms (2,500 recorded)" "target <= 25 ms" "$(met "$t" "<=" 25)"

# history -n 20 over 10,000 events: that review's own events, repeated.
mkdir .specdev/assignments/00002_history
awk '{ line[NR] = $0 } END { for (i = 0; i < 10000; i++) print line[i % NR + 1] }' \
	.specdev/assignments/00001_bench/review_history.jsonl >.specdev/assignments/00002_history/review_history.jsonl
expect 0 "$bin" history 00002 -n 20
t=$(median_ms "$runs" "$bin" history 00002 -n 20)
line "history -n 20, 10,000 events" "$t ms" "target <= 20 ms" "$(met "$t" "<=" 20)"

# Wake-up: a waiting check claims a new request; from the request's
# history event to the claim's.
new_project wake
mkdir -p .specdev/assignments/00001_bench && echo x >a.go
for ((i = 0; i < 10; i++)); do
	"$bin" check --timeout 20 --session "rv-wait$i" >/dev/null 2>&1 &
	waiter=$!
	sleep 0.3
	"$bin" work request --files a.go >/dev/null
	wait "$waiter" || true
	"$bin" work cancel >/dev/null
done
lat=$(awk -F'"ts":"' '
	/"event":"requested"/ { split($2, t, "\""); req = t[1] }
	/"event":"claimed"/   { split($2, t, "\""); print req, t[1] }' .specdev/assignments/00001_bench/review_history.jsonl |
	while read -r req claimed; do
		echo "$(($(date -d "$claimed" +%s%3N) - $(date -d "$req" +%s%3N)))"
	done | sort -n | tr '\n' ' ')
set -- $lat
line "check --timeout: request -> claimed" "${5:-?} ms (all 10: ${lat% })" "target <= 100 ms" "$(met "${5:-1000}" "<=" 100)"

# Two machines: two clones of a bare repository that git daemon serves on
# this machine, the review state on refs/specdev/assignments/* (so the
# figures are what the remote adds on a loopback network). Claim: a
# reviewer's check in clone b claims a request made in clone a (it lists
# the remote, fetches the new state, and pushes the claim). Wake-up: a
# check --timeout waiting in b, idle for 0.5-4 s (its looks backed off
# towards remote_poll, 2 s), claims a request made in a; from the moment
# the request is on the remote (work request in a has returned) to the
# claim's history event. Target: within remote_poll plus one fetch of a
# state (the median of git fetch origin refs/specdev/assignments/<new>).
remote_runs=${REMOTE_RUNS:-15}
if [ -x "$(git --exec-path)/git-daemon" ]; then
	mkdir -p "$work/remote" && cd "$work/remote"
	git init -q --bare -b main srv.git
	port=$((20000 + RANDOM % 20000))
	git daemon --reuseaddr --export-all --enable=receive-pack --base-path="$work/remote" \
		--listen=127.0.0.1 --port="$port" "$work/remote" 2>/dev/null &
	daemon=$!
	trap 'kill $daemon 2>/dev/null; rm -rf "$work"' EXIT
	for ((i = 0; i < 100; i++)); do (echo >"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.05; done
	url=git://127.0.0.1:$port/srv.git
	git init -q -b main a && cd a
	git config user.email bench@localhost && git config user.name bench
	"$bin" init >/dev/null && echo '{"version": 1, "remote": "origin"}' >.specdev/config.json && echo x >a.go
	git add -A && git -c commit.gpgsign=false commit -qm bench && git remote add origin "$url" && git push -q origin main
	cd .. && git clone -q "$url" b
	claim_times=() fetch_times=()
	for ((i = 1; i <= remote_runs; i++)); do
		printf -v id '%05d' "$i"
		mkdir -p "a/.specdev/assignments/${id}_claim"
		(cd a && "$bin" --assignment "$id" work request --files a.go >/dev/null)
		fetch_times+=("$(elapsed_us git -C b fetch -q --no-write-fetch-head origin "refs/specdev/assignments/${id}_claim")")
		claim_times+=("$(cd b && elapsed_us "$bin" check --session "rv-claim$i")")
	done
	fetch_ms=$(median_of "${fetch_times[@]}")
	line "remote: check claims a request from clone a" "$(median_of "${claim_times[@]}") ms (git fetch of one state: $fetch_ms ms)"
	wakes=()
	for ((i = 1; i <= remote_runs; i++)); do
		printf -v id '%05d' "$((i + 100))"
		mkdir -p "a/.specdev/assignments/${id}_wake"
		(cd b && "$bin" check --timeout 30 --session "rv-wake$i" >/dev/null 2>&1) &
		waiter=$!
		sleep "$((RANDOM % 4)).$((5 + RANDOM % 5))"
		(cd a && "$bin" --assignment "$id" work request --files a.go >/dev/null)
		landed=$(date +%s%3N)
		wait "$waiter" || true
		claimed=$(awk -F'"ts":"' '/"event":"claimed"/ { split($2, t, "\""); print t[1] }' "b/.specdev/assignments/${id}_wake/review_history.jsonl")
		wakes+=("$(($(date -d "$claimed" +%s%3N) - landed))")
	done
	mapfile -t wakes < <(printf '%s\n' "${wakes[@]}" | sort -n)
	limit=$(awk -v f="$fetch_ms" 'BEGIN { printf "%d", 2000 + f }')
	line "remote: check --timeout wakes on a request" "median ${wakes[$((remote_runs / 2))]} ms, worst ${wakes[-1]} ms" "target <= 2 s + one fetch" "$(met "${wakes[-1]}" "<=" "$limit")"
	cd "$work"
else
	line "remote: git daemon is not installed" "skipped"
fi

if ((${#missed[@]} == 0)); then
	echo "all $targets targets met"
else
	echo "$((targets - ${#missed[@]})) of $targets targets met; missed: $(printf '%s; ' "${missed[@]}" | sed 's/; $//')"
fi
