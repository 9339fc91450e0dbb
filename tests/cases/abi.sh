# abi: the hostile-argument matrix on the host, and planted implementations
# that abi must classify correctly. Whether the host's vDSO diverges from
# its syscalls is a finding of the run, not asserted here.
. "$TOP/tests/lib.sh"

start=$(date +%s%N)
"$VK" abi --format ktap >"$TMP/abi.ktap" 2>"$TMP/err"
status=$?
ms=$((($(date +%s%N) - start) / 1000000))
if [ $status -eq 0 ] || [ $status -eq 1 ]; then ok "abi over every API exits 0 or 1 ($status, ${ms} ms)"; else not_ok "abi over every API exits 0 or 1" "exit $status: $(head -c 300 "$TMP/err")"; fi
plan=$(grep -E '^1\.\.[0-9]+$' "$TMP/abi.ktap" | cut -d. -f3)
results=$(grep -cE '^(not )?ok [0-9]+ ' "$TMP/abi.ktap")
check "the plan (1..$plan) counts the results" test "$plan" = "$results"
for c in "clock-gettime-realtime vdso ts:NULL" "clock-gettime-id:-16 vdso ts:valid" \
	 "clock-gettime-id:INT_MIN vdso ts:valid" "clock-gettime-fd:not-a-clock vdso ts:valid" \
	 "gettimeofday vdso tv:straddle,tz:valid" "getcpu vdso cpu:NULL,node:kernel-half,cache:read-only" \
	 "time vdso t:UINTPTR_MAX"; do
	# i386's vDSO has getcpu only since 6.3.
	if [ "${c%% *}" != getcpu ] || vdso_exports getcpu; then
		contains "the matrix has: $c" "$TMP/abi.ktap" "^(not )?ok [0-9]+ $c\$"
	else
		contains "the matrix skips ${c%% *} vdso: this vDSO lacks it" "$TMP/abi.ktap" \
			"^ok [0-9]+ ${c%% *} vdso all # SKIP the vDSO does not export it\$"
	fi
done
# libc's, unless a sanitized build skips that path with the reason.
for c in "buf:straddle" "len:SIZE_MAX"; do
	contains "the matrix has: getrandom libc $c" "$TMP/abi.ktap" \
		"^((not )?ok [0-9]+ getrandom libc $c|ok [0-9]+ getrandom libc all # SKIP .+ASan.+)\$"
done
# getrandom's state cases on the vDSO, where it has getrandom.
if grep -Eq '^ok [0-9]+ getrandom vdso all # SKIP' "$TMP/abi.ktap"; then
	contains "a vDSO without getrandom is skipped with the reason" "$TMP/abi.ktap" '^ok [0-9]+ getrandom vdso all # SKIP the vDSO does not export it$'
else
	for c in "getrandom vdso state:straddle" "getrandom vdso state:NULL" "getrandom vdso len:SIZE_MAX"; do
		contains "the matrix has: $c" "$TMP/abi.ktap" "^(not )?ok [0-9]+ $c\$"
	done
fi
# The futex unlocks where this vDSO has them (Linux 7.3), with the reason where not.
for f in futex-robust-list64-try-unlock futex-robust-list32-try-unlock; do
	if vdso_exports "$f"; then
		contains "the matrix has: $f vdso uncontended" "$TMP/abi.ktap" "^(not )?ok [0-9]+ $f vdso uncontended\$"
	elif "$VK" list-apis | grep -q "^$f "; then
		contains "the matrix skips $f vdso: this vDSO lacks it" "$TMP/abi.ktap" \
			"^ok [0-9]+ $f vdso all # SKIP the vDSO does not export it\$"
	fi
done
check "every answered case is classified" sh -c "! grep -A1 -E '^ok [0-9]+ [^#]*\$' '$TMP/abi.ktap' | grep '^# ' | grep -vE '^# (identical|allowed \\([a-z-]+\\)): '"
contains "a NULL timespec on the vDSO is the documented fault" "$TMP/abi.ktap" '^# allowed \(fault-for-efault\): vdso SIGSEGV'

