#!/usr/bin/env bash
# make soak: run abi and verify again and again on this host, and make
# check-xarch a few times, to find results that depend on chance. A test
# that fails in every run is a finding about the kernel; one that fails in
# some runs only is a flake, a defect of the tool. Prints the runs, the
# failures and every flake with the runs it failed in; exits 1 on a flake
# or on a run that did not finish (a crash, a hang, a usage error), or
# when a command stopped by a signal left a process running.
#
# Environment: VDSOKIT_SOAK_HOST (runs of abi and of verify, default 20),
# VDSOKIT_SOAK_XARCH (runs of check-xarch, default 5; 0 skips it),
# VDSOKIT_SIGNAL_TRIES (signals at random moments per command, default 20).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2

MAKE=${MAKE:-make}
unset MAKEFLAGS MFLAGS MAKELEVEL
host_runs=${VDSOKIT_SOAK_HOST:-20}
xarch_runs=${VDSOKIT_SOAK_XARCH:-5}
out=build/soak
vk=build/vdsokit
rm -rf "$out"
mkdir -p "$out"
$MAKE -s "$vk" || exit 2
flaky=0

# The names of a KTAP log's failed tests, one a line, sorted.
failures() { sed -n 's/^not ok [0-9]* //p' "$1" | sort; }

# judge LABEL RUNS: from $out/LABEL.N.fails, the tests that failed in
# every run (findings) and in some runs only (flakes).
judge() {
	local label=$1 runs=$2 always some
	always=$(cat "$out/$label".*.fails | sort | uniq -c | awk -v n="$runs" '$1 == n' | wc -l)
	some=$(cat "$out/$label".*.fails | sort | uniq -c | awk -v n="$runs" '$1 < n')
	echo "$label: $runs runs, $(grep -l . "$out/$label".*.fails | wc -l) with failures;" \
		"$always tests failed in every run (findings), $(grep -c . <<<"$some") in some runs only (flakes)"
	[ -z "$some" ] && return 0
	while read -r n name; do
		echo "  flake: $name failed in $n of $runs runs:" \
			"$(grep -lxF "$name" "$out/$label".*.fails | sed 's/.*\.\([0-9]*\)\.fails/\1/' | tr '\n' ' ')"
	done <<<"$some"
	flaky=1
}

# host COMMAND ARGS...: the command RUNS times; status 0 or 1 is a result.
host() {
	local c=$1 i status
	for ((i = 1; i <= host_runs; i++)); do
		"$vk" "$@" --format ktap >"$out/$c.$i.ktap" 2>"$out/$c.$i.err"
		status=$?
		failures "$out/$c.$i.ktap" >"$out/$c.$i.fails"
		if [ $status -gt 1 ]; then
			echo "not finished: run $i of $c exited $status ($out/$c.$i.err)" >>"$out/$c.$i.fails"
		fi
	done
	judge "$c" "$host_runs"
}

start=$(date +%s)
host abi
host verify -f 0
# Commands stopped at random moments, which must leave nothing running.
$MAKE -s check-build >/dev/null || exit 2
VDSOKIT_SIGNAL_TRIES=${VDSOKIT_SIGNAL_TRIES:-20} tests/run.sh tests/cases/signals.sh \
	>"$out/signals.log" 2>&1 || flaky=1
echo "signals: $(tail -n 1 "$out/signals.log") ($out/signals.log)"
for ((i = 1; i <= xarch_runs; i++)); do
	MAKE=$MAKE tests/xarch/run.sh >"$out/xarch.$i.log" 2>&1
	status=$?
	: >"$out/xarch.$i.fails"
	for log in build/xarch/results/*/*.log; do
		[ "${log##*/}" != console.log ] || continue
		failures "$log" | sed "s|^|$(basename "$(dirname "$log")") $(basename "$log" .log): |"
	done >>"$out/xarch.$i.fails"
	# Cells that are no KTAP failure: a boot or command that broke.
	grep -E 'NO-BOOT|NO-RESULT|FAIL:' "build/xarch/results/summary.txt" |
		sed 's/^/broken cell: /' >>"$out/xarch.$i.fails"
	# Each run's logs, for the evidence of whatever failed in it.
	cp -r build/xarch/results "$out/xarch.$i.results"
	echo "check-xarch run $i: exit $status"
done
[ "$xarch_runs" -eq 0 ] || judge xarch "$xarch_runs"
echo "soak: $(($(date +%s) - start)) s; logs in $out (check-xarch's: $out/xarch.N.results)"
exit $flaky
