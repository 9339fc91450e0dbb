# --impl libraries are user code: one that exits, crashes or hangs, in a
# function or in its constructor, is caught and named (the library, the
# function or API, what it did) with a documented status, in every
# command that runs it; never a missing row, a silent status 0, a 139 or
# a hang. Each command runs under `timeout`, so a hang is a failure of
# its own (status 124), not a stuck suite.
. "$TOP/tests/lib.sh"

IMPL=$O/tests/impl

if [ ! -f "$IMPL/hostile-exit0.so" ]; then
	skip "hostile --impl libraries" "no impl libraries in this build"
	exit 0
fi

lib() {
	echo "$IMPL/hostile-$1.so"
}

# bounded N DESC CMD...: CMD exits N, and ends: within $bound s (300
# unless set), past the tool's own bound on a hang (a watchdog's time on
# a CPU or blocked, or ten times it on the wall: under load 23 a looping
# constructor's 10 s of CPU took over the 60 s this allowed before), so
# that only a run that would never end fails it.
bounded() {
	local want=$1 desc=$2
	shift 2
	expect_status "$want" "$desc" timeout "${bound:-300}" "$@"
}

# A constructor that exits, crashes or loops runs first in a child, at
# load: bad input (2), named, in each command that loads --impl. So is
# one that unmaps the vDSO, which every path but the syscall's may need.
ctor_what() {
	case $1 in
	ctor-exit0) echo 'its constructor exited with status 0' ;;
	ctor-segv) echo 'its constructor was killed by SIGSEGV' ;;
	ctor-loop) echo "its constructor hung for more than $2 s" ;;
	ctor-munmap-vdso) echo 'its constructor unmapped the vDSO' ;;
	esac
}

# timens runs in one set of offsets of its own: the library is what is
# tested, the same in every set (tests/cases/timens.sh checks the sets).
one_set="--monotonic 86400 --boottime 172800"