# planted IMPL RULE-ERE EXIT [API...]: abi on the impl path exits EXIT
# and, for a failure, a 'not ok' line's diagnostic matches RULE-ERE.
planted() {
	local so=$O/tests/impl/$1.so
	if [ ! -f "$so" ]; then
		skip "abi classifies $1" "no impl libraries in this build"
		return
	fi
	expect_status "$3" "abi classifies $1 (exit $3)" timeout 120 "$VK" abi --impl "$so" --paths impl --format ktap "${@:4}"
	[ "$3" = 0 ] && return
	if grep -A1 '^not ok' "$TMP/out" | grep -Eq "$2"; then ok "$1 is caught: $2"; else not_ok "$1 is caught: $2" "$(grep -A1 '^not ok' "$TMP/out" | head -n 4)"; fi
}
planted abi-write-past 'wrote 1 bytes outside its objects' 1
planted abi-wrong-errno 'impl returned -EINVAL .* syscall returned -EFAULT' 1
# MIPS's SIGBUS for a kernel address (SI_KERNEL) is allowed there only.
planted abi-sigbus-kernel "impl \\(.*/abi-sigbus-kernel\\.so\\) was killed by SIGBUS \\(si_code 128, address 0\\) in clock_gettime \\(clock-gettime-realtime\\)" 1 clock-gettime-realtime
if [ -f "$O/tests/impl/abi-sigbus-kernel.so" ]; then
	contains "its NULL timespec fails" "$TMP/out" '^not ok [0-9]+ clock-gettime-realtime impl ts:NULL$'
	for c in kernel-half UINTPTR_MAX; do
		contains "its $c timespec is the documented fault" "$TMP/out" "^ok [0-9]+ clock-gettime-realtime impl ts:$c\$"
	done
	contains "said as such" "$TMP/out" '^# allowed \(fault-for-efault\): impl SIGBUS'
fi
planted abi-sigbus "impl \\(.*/abi-sigbus\\.so\\) was killed by SIGBUS .* in clock_gettime \\(clock-gettime-[a-z-]+\\)" 1
# The watchdog's own word proves it cut the hang; the time is a figure,
# not a check, as a loaded machine stretches it.
start=$(date +%s)
planted abi-hang 'hung for more than' 1
echo "# abi of a hanging implementation: $(($(date +%s) - start)) s"
contains "after three hangs the rest of that API is skipped" "$TMP/out" '# SKIP not run: 3 cases of this API hung$'
planted passthrough '' 0
# Linux 7.3's robust futex unlocks, held to include/vdso/futex.h's
# contract: a correct one passes every case, each planted bug is caught.
futex="futex-robust-list32-try-unlock"
[ "$(getconf LONG_BIT)" = 32 ] || futex="futex-robust-list64-try-unlock $futex"
planted passthrough '' 0 $futex
if [ -f "$O/tests/impl/passthrough.so" ]; then
	for c in uncontended contended lock:NULL contended,pop:read-only; do
		contains "a correct futex unlock keeps the contract: $c" "$TMP/out" \
			"^ok [0-9]+ futex-robust-list32-try-unlock impl $c\$"
	done
	contains "its uncontended unlock clears the lock and list_op_pending" "$TMP/out" \
		'^# allowed \(futex-contract\): impl returned 0x[0-9a-f]+; lock 0, list_op_pending NULL$'
fi
planted futex-keeps-pending 'impl left list_op_pending set where the unlock must clear it' 1 $futex
planted futex-unlocks-contended 'impl left the lock 0 where it held 0x8[0-9a-f]+ \(not the caller.s: untouched\)' 1 $futex
planted futex-pop32-wide 'impl wrote beside list_op_pending \(a 32-bit pointer\)' 1 $futex
planted futex-null-lock 'impl returned where its lock pointer cannot be read' 1 $futex
# getrandom's output is random: bytes that equal a canary, even both of
# them, are still output. Its writes past the output are not.
for i in 1 2 3; do
	planted abi-random-canary '' 0 getrandom
done
contains "output equal to the canaries is identical" "$TMP/out" '^ok [0-9]+ getrandom impl buf:valid$'
planted abi-random-past 'wrote 1 bytes outside its objects' 1 getrandom
# A NULL buffer with each of LTP getrandom01's flags, and INSECURE, of no
# bytes and of 16: one that says EAGAIN there before it looks at the
# buffer is caught, with NONBLOCK alone and with RANDOM.
planted abi-null-nonblock 'impl returned -EAGAIN .*; syscall returned (-EFAULT|0)' 1 getrandom
if [ -f "$O/tests/impl/abi-null-nonblock.so" ]; then
	check "on its four NULL-buffer cases with NONBLOCK" \
		test "$(grep -cE '^not ok [0-9]+ getrandom impl buf:NULL(,len:0)?,flags:(RANDOM\|)?NONBLOCK$' "$TMP/out")" = 4
	for c in "buf:NULL" "buf:NULL,len:0" "buf:NULL,flags:RANDOM" "buf:NULL,len:0,flags:INSECURE"; do
		contains "and no other: $c passes" "$TMP/out" "^ok [0-9]+ getrandom impl $c\$"
	done
fi
check "abi leaves no zombie behind" sh -c "! ps -o stat= --ppid $$ | grep -q Z"

expect_status 2 "an unknown API is a usage error" "$VK" abi bogus
expect_status 2 "--timeout 0 is a usage error" "$VK" abi --timeout 0
expect_status 2 "the impl path needs --impl" "$VK" abi --paths impl

