#!/usr/bin/env bash
# make soak: run abi and verify again and again on this host, verify
# through the pass-through --impl too, and make check-xarch a few times, to find results that depend on chance. A test
# that fails in every run is a finding about the kernel; one that fails in
# some runs only is a flake, a defect of the tool. Prints the runs, the
# failures, every flake with the runs it failed in and each check-xarch
# run's slowest margins against its limits; exits 1 on a flake
# or on a run that did not finish (a crash, a hang, a usage error), or
# when a command stopped by a signal left a process running.
#
# Environment: VDSOKIT_SOAK_HOST (runs of abi, of verify and of the
# pass-through, default 20),
# VDSOKIT_SOAK_XARCH (runs of check-xarch, default 5; 0 skips it),
# VDSOKIT_SOAK_LOAD=1: every run under load, as a busy CI machine has it:
# a CPU hog on every core, and `vdsokit vm` stopped and resumed at random;
# then also VDSOKIT_SOAK_RELAY boots (default 20) of a guest whose output
# is large, the relay at nice 19 and qemu at 0, each of which must bring
# every command's output whole or name the loss (exit 8): a silent loss,
# a short log with a good status, is a defect like a flake.
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

# timeouts SUMMARY: "TARGET COMMAND: TIMEOUT" for each cell of
# check-xarch's table that went past its limit: a result lost like a
# broken boot, though no KTAP line failed. Cells hold spaces ("pass
# 289/0/14"), so each is cut at its header's column.
timeouts() {
	awk '/^target / { for (i = 1; i <= NF; i++) { h[i] = $i; at[i] = index($0, $i) } n = NF; next }
	     !NF { n = 0 }
	     n { for (i = 3; i <= n; i++) {
		     c = substr($0, at[i], (i < n ? at[i + 1] : length($0) + 1) - at[i])
		     if (c ~ /^TIMEOUT/) print $1 " " h[i] ": TIMEOUT"
	     } }' "$1"
}

# margins DIR: a check-xarch run's slowest commands against their limit
# of running (vm's "command N ran R s ... of its L s" console lines), and
# its slowest boot on the clock, which bounds its running.
margins() {
	echo "  slowest commands against their limit of running (N in check-xarch's order):"
	grep -H '^vdsokit vm: command [0-9]* ran .* of its [0-9]* s$' "$1"/*/console.log 2>/dev/null |
		sed 's|^.*/\([^/]*\)/console.log:vdsokit vm: command \([0-9]*\) ran \([0-9.]*\) s (.* in \([0-9.]*\) s on the clock) of its \([0-9]*\) s$|\1 \2 \3 \4 \5|' |
		awk '{ printf "%d    %s command %s: %s s of %s s (%s s on the clock)\n", 100 * $3 / $5, $1, $2, $3, $5, $4 }' |
		sort -nr | head -n 3 | sed 's/^\([0-9]*\)\(.*\)$/\2, \1%/'
	echo "  slowest boot: $(grep -H . "$1"/*/seconds 2>/dev/null | sort -t: -k2,2nr | head -n 1 |
		sed 's|^.*/\([^/]*\)/seconds:\(.*\)$|\1, \2 s on the clock|')"
}

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

# passthrough: verify through tests/impl/passthrough.so, a correct
# implementation, RUNS times: a failure in any run, or a run of SKIPs
# only, is verify's defect, not the kernel's (tests/cases/verify_impl.sh
# runs it once).
passthrough() {
	local so=build/tests/impl/passthrough.so i f bad=0
	for ((i = 1; i <= host_runs; i++)); do
		f=$out/passthrough.$i.ktap
		if ! "$vk" verify --impl "$so" --paths impl -d 0.2 --format ktap >"$f" 2>"$f.err" ||
		   grep -q '^not ok' "$f" || ! grep -E '^ok [0-9]+ [^ ]+ impl ' "$f" | grep -vq '# *SKIP'; then
			echo "  passthrough: run $i failed ($f)"
			bad=$((bad + 1))
		fi
	done
	echo "passthrough: $host_runs runs, $bad failed"
	[ $bad -eq 0 ] || flaky=1
}

# ktap_whole FILE: the KTAP log has every test its plan promised, and
# its totals: nothing of it was lost on the way.
ktap_whole() {
	awk '/^1\.\.[0-9]+$/ { plan = substr($0, 4) }
	     /^(not )?ok [0-9]+ / { n = $1 == "ok" ? $2 : $3 }
	     /^# Totals: / { totals = 1 }
	     END { exit !(plan && n == plan && totals) }' "$1"
}

