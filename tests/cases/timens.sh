# timens: the vDSO inside time namespaces. The kernel's answers are not
# asserted here (a wrong one is a finding of the run); the report's form,
# the options and the SKIP without privilege are.
. "$TOP/tests/lib.sh"

# The offset and y2038 rules on planted readings (tests/unit/timens_rules.c).
"$O/tests/timens_rules"

# What info says of time namespaces says how it knows, never a bare
# "unknown": on planted observations (tests/unit/sysinfo_timens.c), here,
# and with /proc hidden under a tmpfs in a mount namespace of its own.
"$O/tests/sysinfo_timens"
expect_status 0 "info exits 0" "$VK" info
contains "info says how it knows of time namespaces" "$TMP/out" \
	'^time namespace: (initial|non-initial|none|unknown)( \(offsets: [^)]*\))?: [a-z/].+$'
expect_status 0 "info --format json exits 0" "$VK" info --format json
contains "its JSON says whether the kernel has them" "$TMP/out" '^    "supported": "(yes|no|unknown)",$'
contains "and whether one can be made here" "$TMP/out" '^    "can_make": "(yes|no)",$'
hidden() { unshare -m sh -c 'mount -t tmpfs none /proc && exec "$@"' sh "$@"; }
if ! hidden true 2>/dev/null; then
	skip "info with /proc hidden says why it cannot tell" "no mount namespace with a tmpfs over /proc here"
else
	expect_status 0 "info with /proc hidden exits 0" hidden "$VK" info
	contains "it says /proc is not mounted, and what unshare(CLONE_NEWTIME) said" "$TMP/out" \
		'^time namespace: (unknown|none): /proc is not mounted; (a new one can be made here|unshare\(CLONE_NEWTIME\) fails with E[A-Z]+.*)$'
	expect_status 0 "info --format json with /proc hidden exits 0" hidden "$VK" info --format json
	contains "its JSON says the same" "$TMP/out" '^    "note": "/proc is not mounted; '
	expect_status 4 "timens with /proc hidden is a SKIP (exit 4)" hidden "$VK" timens
	contains "that says /proc is not mounted, not a guess at the kernel" "$TMP/err" '^vdsokit timens: SKIP: /proc is not mounted$'
fi

# exits_as_results DESC ARGS...: timens ran, and its status is its KTAP's
# (1 with a 'not ok', else 0): a finding of the kernel's, such as a
# getrandom flag the vDSO takes, makes it 1, as it should.
exits_as_results() {
	local desc=$1 status
	shift
	"$VK" "$@" >"$TMP/out" 2>"$TMP/err"
	status=$?
	if { [ $status = 0 ] && ! grep -q '^not ok' "$TMP/out"; } ||
	   { [ $status = 1 ] && grep -q '^not ok' "$TMP/out"; }; then
		ok "$desc (exit $status, as its results say)"
	else
		not_ok "$desc" "command: $VK $*" "exit $status; 'not ok' lines: $(grep -c '^not ok' "$TMP/out")" \
			"stderr: $(head -c 300 "$TMP/err")"
	fi
}

if [ ! -e /proc/self/timens_offsets ]; then
	expect_status 4 "without time namespaces, timens is a SKIP (exit 4)" "$VK" timens
	exit 0
fi
"$VK" timens --format ktap >"$TMP/tn.ktap" 2>"$TMP/err"
status=$?
if [ $status -eq 0 ] || [ $status -eq 1 ]; then ok "timens over the default sets exits 0 or 1 ($status)"; else not_ok "timens exits 0 or 1" "exit $status: $(head -c 300 "$TMP/err")"; fi
for set in small fraction near-2^31 past-2^31 most-negative; do
	for c in monotonic monotonic-coarse monotonic-raw boottime realtime tai; do
		for p in vdso syscall; do
			contains "set $set: clock-gettime-$c on $p is compared inside and out" "$TMP/tn.ktap" \
				"^(not )?ok [0-9]+ clock-gettime-$c $p ${set//^/\\^}:offset\$"
		done
	done
	contains "set $set: verify's rules run inside the namespace" "$TMP/tn.ktap" \
		"^(not )?ok [0-9]+ clock-gettime(64)?-monotonic vdso ${set//^/\\^}:ordered\$"
	contains "set $set: the parent is checked" "$TMP/tn.ktap" "^(not )?ok [0-9]+ timens syscall ${set//^/\\^}:parent-unaffected\$"
	contains "set $set: the kernel's offsets are checked" "$TMP/tn.ktap" "^(not )?ok [0-9]+ timens syscall ${set//^/\\^}:kernel-offsets\$"