# libc's contract: a libc that faults on a NULL it declares __nonnull
# (gettimeofday's tv) is allowed to, and verify does not pass it one; a
# fault on a NULL tz, which libc must accept, stays a failure of both.
# libc_stand_in LIB DESC KTAP: gettimeofday's abi on the libc path with
# LIB preloaded, into KTAP, its status in $status; false, with DESC
# skipped and why, where the libc path cannot run so.
libc_stand_in() {
	LD_PRELOAD=$1 "$VK" abi --paths libc --format ktap gettimeofday >"$3" 2>"$TMP/err"
	status=$?
	if grep -q 'ASan runtime does not come first' "$TMP/err"; then
		skip "$2" "a sanitized build takes no LD_PRELOAD library before ASan's runtime"
	elif grep -q '^ok [0-9]* gettimeofday libc all # SKIP' "$3"; then
		skip "$2" "$(grep -o 'SKIP .*' "$3")"
	else
		return 0
	fi
	return 1
}
deref=$O/tests/impl/libc-deref-tv.so
if libc_stand_in "$deref" "a libc fault on a NULL tv is allowed" "$TMP/nonnull.ktap"; then
	check "a libc fault on a NULL tv is allowed: abi exits 0 ($status)" test "$status" = 0
	contains "a libc fault on a NULL tv is named libc-nonnull" "$TMP/nonnull.ktap" \
		'^# allowed \(libc-nonnull\): libc SIGSEGV .*; syscall returned 0$'
	VK_DEREF_TZ=1 LD_PRELOAD=$deref expect_status 1 "a libc fault on a NULL tz fails abi" \
		"$VK" abi --paths libc --format ktap gettimeofday
	contains "a libc fault on a NULL tz is unexpected" "$TMP/out" \
		'^not ok [0-9]+ gettimeofday libc tv:valid,tz:NULL$'
	LD_PRELOAD=$deref expect_status 0 "verify gives libc no NULL tv" \
		"$VK" verify --paths libc -d 0.05 --format ktap gettimeofday
	VK_DEREF_TZ=1 LD_PRELOAD=$deref expect_status 1 "verify catches a libc fault on a NULL tz" \
		"$VK" verify --paths libc -d 0.05 --format ktap gettimeofday
	contains "by its rule null-args or survives" "$TMP/out" '^not ok [0-9]+ gettimeofday libc (null-args|survives)$'
fi

# libc's contract again: POSIX leaves a non-NULL tz to libc, which may
# write it even where the call fails (static glibc on x86 zeroes a byte
# of it first); a byte written past tz is still unexpected.
zero=$O/tests/impl/libc-zero-tz.so
if libc_stand_in "$zero" "libc writing a tz the call then refuses is allowed" "$TMP/tz.ktap"; then
	check "libc writing a tz the call then refuses is allowed: abi exits 0 ($status)" test "$status" = 0
	contains "it is named libc-tz-unspecified" "$TMP/tz.ktap" \
		'^# allowed \(libc-tz-unspecified\): libc returned -EFAULT'
	VK_TZ_PAST=1 LD_PRELOAD=$zero expect_status 1 "a libc write past tz fails abi" \
		"$VK" abi --paths libc --format ktap gettimeofday
	contains "a libc write past tz is unexpected" "$TMP/out" \
		'^# unexpected: libc returned 0, wrote 1 bytes outside its objects'
fi

# A syscall whose own outcome could not be had (its child killed) leaves
# nothing to compare with: the paths' cases SKIP, and the syscall fails,
# named, so that the run is no silent SKIP (status 4).
so=$O/tests/impl/preload-getcpu-syscall-killed.so
desc="abi fails a syscall that was killed, with nothing to compare with"
why=$(preload_why "$so")
if [ -n "$why" ]; then
	skip "$desc" "$why"
else
	expect_status 1 "$desc" env LD_PRELOAD="$so" "$VK" abi -t 0.5 --paths vdso getcpu
	contains "and names the syscall's end" "$TMP/out" \
		'^  getcpu syscall cpu:valid,node:valid,cache:valid: the syscall was killed by SIGKILL$'
fi

# Before the CRNG is ready a blocking getrandom waits, on every path: the
# kernel's rule (as on a Cortex-A9 with no cycle counter for jitter
# entropy), so abi's getrandom cases SKIP saying so, and nothing fails
# as hung. The LD_PRELOAD library makes the syscall behave so.
so=$O/tests/impl/preload-crng-not-ready.so
desc="abi: before the CRNG is ready, getrandom's cases SKIP (exit 4)"
why=$(preload_why "$so")
if [ -n "$why" ]; then
	skip "$desc" "$why"
else
	expect_status 4 "$desc" env LD_PRELOAD="$so" timeout 120 "$VK" abi -t 0.5 --paths vdso,libc --format ktap getrandom
	contains "and says why" "$TMP/out" '^ok [0-9]+ getrandom syscall all # SKIP the CRNG is not ready yet: getrandom would block$'
fi