# The load: a hog a core, and the starver.
load_on() {
	local i
	for ((i = 0; i < $(nproc); i++)); do
		(while :; do :; done) &
		hogs+=($!)
	done
	starve_on
}
# The starver: the relay of every `vdsokit vm` of this build stopped for
# up to 3 s at random moments.
vm_re="^$(realpath "$vk") vm "
starve_on() {
	local p
	(while :; do
		sleep "0.$((RANDOM % 10))"
		for p in $(pgrep -f "$vm_re"); do
			kill -STOP "$p" 2>/dev/null
			sleep "$((RANDOM % 3)).$((RANDOM % 10))"
			kill -CONT "$p" 2>/dev/null
		done
	done) &
	starver=$!
}
# Never leave a relay stopped.
starve_off() {
	[ -z "$starver" ] || { kill "$starver"; wait "$starver"; pkill -CONT -f "$vm_re"; } 2>/dev/null
	starver=
}
hogs=() starver=
trap 'starve_off; [ ${#hogs[@]} -eq 0 ] || kill "${hogs[@]}" 2>/dev/null' EXIT

# relay_boots N: N boots of a guest with 120 KB of KTAP to send, the
# relay starved; each whole, or its loss named (exit 8).
relay_boots() {
	local i t q status kernel boot vm_pid whole=0 named=0 silent=0 other=0 dir
	if ! boot=$(tests/xarch/fetch.sh bookworm amd64 linux-image-cloud-amd64) ||
		! $MAKE -s cross ARCH=x86_64 >/dev/null; then
		echo "relay: no guest kernel or static vdsokit"
		flaky=1
		return
	fi
	kernel=$(echo "$boot"/vmlinuz-*)
	for ((i = 1; i <= $1; i++)); do
		dir=$out/relay.$i
		nice -n 19 "$vk" vm --kernel "$kernel" --accel tcg --timeout 1800 --output "$dir" \
			-- verify --format ktap -- abi --format ktap >/dev/null 2>"$dir.err" &
		vm_pid=$!
		# qemu at 0, the relay at 19: the guest outruns its reader.
		for ((t = 0; t < 60; t++)); do
			q=$(pgrep -P "$vm_pid" -f qemu-system) && renice -n 0 -p "$q" >/dev/null && break
			sleep 1
		done
		wait "$vm_pid"
		status=$?
		if [ $status -le 1 ] && ktap_whole "$dir/verify.log" && ktap_whole "$dir/abi.log"; then
			whole=$((whole + 1))
		elif [ $status = 8 ]; then
			named=$((named + 1))
		elif [ $status -le 1 ]; then
			silent=$((silent + 1))
			echo "  silent loss: boot $i exited $status with a short log ($dir)"
		else
			other=$((other + 1))
			echo "  boot $i exited $status: $(tail -n 1 "$dir.err")"
		fi
	done
	echo "relay: $1 boots under load: $whole whole, $named losses named (exit 8), $silent silent losses, $other other"
	[ $silent -eq 0 ] || flaky=1
}

start=$(date +%s)
[ "${VDSOKIT_SOAK_LOAD:-0}" = 1 ] && load_on && echo "soak: under load (${#hogs[@]} hogs and starvers)"
$MAKE -s check-build >/dev/null || exit 2
if [ "$host_runs" -gt 0 ]; then
	host abi
	host verify --max-fails 0
	passthrough
fi
# Commands stopped at random moments, which must leave nothing running
# 2 s later: not under the starver, as a vm it holds stopped cannot act
# on a signal until it is resumed, up to 3 s later.
starve_off
VDSOKIT_SIGNAL_TRIES=${VDSOKIT_SIGNAL_TRIES:-20} tests/run.sh tests/cases/signals.sh \
	>"$out/signals.log" 2>&1 || flaky=1
echo "signals: $(tail -n 1 "$out/signals.log") ($out/signals.log)"
[ "${VDSOKIT_SOAK_LOAD:-0}" != 1 ] || starve_on
for ((i = 1; i <= xarch_runs; i++)); do
	MAKE=$MAKE tests/xarch/run.sh >"$out/xarch.$i.log" 2>&1
	status=$?
	: >"$out/xarch.$i.fails"
	for log in build/xarch/results/*/*.log; do
		[ "${log##*/}" != console.log ] || continue
		failures "$log" | sed "s|^|$(basename "$(dirname "$log")") $(basename "$log" .log): |"
	done >>"$out/xarch.$i.fails"
	# Cells that are no KTAP failure: a boot or command that broke.
	{
		grep -E 'NO-BOOT|NO-RESULT|FAIL:|LOST:' "build/xarch/results/summary.txt" |
			sed 's/^/broken cell: /'
		timeouts "build/xarch/results/summary.txt"
	} >>"$out/xarch.$i.fails"
	# Each run's logs, for the evidence of whatever failed in it.
	cp -r build/xarch/results "$out/xarch.$i.results"
	echo "check-xarch run $i: exit $status"
	margins "$out/xarch.$i.results"
done
[ "$xarch_runs" -eq 0 ] || judge xarch "$xarch_runs"
[ "${VDSOKIT_SOAK_LOAD:-0}" = 1 ] && relay_boots "${VDSOKIT_SOAK_RELAY:-20}"
echo "soak: $(($(date +%s) - start)) s; logs in $out (check-xarch's: $out/xarch.N.results)"
exit $flaky