done
# Every other function is verified inside, in the first set, and each
# call that stays in userspace outside stays there inside (the kernel's
# selftests check that with ptrace); a library that falls back only in a
# namespace is caught.
for api in gettimeofday time getcpu getrandom; do
	contains "$api is verified inside a time namespace" "$TMP/tn.ktap" \
		"^(not )?ok [0-9]+ $api vdso small:[a-z-]+( # SKIP .*)?\$"
done
for api in clock-gettime-monotonic clock-gettime-boottime gettimeofday getrandom; do
	contains "$api's fallback is probed inside and out" "$TMP/tn.ktap" \
		"^(not )?ok [0-9]+ $api vdso small:userspace( # SKIP .*)?\$"
done
# A planted fault is one in every set: it runs in one set of its own
# offsets, where MONOTONIC and BOOTTIME both move (the default sets are
# checked above).
one_set=(--monotonic 86400 --boottime 172800)
if [ -f "$O/tests/impl/timens-fallback.so" ]; then
	expect_status 1 "a library that falls back only in a time namespace is caught" \
		"$VK" timens --impl "$O/tests/impl/timens-fallback.so" "${one_set[@]}" -d 0.05 --format ktap
	contains "and named" "$TMP/out" \
		'^# in a time namespace it falls back to clock_gettime(64)?; outside it stays in userspace'
	"$VK" timens --impl "$O/tests/impl/passthrough.so" "${one_set[@]}" -d 0.05 --format ktap >"$TMP/out" 2>&1
	contains "the pass-through's syscalls outside are a SKIP, not a pass" "$TMP/out" \
		'^ok [0-9]+ clock-gettime(64)?-monotonic impl custom:userspace # SKIP outside a time namespace it falls back to clock_gettime(64)? too$'
else
	skip "a library that falls back only in a time namespace" "no impl libraries in this build"
fi
# setns() out of the namespace and back, as the kernel's timens selftest
# and LTP's clock_gettime03 move, exec() inside, as its timens/exec.c
# does, and vfork() and exec() out of the process that made it, as its
# vfork_exec.c does, with a thread of each exec()ed process: each read
# gives the namespace it is in, in every set. A clock that keeps the
# offsets of the namespace it first read is caught (and the pass-through
# passes), and so is an exec() that leaves the namespace (a stand-in
# moves there first). A SKIP says that the reads around one lay further
# apart than the offset (a loaded machine), so it could not be told apart.
rules="setns exec exec-thread vfork-exec vfork-exec-thread"
for set in small fraction near-2^31 past-2^31 most-negative; do
	for c in monotonic boottime; do
		for rule in $rules; do
			contains "set $set: $c is read after $rule" "$TMP/tn.ktap" \
				"^(not )?ok [0-9]+ clock-gettime(64)?-$c vdso ${set//^/\\^}:$rule( # SKIP .*)?\$"
		done
	done
