#!/usr/bin/env bash
# The test suite's runner: runs each case under tests/cases (or the ones
# named), shows its output, how long it took (CI has a time limit to
# keep) and the CPU time it used, and ends with the line CI reads:
#   N passed, N failed, N skipped
# Exit status: 0 when nothing failed, 1 otherwise; 130 (SIGINT) or 143
# (SIGTERM) when interrupted, the running cases stopped with it.
#
# Usage: tests/run.sh [-j N] [--run NAME] [CASE...]
# Cases run N at once (default: the CPU count), each in a scratch
# directory of its own, its output shown whole when it ends; a failed
# one with the command that reruns it alone, and each failed check is
# named with its case again at the end, with the command that reruns
# that check alone: --run NAME shows and counts only the checks whose
# name matches NAME (a shell pattern), and a case stops once the check
# named exactly NAME has run (tests/lib.sh). A case with
# a "# serial: why" line measures time: it runs after the others, alone,
# as a neighbour's load would change what it measures; one with a
# "# long: why" line starts before the others.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
export TOP
jobs=$(nproc 2>/dev/null || echo 2)
VK_RUN=
while [ $# -gt 0 ]; do
	case $1 in
	-j) jobs=${2:-}; shift 2 || break ;;
	-j*) jobs=${1#-j}; shift ;;
	--run) VK_RUN=${2:-}; shift 2 || break ;;
	--run=*) VK_RUN=${1#--run=}; shift ;;
	--) shift; break ;;
	-*) echo "usage: tests/run.sh [-j N] [--run NAME] [CASE...]" >&2; exit 2 ;;
	*) break ;;
	esac
done
case $jobs in '' | *[!0-9]* | 0) echo "tests/run.sh: -j wants a count, not '$jobs'" >&2; exit 2 ;; esac
export VK_RUN
# Cases run from a scratch directory: a relative O or VK would name a
# path under it instead of under the tree.
O=$(realpath -m "${O:-$TOP/build}")
VK=$(realpath -m "${VK:-$O/vdsokit}")
export O VK
RUN=$(mktemp -d "${TMPDIR:-/tmp}/vdsokit-test.XXXXXX")
trap 'rm -rf "$RUN"' EXIT

# The running cases, by pid. Each runs in a process group of its own
# (set -m), which an interrupt of the run ends whole: without it, cases
# started with & ignore SIGINT and run on after the runner has gone.
set -m
declare -A pids=()

# signal_cases SIGNAL: sends SIGNAL to each running case's processes;
# false when none is left to send it to.
signal_cases() {
	local pid any=1
	for pid in "${!pids[@]}"; do kill "-$1" -- "-$pid" 2>/dev/null && any=0; done
	return $any
}

# interrupted SIGNAL: ends each running case's processes, then the run,
# with the shell's status for SIGNAL (130 for SIGINT, 143 for SIGTERM).
interrupted() {
	local i
	echo "# interrupted by SIG$1: stopping the running cases (${pids[*]})"
	# Not bash's own notice of each job the signal ends.
	exec 2>/dev/null
	signal_cases TERM
	# A moment to end, then SIGKILL for what is left.
	for ((i = 0; i < 50; i++)); do
		signal_cases 0 || break
		sleep 0.1
	done
	signal_cases KILL
	exit $((128 + $(kill -l "$1")))
}
trap 'interrupted INT' INT
trap 'interrupted TERM' TERM

passed=0 failed=0 skipped=0
declare -A start path
# The failed checks ("CASE: check") and their cases, said again at the end.
failures=() rerun=()

# launch CASE: runs it in the background, in $RUN/NAME, its TMP.
launch() {
	local name
	name=$(basename "$1" .sh)
	mkdir -p "$RUN/$name"
	start[$name]=$SECONDS path[$name]=$1
	# times: the CPU its processes used, which tells a case that waits
	# (for a watchdog, a guest) from one that computes.
	# </dev/null: under set -m a case would read the runner's input (a
	# terminal, where it would be stopped for it) as no case may.
	(
		cd "$RUN/$name" && TMP=$RUN/$name bash "$1"
		s=$?
		times >"$RUN/$name.cpu"
		exit $s
	) </dev/null >"$RUN/$name.log" 2>&1 &
	pids[$!]=$name
}

