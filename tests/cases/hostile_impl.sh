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

# bounded N DESC CMD...: CMD exits N, and ends: within 300 s, past the
# tool's own bound on a hang (a watchdog's time on a CPU, or ten times
# it on the wall: under load 23 a looping constructor's 10 s of CPU took
# over the 60 s this allowed before), so that only a run that would
# never end fails it.
bounded() {
	local want=$1 desc=$2
	shift 2
	expect_status "$want" "$desc" timeout 300 "$@"
}

# A constructor that exits, crashes or loops runs first in a child, at
# load: bad input (2), named, in each command that loads --impl.
ctor_what() {
	case $1 in
	ctor-exit0) echo 'its constructor exited with status 0' ;;
	ctor-segv) echo 'its constructor was killed by SIGSEGV' ;;
	ctor-loop) echo 'its constructor hung for more than [0-9.]+ s' ;;
	esac
}

for c in ctor-exit0 ctor-segv ctor-loop; do
	what=$(ctor_what "$c")
	for cmd in "verify -d 0.05 --paths impl getcpu" "bench -P 2 --paths impl getcpu" \
		   "abi -t 0.5 --paths impl getcpu" "fallback --paths impl getcpu" \
		   "compare --copies 2 getcpu" "timens -d 0.05"; do
		name=${cmd%% *}
		# shellcheck disable=SC2086 # the command's words
		bounded 2 "$name: a constructor that does $c is bad input" \
			"$VK" $name --impl "$(lib "$c")" ${cmd#* }
		contains "$name: and named: $what" "$TMP/err" "--impl $(lib "$c"): $what"
	done
done

# vm packs --impl's dependencies by loading it: in a child first too,
# before any guest is booted.
bounded 2 "vm: a constructor that crashes is bad input" \
	"$VK" vm --kernel "$TMP/no-kernel" --accel tcg -- verify --impl "$(lib ctor-segv)"
contains "vm: and named" "$TMP/err" "--impl $(lib ctor-segv): its constructor was killed by SIGSEGV"

# verify: a function that ends its child, however, is a failure of its
# own that names the library; never a missing row and status 0 or 4.
for h in exit0 segv; do
	bounded 1 "verify: a getcpu that does $h fails" \
		"$VK" verify -d 0.05 --paths impl getcpu --impl "$(lib "$h")"
	contains "verify: and names the library and the function" "$TMP/out" \
		"getcpu impl survives: the checks of getcpu on the impl path \\($(lib "$h")\\) (exited with status 0|were killed by SIGSEGV)"
done

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
for h in exit0 exit3 segv hang; do
	bounded 1 "compare: a library whose getcpu does $h fails" \
		"$VK" compare --copies 2 --impl "$(lib "$h")" getcpu
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

# timens: the library's hang is its own, named, within seconds.
timeout 120 "$VK" timens -d 0.05 --format ktap >/dev/null 2>&1
if [ $? = 4 ]; then
	skip "timens: a library that hangs" "no time namespace can be made here"
else
	bounded 1 "timens: a library whose clock_gettime hangs fails in bounded time" \
		"$VK" timens -d 0.05 --impl "$(lib hang)"
	contains "timens: and blames the library and the function" "$TMP/out" \
		"clock-gettime-monotonic impl small:survives: $(lib hang)'s time32 clock_gettime hung for more than [0-9.]+ s"
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
fi

# A file that is no ELF, or another machine's, is named as such, not as
# "No such file or directory".
printf 'not a library\n' >"$TMP/text.so"
bounded 2 "a file that is no ELF is bad input" "$VK" verify --impl "$TMP/text.so"
contains "and is named so" "$TMP/err" "--impl $TMP/text.so: not an ELF file"
foreign=$IMPL/foreign/passthrough-aarch64.so
if [ ! -f "$foreign" ]; then
	skip "an arm64 library" "no aarch64-linux-gnu-gcc to build one (Debian: gcc-aarch64-linux-gnu)"
elif [ "$(uname -m)" = aarch64 ]; then
	skip "an arm64 library" "this machine is arm64: the library is not foreign here"
else
	bounded 2 "an arm64 library is bad input" "$VK" verify --impl "$foreign"
	contains "and is named for its machine" "$TMP/err" \
		"--impl $foreign: an ELF for aarch64, this vdsokit is "
fi