done
# The planted faults below, in one_set too: each rule has two results,
# one a clock.
# fail_counts DESC N...: for each rule in $rules, in that order, what its
# results on both clocks in each set in $TMP/out did: N of 0, none
# failed; 2, none passed and one at least failed, as a result whose
# reads lay further apart than the offset (a loaded machine) SKIPs; -,
# anything.
fail_counts() {
	local desc=$1 rule want failed passed
	shift
	for rule in $rules; do
		want=$1
		shift
		[ "$want" = - ] && continue
		failed=$(grep -cE "^not ok [0-9]+ clock-gettime(64)?-(monotonic|boottime) vdso [^ ]+:$rule( # ERROR .*)?\$" "$TMP/out")
		passed=$(grep -cE "^ok [0-9]+ clock-gettime(64)?-(monotonic|boottime) vdso [^ ]+:$rule\$" "$TMP/out")
		if [ "$want" = 0 ]; then
			check "$desc: $rule fails none" test "$failed" = 0
		else
			check "$desc: $rule passes none of $want and fails some" \
				test "$passed" = 0 -a "$failed" -ge 1 -a "$failed" -le "$want"
		fi
	done
}
# A kernel before 6.2 refuses vfork() in the namespace's maker by design:
# its vfork rules SKIP, and a bug planted there alone cannot show.
vf=2
kernel_before 6 2 && vf=0
exec 9</proc/self/ns/time
if preloaded 1 "an exec() that leaves the namespace fails the exec rules" \
	"$O/tests/impl/preload-exec-outside.so" timens "${one_set[@]}" -d 0.05 --format ktap; then
	# Its setns() in a vfork()ed child, which shares its parent's memory,
	# is refused: vfork-exec is not what it plants a bug in.
	fail_counts "on both clocks in each set" 0 2 2 - -
	contains "and says so" "$TMP/out" \
		"^# after exec\\(\\): monotonic by the syscall [0-9]+ ns, where this namespace read [0-9]+ then [0-9]+ ns: the exec\\(\\)ed process is not in the namespace"
fi
exec 9<&-
if [ $vf = 0 ]; then
	skip "vfork() bugs planted alone" "this kernel, before 6.2, refuses vfork() in the namespace's maker"
elif preloaded 1 "a vfork()ed child the kernel left outside at exec() fails vfork-exec" \
	"$O/tests/impl/preload-vfork-child-outside.so" timens "${one_set[@]}" -d 0.05 --format ktap; then
	fail_counts "a child left outside" 0 0 0 2 2
	contains "and says so" "$TMP/out" \
		"^# after vfork\\(\\) and exec\\(\\): monotonic by the syscall [0-9]+ ns, where this namespace read [0-9]+ then [0-9]+ ns: the exec\\(\\)ed process is not in the namespace"
fi
if [ $vf != 0 ] && preloaded 1 "a maker of the namespace that follows its vfork()ed child in fails vfork-exec" \
	"$O/tests/impl/preload-maker-follows.so" timens "${one_set[@]}" -d 0.05 --format ktap; then
	fail_counts "a maker that followed" 0 0 0 2 0
	contains "and says so" "$TMP/out" \
		"^# in the process that made the namespace, after vfork\\(\\) and exec\\(\\): monotonic by the syscall [0-9]+ ns, where its parent read [0-9]+ then [0-9]+ ns: it left its own time namespace"
fi
if preloaded 1 "a thread that reads the parent's time fails both thread rules" \
	"$O/tests/impl/preload-thread-outside.so" timens "${one_set[@]}" -d 0.05 --format ktap; then
	fail_counts "a thread outside" 0 0 2 0 $vf
	via='vfork\(\) and '
	[ $vf = 0 ] && via=
	contains "and says so" "$TMP/out" \
		"^# in a thread after ${via}exec\\(\\): monotonic by the syscall [0-9]+ ns, where this namespace read [0-9]+ then [0-9]+ ns"
