# fallback: the kernel's rule for which calls stay in userspace, the CI
# gate, and an --impl that makes exactly one syscall.
. "$TOP/tests/lib.sh"

expect_status 0 "fallback over every API exits 0" "$VK" fallback --format ktap
cp "$TMP/out" "$TMP/fb.ktap"
contains "it answers in KTAP" "$TMP/fb.ktap" '^KTAP version 1$'
check "no probe died" sh -c "! grep -q '^not ok' '$TMP/fb.ktap'"

# answer API PATH: "userspace", or the syscall it falls back to.
answer() {
	awk -v api="$1" -v path="$2" '
		found { sub(/^# /, ""); sub(/:.*/, ""); sub(/^falls back to /, ""); print; exit }
		$1 == "ok" && $3 == api && $4 == path { found = 1 }' "$TMP/fb.ktap"
}

# lib/vdso's rule: REALTIME, MONOTONIC, MONOTONIC_RAW, BOOTTIME and TAI
# are read from the counter, so only while the clocksource is vDSO-capable;
# the coarse clocks always; CPU-time and alarm clocks never.
capable=$("$VK" info --format json | sed -n 's/.*"vdso_capable": "\([a-z]*\)".*/\1/p')
if [ "$capable" = unknown ] || [ -z "$capable" ]; then
	skip "the kernel's rule for clock ids" "info could not tell whether the clocksource serves the vDSO"
else
	for c in realtime monotonic monotonic-raw boottime tai; do
		want=userspace
		[ "$capable" = no ] && want=clock_gettime
		check "clock-gettime-$c on the vdso path: $want (clocksource vDSO-capable: $capable)" \
			test "$(answer clock-gettime-$c vdso)" = $want
	done
	for c in realtime-coarse monotonic-coarse; do
		check "clock-gettime-$c on the vdso path: userspace" test "$(answer clock-gettime-$c vdso)" = userspace
	done
	for c in process-cputime thread-cputime realtime-alarm boottime-alarm; do
		check "clock-gettime-$c on the vdso path: clock_gettime" test "$(answer clock-gettime-$c vdso)" = clock_gettime
		check "clock-getres-$c on the vdso path: clock_getres" test "$(answer clock-getres-$c vdso)" = clock_getres
	done
	contains "a fallback says why" "$TMP/fb.ktap" '^# falls back to clock_gettime: the vDSO does not serve this clock$'
fi

expect_status 1 "--require fails when a required API falls back" \
	"$VK" fallback --require clock-gettime-process-cputime clock-gettime-process-cputime
contains "and says it was required" "$TMP/out" 'required to stay in userspace'
expect_status 0 "--require passes when the required API stays in userspace" \
	"$VK" fallback --require clock-gettime-monotonic-coarse clock-gettime-monotonic-coarse
expect_status 2 "--require of an unknown API is a usage error" "$VK" fallback --require bogus
# An empty list would gate nothing and pass as a gate that held.
expect_status 2 "--require '' is a usage error" "$VK" fallback --require ''
contains "that says no API was given" "$TMP/err" "--require: no API given; name those that must stay in userspace"

# What vdsokit itself could not do is said as such, in a sentence: its
# filter refused (prctl refused, as a sandbox may), its fork refused
# (clone), its wait for the child refused (wait4): never "could not fork"
# for the wait, nor "the probe was could not fork".
refuse=$O/tests/tools/refuse
if ! "$refuse" wait4 -- true 2>/dev/null; then
	skip "fallback and info when vdsokit's own syscalls are refused" "no seccomp launcher here"
else
	for c in "prctl:seccomp refused its filter" \
		 "clone:vdsokit could not fork \\(Operation not permitted\\)" \
		 "wait4:vdsokit could not wait for its child \\(Operation not permitted\\)"; do
		sc=${c%%:*} said=${c#*:}
		expect_status 3 "fallback with $sc refused is vdsokit's own error" "$refuse" "$sc" -- "$VK" fallback --paths vdso getcpu
		contains "fallback: and says what it could not do" "$TMP/out" "^getcpu +vdso +ERROR, vdsokit's own: not probed: $said\$"
		"$refuse" "$sc" -- "$VK" info >"$TMP/out" 2>&1
		contains "info: likewise" "$TMP/out" "^  clock_gettime .* unknown: not probed: $said\$"
	done
fi
expect_status 2 "an unknown API is a usage error" "$VK" fallback bogus
expect_status 2 "the impl path needs --impl" "$VK" fallback --paths impl

so=$O/tests/impl/fb-tai-syscall.so
if [ ! -f "$so" ]; then
	skip "fallback names exactly the clock an --impl makes a syscall for" "no impl libraries in this build ($so)"
else
	expect_status 0 "fallback probes an --impl" "$VK" fallback --impl "$so" --paths vdso,impl --format ktap clock_gettime
	cp "$TMP/out" "$TMP/fb.ktap"
	# Compared by where each runs, not by syscall name: through libc, a
	# 32-bit build may fall back to clock_gettime64 where the vDSO's time32
	# entry falls back to clock_gettime.
	where() { [ "$(answer "$1" "$2")" = userspace ] && echo userspace || echo kernel; }
	diff=
	for c in realtime monotonic monotonic-raw realtime-coarse monotonic-coarse boottime tai process-cputime; do
		[ "$(where clock-gettime-$c vdso)" = "$(where clock-gettime-$c impl)" ] || diff="$diff $c"
	done
	if [ "$(answer clock-gettime-tai vdso)" = userspace ]; then
		check "the impl differs from the vDSO exactly on tai (differs on:$diff)" test "$diff" = " tai"
		check "the impl's tai falls back to clock_gettime" test "$(answer clock-gettime-tai impl)" = clock_gettime
	else
		skip "the impl differs from the vDSO exactly on tai" "this vDSO's own tai falls back"
	fi
fi

# A call that enters the kernel by another syscall than its own has not
# stayed in userspace: fb-adjtimex reads CLOCK_REALTIME through adjtimex().
so=$O/tests/impl/fb-adjtimex.so
if [ ! -f "$so" ]; then
	skip "fallback names a syscall other than the API's own" "no impl libraries in this build ($so)"
else
	expect_status 0 "fallback probes an --impl that reads the time through adjtimex()" \
		"$VK" fallback --impl "$so" --paths impl --format ktap clock-gettime-realtime
	cp "$TMP/out" "$TMP/fb.ktap"
	check "and names adjtimex, not userspace" test "$(answer clock-gettime-realtime impl)" = adjtimex
fi

# A clocksource vdsokit's table does not know is measured, not "unknown"
# (on planted vDSOs: tests/unit/clocksource_measured.c): in info, with a
# planted name bound over sysfs's in a mount namespace of its own.
cs=/sys/devices/system/clocksource/clocksource0/current_clocksource
mkdir -p "$TMP/fbcs" && printf 'planted-cs\n' >"$TMP/fbcs/current"
planted() { unshare -m sh -c 'mount --bind "$1" "$2" && shift 2 && exec "$@"' sh "$TMP/fbcs/current" "$cs" "$@"; }
if [ ! -r "$cs" ] || ! planted true 2>/dev/null; then
	skip "info measures a clocksource it does not know" "no mount namespace with $cs bound over here"
else
	# The measurement is info's; what it finds is this host's.
	expect_status 0 "info on a planted clocksource exits 0" planted "$VK" info
	contains "it reads the planted name" "$TMP/out" '^clocksource: +planted-cs '
	contains "and says what it measured, not unknown" "$TMP/out" \
		"^  vDSO-capable: (yes: measured: the vDSO's clock_gettime\(CLOCK_MONOTONIC\) stays in userspace|no: measured: the vDSO's clock_gettime\(CLOCK_MONOTONIC\) makes the syscall)\$"
	expect_status 0 "info --format json on a planted clocksource exits 0" planted "$VK" info --format json
	contains "its JSON says yes or no" "$TMP/out" '^    "vdso_capable": "(yes|no)",$'
	contains "and what was measured" "$TMP/out" '^    "note": "measured: the vDSO.s clock_gettime\(CLOCK_MONOTONIC\) '
	capable=$(sed -n 's/.*"vdso_capable": "\([a-z]*\)".*/\1/p' "$TMP/out")
	want=userspace
	[ "$capable" = no ] && want=clock_gettime
	expect_status 0 "fallback on a planted clocksource exits 0" planted "$VK" fallback --format ktap clock-gettime-monotonic
	cp "$TMP/out" "$TMP/fb.ktap"
	check "and agrees with info: clock-gettime-monotonic on the vdso path: $want" \
		test "$(answer clock-gettime-monotonic vdso)" = "$want"
fi

# A kernel without seccomp filters (CONFIG_SECCOMP_FILTER: sparc's cannot
# have them) lacks what fallback needs: a SKIP naming the option, not a
# failed probe per API.
so=$O/tests/impl/preload-no-seccomp-filter.so
if preloaded 4 "fallback on a kernel without seccomp filters is a SKIP (4)" "$so" \
	fallback --format ktap; then
	contains "naming CONFIG_SECCOMP_FILTER" "$TMP/err" \
		'^vdsokit fallback: the kernel has no seccomp filters \(CONFIG_SECCOMP_FILTER\)$'
fi