# only LOG: under --run, the checks of LOG that NAME matches, each with
# its diagnostics, or a failure that says none does.
only() {
	local l name keep='' found=''
	while IFS= read -r l; do
		case $l in
		'ok '* | 'not ok '*)
			name=${l#not }
			name=${name#ok }
			name=${name#- }
			name=${name%% # SKIP*}
			keep=
			# shellcheck disable=SC2053 # NAME is a pattern
			if [[ $name == $VK_RUN ]]; then keep=1 found=1; echo "$l"; fi ;;
		'#   '*) [ -z "$keep" ] || echo "$l" ;;
		esac
	done <"$1"
	[ -n "$found" ] || echo "not ok - no check of $(basename "$1" .log) is named $VK_RUN"
}

# quoted NAME: NAME for --run on a shell's command line, matching itself
# alone: its pattern characters escaped, the whole in single quotes.
quoted() {
	local q=${1//\\/\\\\}
	q=${q//\*/\\*} q=${q//\?/\\?} q=${q//\[/\\[}
	q=${q//\'/\'\\\'\'}
	echo "'$q'"
}

# cpu FILE: the user and system seconds that `times` wrote to FILE, summed.
cpu() {
	awk 'NR == 2 { for (i = 1; i <= 2; i++) { split($i, t, /[ms]/); n += t[1] * 60 + t[2] } }
	     END { printf "%d", n + 0.5 }' "$1" 2>/dev/null || echo "?"
}

# finish NAME STATUS: shows the case's output and time, and counts it.
finish() {
	local name=$1 status=$2 out=$RUN/$1.log p s f l
	if [ -n "$VK_RUN" ]; then
		only "$out" >"$out.only"
		out=$out.only
	fi
	echo "# $name"
	cat "$out"
	echo "# $name took $((SECONDS - start[$name])) s (CPU: $(cpu "$RUN/$name.cpu") s)"
	p=$(grep -cE '^ok ' "$out" | tr -d ' ')
	s=$(grep -cE '^ok .*# SKIP' "$out" | tr -d ' ')
	f=$(grep -cE '^not ok ' "$out" | tr -d ' ')
	while IFS= read -r l; do
		failures+=("$name: $l")
		[ -n "$VK_RUN" ] ||
			failures+=("  tests/run.sh --run $(quoted "$l") ${path[$name]#"$TOP"/}")
	done < <(grep -E '^not ok ' "$out" | sed -E 's/^not ok (- )?//')
	if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "not ok - $name exited with status $status"
		failures+=("$name: $name exited with status $status")
		f=1
	fi
	if [ "$f" -ne 0 ]; then
		echo "# rerun: tests/run.sh ${path[$name]#"$TOP"/}"
		rerun+=("${path[$name]#"$TOP"/}")
	fi
	passed=$((passed + p - s)) skipped=$((skipped + s)) failed=$((failed + f))
}

# run_all MAX CASE...: the cases, at most MAX at once.
run_all() {
	local max=$1 c pid status
	shift
	for c in "$@" ""; do
		while [ ${#pids[@]} -ge "$max" ] || { [ -z "$c" ] && [ ${#pids[@]} -gt 0 ]; }; do
			wait -n -p pid "${!pids[@]}"
			status=$?
			finish "${pids[$pid]}" "$status"
			unset "pids[$pid]"
		done
		[ -z "$c" ] || launch "$c"
	done
}

cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=("$TOP"/tests/cases/*.sh)
parallel=() long=() serial=()
for c in "${cases[@]}"; do
	c=$(realpath "$c")
	if grep -q '^# serial:' "$c"; then serial+=("$c")
	elif grep -q '^# long:' "$c"; then long+=("$c")
	else parallel+=("$c"); fi
done
# The longest start first, so that the rest share the CPUs beside them.
parallel=(${long[@]+"${long[@]}"} ${parallel[@]+"${parallel[@]}"})
run_all "$jobs" "${parallel[@]}"
run_all 1 "${serial[@]}"
# Each failed check by its case's name, after every case's output, and
# the command that reruns those cases alone.
if [ ${#failures[@]} -gt 0 ]; then
	echo "# failed, by case:"
	printf '#   %s\n' "${failures[@]}"
	echo "# rerun them: tests/run.sh ${rerun[*]}"
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