fi
# vfork() refused with EINVAL: by design on a release before 6.2, which
# gave vfork() no way into another time namespace (a SKIP naming it), and
# a failure on a later one, which promises it.
so=$O/tests/impl/preload-vfork-refused.so
if [ -z "$(preload_why "$so")" ]; then
	VK_FAKE_RELEASE=6.1.0-fake LD_PRELOAD=$so "$VK" timens "${one_set[@]}" -d 0.05 --format ktap >"$TMP/out" 2>&1
	fail_counts "vfork() refused on 6.1" 0 0 0 0 0
	check "the vfork rules SKIP on 6.1, naming why" test "$(grep -cE \
		'^ok [0-9]+ clock-gettime(64)?-(monotonic|boottime) vdso [^ ]+:vfork-exec(-thread)? # SKIP the kernel refuses vfork\(\) in the process that made the namespace \(EINVAL\), as kernels before 6\.2 do$' \
		"$TMP/out")" = 4
	VK_FAKE_RELEASE=6.2.0-fake LD_PRELOAD=$so "$VK" timens "${one_set[@]}" -d 0.05 --format ktap >"$TMP/out" 2>&1
	fail_counts "vfork() refused on 6.2" 0 0 0 2 2
	contains "and says so" "$TMP/out" '^# vfork\(\) in the process that made the namespace: Invalid argument'
else
	skip "vfork() refused: a SKIP before 6.2, a failure after" "$(preload_why "$so")"
fi
# A thread that could not start is vdsokit's own error, named (KTAP's
# ERROR; exit 3, or 1 where a check really failed too, this kernel's own
# finding); one this build cannot wait for (vk_threads_refused) would be
# a SKIP saying why.
so=$O/tests/impl/preload-no-threads.so
if [ -n "$(preload_why "$so")" ]; then
	skip "an exec()ed vdsokit that can start no thread: the thread rules are its error" \
		"$(preload_why "$so")"
else
	LD_PRELOAD=$so "$VK" timens "${one_set[@]}" -d 0.05 --format ktap >"$TMP/out" 2>"$TMP/err"
	status=$? want=3
	grep -E '^not ok ' "$TMP/out" | grep -qv ' # ERROR ' && want=1
	check "an exec()ed vdsokit that can start no thread: exit $want, not a failure of its own ($status)" \
		test "$status" = "$want"
	fail_counts "no threads" 0 0 2 0 $vf
	contains "and says why" "$TMP/out" \
		"^not ok [0-9]+ [^#]* # ERROR not tested: in a thread after exec\\(\\): the exec\\(\\)ed vdsokit could not start a thread: Resource temporarily unavailable"
fi
# In a time namespace that already has offsets (a container's, a nested
# `unshare --time`), a new one starts with them and its offsets are
# written against the initial namespace's clocks: timens must report
# what it reports here, its sets taken against the clocks it runs under.
nested() { unshare --time --fork --monotonic 100000 --boottime 200000 "$@"; }
# The quick tier (QUICK=1) compares one set, the offsets of the first
# default set (small).
sets=() set=small
[ -n "${QUICK:-}" ] && sets=(--monotonic 1000 --boottime 2000) set=custom
if nested true 2>/dev/null; then
	"$VK" timens "${sets[@]}" -d 0.05 --format ktap >"$TMP/host.ktap" 2>&1
	host=$?
	nested "$VK" timens "${sets[@]}" -d 0.05 --format ktap >"$TMP/nested.ktap" 2>"$TMP/err"
	got=$?
	check "in a namespace with offsets, timens exits as here ($host)" test "$got" = "$host"
	failing() { sed -En 's/^not ok [0-9]+ //p' "$1" | sort; }
	check "and fails what it fails here" diff <(failing "$TMP/host.ktap") <(failing "$TMP/nested.ktap")
	contains "and the kernel shows the offsets on top of the inherited ones" "$TMP/nested.ktap" \
		"^ok [0-9]+ timens syscall $set:kernel-offsets\$"
else
	skip "timens in a namespace with offsets" "unshare --time --monotonic cannot make one here"