# Every command loads through one watchdog (vk_impl_probe): its 10 s are
# proven once, by verify; the other commands' loops end after the 1 s of
# its test hook, VDSOKIT_IMPL_LOAD_TIMEOUT (the report says which).
for c in ctor-exit0 ctor-segv ctor-loop ctor-munmap-vdso; do
	for cmd in "verify -d 0.05 --paths impl getcpu" "bench -P 2 --paths impl getcpu" \
		   "abi -t 0.5 --paths impl getcpu" "fallback --paths impl getcpu" \
		   "compare --copies 2 getcpu" "timens $one_set -d 0.05"; do
		name=${cmd%% *} hook=
		[ "$c" = ctor-loop ] && [ "$name" != verify ] && hook=1
		what=$(ctor_what "$c" "${hook:-10}")
		# shellcheck disable=SC2086 # the command's words
		bounded 2 "$name: a constructor that does $c is bad input" \
			env ${hook:+VDSOKIT_IMPL_LOAD_TIMEOUT=$hook} "$VK" $name --impl "$(lib "$c")" ${cmd#* }
		contains "$name: and named: $what" "$TMP/err" "--impl $(lib "$c"): $what"
	done
done

# vm packs --impl's dependencies by loading it: in a child first too,
# before any guest is booted.
for c in ctor-segv ctor-munmap-vdso; do
	what=$(ctor_what "$c")
	bounded 2 "vm: a constructor that does $c is bad input" \
		"$VK" vm --kernel "$TMP/no-kernel" --accel tcg -- verify --impl "$(lib "$c")"
	contains "vm: and named" "$TMP/err" "--impl $(lib "$c"): $what"
done

# timens on its merits here: 4 where no time namespace can be made, 1
# where the kernel has a finding (its vDSO getrandom is checked inside).
# shellcheck disable=SC2086 # its words
timeout 120 "$VK" timens $one_set -d 0.05 --format ktap >/dev/null 2>&1
timens_status=$?

# bounded_in RE SEC DESC CMD...: CMD exits with a status that RE
# matches, within SEC seconds.
bounded_in() {
	local want=$1 sec=$2 desc=$3 got
	shift 3
	timeout "$sec" "$@" >"$TMP/out" 2>"$TMP/err"
	got=$?
	if [[ $got =~ ^($want)$ ]]; then ok "$desc"; else not_ok "$desc" "command: $*" "exit $got, expected $want" "stderr: $(head -c 300 "$TMP/err")"; fi
}

# running LIB: the pids still running (not zombies, not exiting) whose
# command line names LIB; what a constructor forks is a copy of its
# loader, vdsokit, whose command line has --impl LIB.
running() {
	local c line f
	for c in /proc/[0-9]*/cmdline; do
		grep -qaF -- "$1" "$c" 2>/dev/null || continue
		read -r line 2>/dev/null <"${c%cmdline}stat" || continue
		f=(${line##*) })	# state, ppid, pgrp, session, tty, tpgid, flags, ...
		[ "${f[0]}" != Z ] && ((!(f[6] & 4))) && echo "${c//[^0-9]/}"
	done
}

# none_left DESC LIB: nothing that names LIB runs within 30 s (a
# SIGKILLed process may take a moment to go); what does is then killed.
none_left() {
	local pids i
	for ((i = 0; i < 300; i++)); do
		pids=$(running "$2")
		[ -z "$pids" ] && { ok "$1"; return; }
		sleep 0.1
	done
	not_ok "$1" "still running: $(echo $pids)"
	kill -KILL $pids 2>/dev/null
}

# A constructor that loads but then does to its process what no library
# may: vdsokit's own process never loads --impl (each child that calls
# it does), so none of it reaches vdsokit. What a child's load changed
# that can be put back (signals, resource limits) is; the threads and
# processes it started end with that child, and nothing waits for them.
# Their functions are correct, so each command's checks pass (compare's
# verdict, 0 or 1, is the machine's): never 139, 153 or a hang, and the
# libc path is never blamed. ctor-fork's helper lives 600 s: a command
# that read a pipe the helper holds to its end would wait for it, or
# for the load's watchdog, which gives up after ten times its 10 s on
# the clock: over 100 s. One that does not needs a few (5 s for abi at a
# load average of 13), which 60 s holds many times over.
ctor_cmds=("verify -d 0.05 --paths libc,impl getcpu" "bench -P 2 --paths impl getcpu"
	   "abi -t 5 --paths impl getcpu" "fallback --paths impl getcpu"
	   "compare --copies 2 getcpu" "timens $one_set -d 0.05")
for c in ctor-thread ctor-fsize ctor-sigs ctor-fork; do
	sec=300
	[ "$c" = ctor-fork ] && sec=60
	for cmd in "${ctor_cmds[@]}"; do
		name=${cmd%% *} want=0
		[ "$name" = compare ] && want='0|1'
		[ "$name" = timens ] && want=$timens_status
		# shellcheck disable=SC2086 # the command's words
		bounded_in "$want" "$sec" "$name: a library whose constructor does $c runs on its merits, within $sec s" \
			"$VK" $name --impl "$(lib "$c")" ${cmd#* }
	done
	bounded 2 "vm: packs a library whose constructor does $c, then finds no kernel" \
		"$VK" vm --kernel "$TMP/no-kernel" --accel tcg -- verify --impl "$(lib "$c")"
	contains "vm: and names the kernel, not the library" "$TMP/err" "^vdsokit vm: $TMP/no-kernel: "
	none_left "$c: no process the library started outlives the commands" "$(lib "$c")"
done

# A library that ignores and blocks every signal: its functions' deaths
# are still caught and named by their signals, and a hang is killed.
bounded 1 "verify: a time() that faults, signals blocked, fails" \
	"$VK" verify -d 0.05 --paths impl --impl "$(lib ctor-sigs)" time
contains "verify: and is named killed by SIGSEGV" "$TMP/out" \
	"time impl survives: the checks of time on the impl path \\($(lib ctor-sigs)\\) were killed by SIGSEGV"
bounded 1 "fallback: the same" \
	"$VK" fallback --paths impl --impl "$(lib ctor-sigs)" time
contains "fallback: and is named killed by SIGSEGV" "$TMP/out" \
	"FAIL: the probe of $(lib ctor-sigs)'s time was killed by SIGSEGV"
bounded 1 "bench: the same" \
	"$VK" bench -P 2 --paths impl --impl "$(lib ctor-sigs)" time
contains "bench: and is named killed by signal 11" "$TMP/err" \
	"worker process 1 of 2 was killed by signal 11 \\(Segmentation fault\\) while measuring time on impl \\($(lib ctor-sigs)\\)"
bounded 1 "abi: a gettimeofday that never returns, signals blocked, fails" \
	"$VK" abi -t 0.5 --paths impl --impl "$(lib ctor-sigs)" gettimeofday
contains "abi: and is named hung" "$TMP/out" \
	"unexpected: impl \\($(lib ctor-sigs)\\) hung for more than 0.5 s"

# verify: a function that ends its child, however, is a failure of its
# own that names the library; never a missing row and status 0 or 4.
for h in exit0 segv; do
	bounded 1 "verify: a getcpu that does $h fails" \
		"$VK" verify -d 0.05 --paths impl getcpu --impl "$(lib "$h")"
	contains "verify: and names the library and the function" "$TMP/out" \
		"getcpu impl survives: the checks of getcpu on the impl path \\($(lib "$h")\\) (exited with status 0|were killed by SIGSEGV)"
done

# A crash in one rule keeps what the rules before it found: the plant
# is one byte short (length) and aborts on the flags rule's NONBLOCK.
late=$IMPL/crash-late-getrandom.so
bounded 1 "verify: a getrandom that crashes in a later rule fails" \
	"$VK" verify -d 0.05 --paths impl getrandom --impl "$late"
contains "verify: and names the crash" "$TMP/out" \
	"getrandom impl survives: the checks of getrandom on the impl path \\($late\\) were killed by SIGABRT"
contains "verify: and keeps the failure found before it" "$TMP/out" \
	"getrandom impl length: asked for 2 bytes, impl returned 1"

# abi and fallback: each call's child that exits 0 or hangs is a failed
# row that names the library.
for h in exit0 hang; do
	bounded 1 "abi: a getcpu that does $h fails" \
		"$VK" abi -t 0.5 --paths impl getcpu --impl "$(lib "$h")"
	contains "abi: and names the library" "$TMP/out" \
		"unexpected: impl \($(lib "$h")\) (exited with status 0|hung for more than 0.5 s)"
	bounded 1 "fallback: a getcpu that does $h fails" \
		"$VK" fallback --paths impl getcpu --impl "$(lib "$h")"
	contains "fallback: and names the library and the function" "$TMP/out" \
		"FAIL: the probe of $(lib "$h")'s getcpu (exited with status 0|hung for more than [0-9.]+ s)"
done

# A call that blocks, using no CPU (pause(), SIGSTOP), is hung after the
# time its message states: not before it, and not ten times it (the wait
# of a watchdog that counts only CPU time). Three times it is a bound no
# load reaches: each stated time is long beside the commands' other work
# (abi's 121 syscall cases, forks that took 10 s at a load of 20).
# waits DESC STATED N STATUS CMD...: CMD exits STATUS after N hangs of
# STATED s each, and says so.
waits() {
	local desc=$1 stated=$2 n=$3 want=$4 start took
	shift 4
	start=$(date +%s.%N)
	bounded "$want" "$desc" "$@"
	took=$(echo "$(date +%s.%N) - $start" | bc)
	if echo "$took >= $n * $stated && $took < 3 * $n * $stated" | bc | grep -qx 1; then
		ok "$desc: in $took s, $n x $stated s stated"
	else
		not_ok "$desc: in $took s, $n x $stated s stated" "expected from $n x $stated s to 3 times it"
	fi
}
waits "load: a constructor in pause() is bad input" 3 1 2 \
	env VDSOKIT_IMPL_LOAD_TIMEOUT=3 "$VK" verify --impl "$(lib ctor-pause)" --paths impl getcpu
contains "load: and named hung for its 3 s" "$TMP/err" \
	"--impl $(lib ctor-pause): its constructor hung for more than 3 s"
# abi skips an API's cases after three hang.
waits "abi: a getcpu in pause() fails" 5 3 1 \
	"$VK" abi -t 5 --paths impl getcpu --impl "$(lib pause)"
contains "abi: and names it hung for its 5 s" "$TMP/out" \
	"unexpected: impl \\($(lib pause)\\) hung for more than 5 s"
waits "fallback: a getcpu that stops fails" 5 1 1 \
	"$VK" fallback --paths impl getcpu --impl "$(lib stop)"
contains "fallback: and names it hung for its 5 s" "$TMP/out" \
	"FAIL: the probe of $(lib stop)'s getcpu hung for more than 5 s"
waits "verify: a getcpu in pause() fails" 20.2 1 1 \
	"$VK" verify -d 0.05 --paths impl getcpu --impl "$(lib pause)"
contains "verify: and names it hung for its 20.2 s" "$TMP/out" \
	"getcpu impl survives: the checks of getcpu on the impl path \\($(lib pause)\\) hung for more than 20.2 s"

# abi's own handler catches a call's signal in its child: one the library
# raised is no memory fault (never "allowed"), and is told with the
# library, the function and the API, as the watchdog's deaths are.
bounded 1 "abi: a clock_gettime that raises SIGSEGV fails" \
	"$VK" abi -t 0.5 --paths impl --impl "$(lib segv)" clock-gettime-monotonic
contains "abi: and names the library, the function and the API" "$TMP/out" \
	"clock-gettime-monotonic impl ts:valid: unexpected: impl \\($(lib segv)\\) was killed by SIGSEGV \\(si_code -?[0-9]+, address 0x[0-9a-f]+\\) in clock_gettime \\(clock-gettime-monotonic\\)"
contains "abi: a raised SIGSEGV is never an allowed fault" "$TMP/out" \
	"^clock_gettime +impl +[0-9]+ +0 +0 +[0-9]+ +0$"

# compare --impl: the library's exit, crash or hang is compare's failure
# (1), with the library, the API and what it did; not its own status.
# Its watchdog is 30 s and more (30 + 8 times its budget) on a CPU, ten
# times that on the wall, then 5 s to blame a side: the hang runs under
# the test hook VDSOKIT_COMPARE_TIMEOUT=1, which shortens both.
for h in exit0 exit3 segv hang; do
	bounded 1 "compare: a library whose getcpu does $h fails" \
		env VDSOKIT_COMPARE_TIMEOUT=1 "$VK" compare --copies 2 --impl "$(lib "$h")" getcpu
	contains "compare: and names it" "$TMP/err" \
		"--impl $(lib "$h"): measuring getcpu, it (exited with status [03]|was killed by SIGSEGV|hung for more than [0-9.]+ s)"
done
bounded 1 "compare: of two libraries, the one that dies" \
	"$VK" compare --copies 2 --impl "$IMPL/passthrough.so" --impl "$(lib segv)" getcpu
contains "compare: is the one named" "$TMP/err" "--impl $(lib segv): measuring getcpu, it was killed by SIGSEGV"
if grep -q -- "--impl $IMPL/passthrough.so:" "$TMP/err"; then
	not_ok "compare: and the other is not" "$(cat "$TMP/err")"
else
	ok "compare: and the other is not"
fi

# bench: a worker that never answers is killed by a watchdog and named;
# one that exits 0 early is told as such.
bounded 1 "bench: a library whose getcpu hangs ends" \
	"$VK" bench -P 2 --paths impl getcpu --impl "$(lib hang)"
contains "bench: and names the worker, the API and the library" "$TMP/err" \
	"worker process 1 of 2 sent nothing for [0-9.]+ s and was killed while measuring getcpu on impl \\($(lib hang)\\)"
bounded 1 "bench: a library whose getcpu exits 0 fails" \
	"$VK" bench -P 2 --paths impl getcpu --impl "$(lib exit0)"
contains "bench: and says the worker stopped early" "$TMP/err" \
	"worker process 1 of 2 exited with status 0 before it sent every row while measuring getcpu on impl"

# timens: the library's hang is its own, named, within seconds; in one
# set, as over every default set the hangs went past 300 s at load 10.
if [ "$timens_status" = 4 ]; then
	skip "timens: a library that hangs" "no time namespace can be made here"
else
	# shellcheck disable=SC2086 # its words
	bounded 1 "timens: a library whose clock_gettime hangs fails in bounded time" \
		"$VK" timens $one_set -d 0.05 --impl "$(lib hang)"
	contains "timens: and blames the library and the function" "$TMP/out" \
		"clock-gettime-monotonic impl custom:survives: $(lib hang)'s time32 clock_gettime hung for more than [0-9.]+ s"
fi

# stress: its readers run in a child under a watchdog. One that exits,
# even with status 0, crashes or hangs fails its step, named with the
# library, the function and API, and the path. Outside vm stress changes
# the clock; here in a user namespace, with no fault, it changes nothing
# (and cannot restore the clock either, which it says).
if ! unshare -U -r true 2>/dev/null; then
	skip "stress: a library that exits, crashes or hangs" "no user namespace can be made here"
else
	for h in exit0 exit3 segv hang; do
		bounded 1 "stress: a library whose getcpu does $h fails" unshare -U -r \
			"$VK" stress --i-accept-clock-changes -d 1 --faults none --paths impl --impl "$(lib "$h")" getcpu
		contains "stress: and names the library, the function and the path" "$TMP/out" \
			"^none +impl +[0-9]+ +FAIL: (exited with status [03] before its end|crashed: the readers were killed by signal 11 \\(Segmentation fault\\)|hang: reader [0-9]+ made no call for [0-9]+ s) in $(lib "$h")'s getcpu \\(getcpu\\), on the impl path;"
	done
	# A constructor's thread, limits, signals or helper: the readers
	# read on, and the step is told on its merits (1 only for the clock
	# it cannot restore here).
	for c in ctor-thread ctor-fsize ctor-sigs ctor-fork; do
		bounded 1 "stress: a library whose constructor does $c is read" unshare -U -r \
			"$VK" stress --i-accept-clock-changes -d 1 --faults none --paths impl --impl "$(lib "$c")" getcpu
		contains "stress: and its step passes" "$TMP/out" "^none +impl +[0-9]+ +ok"
	done
	none_left "stress: no process a library started outlives it" "$(lib ctor-fork)"
fi

# A file that is no ELF, or another machine's, is named as such, not as
# "No such file or directory".
printf 'not a library\n' >"$TMP/text.so"
bounded 2 "a file that is no ELF is bad input" "$VK" verify --impl "$TMP/text.so"
contains "and is named so" "$TMP/err" "--impl $TMP/text.so: not an ELF file"
foreign=$IMPL/foreign/passthrough-aarch64.so
if [ ! -f "$foreign" ]; then
	skip "an arm64 library" "no ${arch_cross[arm64]}gcc to build one (Debian: ${arch_cc_pkgs[arm64]})"
elif [ "$(uname -m)" = aarch64 ]; then
	skip "an arm64 library" "this machine is arm64: the library is not foreign here"
else
	bounded 2 "an arm64 library is bad input" "$VK" verify --impl "$foreign"
	contains "and is named for its machine" "$TMP/err" \
		"--impl $foreign: an ELF for aarch64, this vdsokit is "
fi