fi
# setns is read through each clock_gettime entry the API table gives
# this ABI: a 32-bit one has its time32 entry beside the time64 one.
entries=1
"$VK" list-apis | grep -q '^clock-gettime64-monotonic ' && entries=2
if [ -f "$O/tests/impl/timens-setns-stale.so" ]; then
	# Its clock_gettime is stale; a 32-bit ABI's clock_gettime64 is the
	# pass-through's.
	"$VK" timens --impl "$O/tests/impl/timens-setns-stale.so" "${one_set[@]}" -d 0.05 --format ktap >"$TMP/out" 2>&1
	check "a clock with the first namespace's offsets fails setns on both clocks in each set" \
		test "$(grep -cE '^not ok [0-9]+ clock-gettime(64)?-(monotonic|boottime) impl [^ ]+:setns$' "$TMP/out")" = 2
	contains "and says where it read what" "$TMP/out" \
		"^# after setns\\(\\) to the parent's time namespace: monotonic by the syscall [0-9]+ ns, then impl [0-9]+ ns"
	"$VK" timens --impl "$O/tests/impl/passthrough.so" "${one_set[@]}" -d 0.05 --format ktap >"$TMP/out" 2>&1
	check "the pass-through passes setns on both clocks in each set, through each entry" \
		test "$(grep -cE '^ok [0-9]+ clock-gettime(64)?-(monotonic|boottime) impl [^ ]+:setns$' "$TMP/out")" = $((2 * entries))
else
	skip "a clock with the first namespace's offsets after setns()" "no impl libraries in this build"
fi
# /proc/self/timens_offsets refuses what the kernel documents, each with
# its errno; under a stand-in that takes every write, each check fails.
for r in malformed no-nsec negative-nsec nsec-past-1s realtime bad-second-line past-ktime-max \
	clock-below-0 after-entry; do
	contains "timens_offsets refuses $r" "$TMP/tn.ktap" "^ok [0-9]+ timens syscall refuses-$r\$"
done
contains "a refused write changes no offset" "$TMP/tn.ktap" '^ok [0-9]+ timens syscall refusals-change-nothing$'
if preloaded 1 "a kernel that took every offset fails each refusal" \
	"$O/tests/impl/preload-timens-offsets-take-all.so" timens "${one_set[@]}" -d 0.05 --format ktap; then
	contains "and says what was taken" "$TMP/out" \
		'^# writing "monotonic 5 0(\\)+nx" gave nothing \(it was taken\), not Invalid argument'
	check "each of the nine" test "$(grep -c '^not ok [0-9]* timens syscall refuses-' "$TMP/out")" = 9
fi
# clock_nanosleep(TIMER_ABSTIME) to the namespace's time, in each set
# (past 2^31 s a SKIP where this build's time_t is 32 bits); one that
# returns at once is caught.
for set in small fraction near-2^31 past-2^31 most-negative; do
	skip_re=
	[ "$set" = past-2^31 ] && skip_re='( # SKIP not slept: clock_gettime\(\) failed: Value too large.*)?'
	for c in monotonic boottime; do
		contains "set $set: clock_nanosleep to $c's time inside ends after it" "$TMP/tn.ktap" \
			"^ok [0-9]+ clock-nanosleep-$c syscall ${set//^/\\^}:abstime$skip_re\$"
	done
done
if preloaded 1 "a clock_nanosleep that wakes before the namespace's time is caught" \
	"$O/tests/impl/preload-nanosleep-host-time.so" timens "${one_set[@]}" -d 0.05 --format ktap; then
	contains "and named" "$TMP/out" '^# woke [0-9]+ ns before the namespace.s time it slept to'
fi
# On a 32-bit ABI, past 2^31 s: the vDSO's time32 entry must do what the
# kernel's time32 syscall does, and one that fails where it wraps is caught.
if grep -q ' past-2^31:y2038$' "$TMP/tn.ktap"; then
	for p in vdso syscall; do
		contains "y2038: the $p time32 entry does what the time32 syscall does" "$TMP/tn.ktap" \
			"^ok [0-9]+ clock-gettime-monotonic $p past-2\\^31:y2038\$"
	done
	if [ -f "$O/tests/impl/y2038-overflow.so" ]; then
		"$VK" timens --impl "$O/tests/impl/passthrough.so" -d 0.05 --format ktap >"$TMP/out" 2>&1
		contains "y2038: the pass-through's time32 entry passes" "$TMP/out" \
			'^ok [0-9]+ clock-gettime-monotonic impl past-2\^31:y2038$'
		expect_status 1 "y2038: a time32 entry that fails where the syscall wraps is caught" \
			"$VK" timens --impl "$O/tests/impl/y2038-overflow.so" -d 0.05 --format ktap
		contains "y2038: and named" "$TMP/out" \
			'^# the time32 clock_gettime returned -75 .*; the time32 syscall (wrapped|failed|was right)'
	else
		skip "y2038: planted time32 entries" "no impl libraries in this build"
	fi
else
	skip "y2038: time32 entries past 2^31 s" "a 64-bit ABI has no time32 entries"
fi
exits_as_results "a set of one's own offsets" timens --monotonic 86400 --boottime 172800 -d 0.05 --format ktap
contains "is named custom" "$TMP/out" '^ok [0-9]+ clock-gettime-boottime vdso custom:offset$'
# As verify's: the passing checks' bounds in one line, each with --verbose.
passing_bounds "timens" timens --monotonic 86400 -d 0.05
# The kernel takes seconds and nanoseconds, negative too: each clock must
# move by exactly its offset, and the kernel show it as written.
exits_as_results "offsets of fractions of a second, negative too" \
	timens --monotonic -100.5 --boottime 0.000000001 -d 0.05 --format ktap
contains "are checked on every clock" "$TMP/out" '^ok [0-9]+ clock-gettime-monotonic-coarse vdso custom:offset$'
contains "and the kernel shows them as written" "$TMP/out" '^ok [0-9]+ timens syscall custom:kernel-offsets$'
expect_status 2 "an offset the kernel refuses is refused (2)" "$VK" timens --monotonic -99999999 -d 0.05
contains "with the kernel's bounds" "$TMP/err" \
	'the kernel refuses these offsets: the kernel keeps each clock inside from 0 s to under 4611686019 s, so it takes a MONOTONIC offset of -[0-9.]+ to [0-9.]+ s and a BOOTTIME one of'
# Those bounds, as said, are the kernel's: its least MONOTONIC offset then
# (less the clock's later progress) is taken, leaving the clock at a
# second inside; past its most (which only falls) is refused.
lo=$(sed -n 's/.*MONOTONIC offset of \(-[0-9.]*\) to \([0-9.]*\) s.*/\1/p' "$TMP/err")
hi=$(sed -n 's/.*MONOTONIC offset of \(-[0-9.]*\) to \([0-9.]*\) s.*/\2/p' "$TMP/err")
exits_as_results "the least MONOTONIC offset said, plus a second, is taken ($lo)" \
	timens --monotonic "$(awk -v lo="$lo" 'BEGIN { printf "%.9f", lo + 1 }')" -d 0.05 --format ktap
contains "and shown by the kernel as written" "$TMP/out" '^ok [0-9]+ timens syscall custom:kernel-offsets$'
expect_status 2 "past the most MONOTONIC offset said is refused ($hi)" \
	"$VK" timens --monotonic "$((${hi%.*} + 1))" -d 0.05
expect_status 2 "an offset beyond any the kernel takes is refused (2)" "$VK" timens --boottime 9223372037
contains "with that bound" "$TMP/err" "beyond the \\+-9223372036 s"
for bad in "--monotonic x" "--boottime 1.5x" "--monotonic 1.0000000001" "--monotonic .5" "-d 0" "--format yaml" "extra"; do
	# shellcheck disable=SC2086 # each case is several words
	expect_status 2 "timens $bad is a usage error" "$VK" timens $bad
done
if [ "$(id -u)" = 0 ] && need setpriv; then
	expect_status 4 "without CAP_SYS_ADMIN, timens is a SKIP (exit 4)" \
		setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all "$VK" timens
	contains "and names the capability unshare() checks" "$TMP/err" 'unshare\(CLONE_NEWTIME\): Operation not permitted \(needs CAP_SYS_ADMIN\)'
else
	skip "without CAP_SYS_ADMIN, timens is a SKIP" "not root, or no setpriv to drop privileges with"
fi
