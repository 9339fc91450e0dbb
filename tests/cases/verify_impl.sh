# verify --impl: each planted bug in tests/impl/bug-*.c is caught by the
# rule that describes it, and the correct pass-through passes.
# serial: bug-thread-late is caught only when its threads run within
# 10 us of each other, on two CPUs that a neighbour would take.
. "$TOP/tests/lib.sh"

IMPL=$O/tests/impl

# Each planted bug, the rules (an ERE) of which one must report it, the
# API it is in (verify runs that alone) and optionally its budget. A step back once in 10^5
# calls needs millions of calls on the one clock it affects to be seen;
# threads late by 50 us need to run within 10 us of each other, which a
# loaded machine allows them now and then (else the rule is a SKIP).
rules='
bug-aux-stale	aux-ordered	clock-gettime-id:23
bug-clock-stands-still	ordered	clock-gettime-monotonic
bug-coarse-ahead	coarse-bound	clock_gettime
bug-getcpu-node	node	getcpu
bug-getrandom-fork	fork	getrandom
bug-getrandom-fork-crash	fork	getrandom
bug-getrandom-nonblock	flags	getrandom
bug-getrandom-short	length	getrandom
bug-getrandom-words	length	getrandom
bug-getrandom-past	length	getrandom
bug-getrandom-topbit	statistics	getrandom
bug-getrandom-repeat	statistics	getrandom
bug-getrandom-counter	statistics	getrandom
bug-getrandom-insecure-weak	statistics	getrandom
bug-getrandom-nonblock-random	flags	getrandom
bug-getrandom-random-insecure	flags	getrandom
bug-getrandom-state-seeded	thread-states	getrandom
bug-getrandom-needs-fd	no-files	getrandom
bug-invalid-success	errno	clock_gettime
bug-invalid-success-late	errno	clock_gettime
bug-mono-stepback	ordered|monotonic	clock-gettime-monotonic	1
bug-nsec-negative	normalized	clock-gettime-monotonic
bug-nsec-overflow	normalized	clock-gettime-monotonic
bug-res-off-by-one	resolution	clock_getres
bug-tai-einval	errno	clock-gettime-tai
bug-thread-late	threads	clock-gettime-monotonic	3
bug-torn-second	second-edge	clock-gettime-realtime
bug-time-pointer	time-pointer	time
bug-tz-ignored	timezone	gettimeofday
bug-wrong-errno	errno	clock_gettime
'

rule_of() {
	echo "$rules" | awk -v b="$1" '$1 == b { print $2 }'
}

api_of() {
	echo "$rules" | awk -v b="$1" '$1 == b { print $3 }'
}

seconds_of() {
	echo "$rules" | awk -v b="$1" '$1 == b { print ($4 == "" ? 0.3 : $4) }'
}

# The bugs: every tests/impl/bug-*.c, and every bug the table names.
bugs=$({
	for f in "$TOP"/tests/impl/bug-*.c; do [ -e "$f" ] && basename "$f" .c; done
	echo "$rules" | awk 'NF { print $1 }'
} | sort -u)

# A static vdsokit has no dlopen(), and a sanitized build may have no
# impl libraries: then every check is a SKIP, with the reason.
why=
if is_static "$VK"; then
	why="vdsokit is statically linked: no dlopen(), so no --impl"
elif [ ! -d "$IMPL" ] && [ "${SANITIZE:-}" = 1 ]; then
	why="SANITIZE=1: the --impl libraries were not built ($IMPL)"
fi

# families_of RULES: the families (verify --list-rules, read once) of
# RULES, an ERE of rule names (a|b), as a list for --rules.
rule_list=$("$VK" verify --list-rules)
families_of() {
	echo "$rule_list" | awk -v rules="$1" '
		BEGIN { n = split(rules, r, "|") }
		{ for (i = 1; i <= n; i++) if ($2 == r[i] && !seen[$1]++) out = out (out ? "," : "") $1 }
		END { print out }'
}

# verify OUT IMPL SECONDS [ARGS]: runs verify on the impl path alone,
# output in OUT and OUT.err, and returns its exit status (124 if it hung).
verify() {
	local out=$1 so=$2 secs=$3 t=
	shift 3
	need timeout && t="timeout 120"
	$t "$VK" verify --impl "$so" --paths impl -d "$secs" --format ktap "$@" >"$out" 2>"$out.err"
}

# A KTAP result line on the impl path: "[not ]ok N API impl RULE".
line() {
	echo "^[[:space:]]*$1 [0-9]+ [^ ]+ impl ($2)( |\$)"
}

# An aux clock's bug shows only where vdsokit may enable one
# (tests/cases/verify_aux.sh): elsewhere it is not counted.
aux_why=
if [ ! -d /sys/kernel/time/aux_clocks ]; then
	aux_why="the kernel has no aux clocks (CONFIG_POSIX_AUX_CLOCKS, Linux 6.17+)"
elif [ ! -w /sys/kernel/time/aux_clocks/7/aux_clock_enable ] || [ "$(id -u)" != 0 ]; then
	aux_why="aux_clock_enable cannot be written here (root and CAP_SYS_TIME)"
fi

caught=0 total=0
for b in $bugs; do
	total=$((total + 1))
	rule=$(rule_of "$b")
	desc="verify catches $b by its rule ${rule:-?}"
	if [ -n "$why" ]; then
		skip "$desc" "$why"
		continue
	fi
	if [ -n "$aux_why" ] && [ "${rule#aux-}" != "$rule" ]; then
		skip "$desc" "$aux_why"
		total=$((total - 1))
		continue
	fi
	if [ -z "$rule" ]; then
		not_ok "$desc" "$b has no rule in the table of tests/cases/verify_impl.sh"
		continue
	fi
	if [ ! -f "$TOP/tests/impl/$b.c" ]; then
		not_ok "$desc" "the table names $b, but tests/impl/$b.c does not exist"
		continue
	fi
	if [ ! -f "$IMPL/$b.so" ]; then
		not_ok "$desc" "$IMPL/$b.so is not built (make check-build)"
		continue
	fi
	out=$TMP/$b.ktap
	secs=$(seconds_of "$b")
	api=$(api_of "$b")
	# The rule's family alone: the others, and the second boundary the
	# edge pass waits for, would only take time.
	families=$(families_of "$rule")
	verify "$out" "$IMPL/$b.so" "$secs" --rules "$families" $api
	status=$?
	if grep -Eq "$(line 'not ok' "$rule")" "$out"; then
		caught=$((caught + 1))
		hit=yes
	else
		hit=no
	fi
	if [ "$status" = 1 ] && [ "$hit" = yes ]; then
		ok "$desc"
	else
		not_ok "$desc" "command: $VK verify --impl $IMPL/$b.so --paths impl -d $secs --format ktap --rules $families $api" \
			"exit $status, expected 1; a 'not ok N API impl ($rule)' line: $hit" \
			"failures seen: $(grep -E "$(line 'not ok' '[^ ]+')" "$out" | head -n 5 | tr '\n' ';')" \
			"stderr: $(head -c 300 "$out.err")"
	fi
done

# The node off by one is against sysfs too (LTP's getcpu01 reads it):
# where sysfs names no node the rule is a SKIP, never a pass.
desc="getcpu's node is checked against sysfs's cpuN/nodeM"
out=$TMP/bug-getcpu-node.ktap
if [ -n "$why" ]; then
	skip "$desc" "$why"
elif ! ls -d /sys/devices/system/cpu/cpu0/node[0-9]* >/dev/null 2>&1; then
	if grep -Eq "$(line 'ok' 'sysfs-node')# SKIP" "$out"; then
		ok "$desc (a SKIP: sysfs names no node here)"
	else
		not_ok "$desc" "sysfs names no node here, yet no SKIP:" "$(grep sysfs-node "$out")"
	fi
elif grep -Eq "$(line 'not ok' 'sysfs-node')" "$out"; then
	ok "$desc"
else
	not_ok "$desc" "no 'not ok N getcpu impl sysfs-node' in $out:" "$(grep sysfs-node "$out")"
fi

# A tv_nsec of -5 is reported as the two fields, never as a time such as
# "20109.-00000005" that a reader could take for a valid one.
desc="a negative tv_nsec is shown as its fields"
out=$TMP/bug-nsec-negative.ktap
if [ -n "$why" ]; then
	skip "$desc" "$why"
elif grep -Eq '^# clock 1: impl read tv_sec [0-9]+ tv_nsec -5 \(tv_nsec out of range\)' "$out" &&
	! grep -Eq '[0-9]\.-[0-9]' "$out"; then
	ok "$desc"
else
	not_ok "$desc" "no '# clock 1: impl read tv_sec N tv_nsec -5 (tv_nsec out of range)', or a 'N.-N' in $out:" \
		"$(grep -E 'normalized|\.-' "$out" | head -n 4)"
fi

desc="$caught of $total planted bugs caught by their rule"
if [ -n "$why" ]; then
	skip "$total planted bugs caught by their rule" "$why"
elif [ "$total" -gt 0 ] && [ "$caught" = "$total" ]; then
	ok "$desc"
else
	not_ok "$desc"
fi

# A relation none of whose reads succeeded compared nothing: it says so
# in a SKIP, never a pass (bug-tai-einval refuses CLOCK_TAI).
desc="a relation that compared nothing is no pass"
if [ -n "$why" ]; then
	skip "$desc" "$why"
else
	verify "$TMP/tai.ktap" "$IMPL/bug-tai-einval.so" 0.3 --rules tai-offset clock_gettime
	contains "$desc" "$TMP/tai.ktap" \
		'^ok [0-9]+ clock-gettime-tai impl tai-offset # SKIP not compared: every round had a read through impl that failed$'
fi

# The pass-through: the run may not exit non-zero or report a failure,
# and must show results that are not all SKIPs, so that silence is no
# pass. make soak runs it 20 times over, for a failure by chance.
desc="passthrough passes a run"
so=$IMPL/passthrough.so
if [ -n "$why" ]; then
	skip "$desc" "$why"
elif [ ! -f "$so" ]; then
	not_ok "$desc" "$so is not built (make check-build)"
else
	out=$TMP/passthrough.ktap
	verify "$out" "$so" 0.2
	status=$?
	if [ "$status" = 0 ] && ! grep -q 'not ok' "$out" &&
	   grep -E "$(line ok '[^ ]+')" "$out" | grep -vq '# *SKIP'; then
		ok "$desc"
	else
		not_ok "$desc" "$VK verify --impl $so --paths impl -d 0.2 --format ktap" \
			"exit $status, expected 0, with 'ok N API impl RULE' lines (not all SKIP) and no 'not ok'" \
			"failures seen: $(grep 'not ok' "$out" | head -n 5 | tr '\n' ';')" \
			"stderr: $(head -c 300 "$out.err")"
	fi
fi

# The torn read goes back a whole second only in a call that spans a
# second boundary, which second-edge makes happen: on MONOTONIC and
# through gettimeofday, as on REALTIME in the table; the failure says
# where and by how much it went back. The pass-through's second-edge runs
# on every clock and passes, or SKIPs with what it held where the machine
# was too slow to hold its readers in time.
so=$IMPL/bug-torn-second.so
for api in clock-gettime-monotonic gettimeofday; do
	desc="second-edge catches a torn read on $api"
	out=$TMP/torn-$api.ktap
	if [ -n "$why" ]; then
		skip "$desc" "$why"
		continue
	fi
	verify "$out" "$so" 0.1 --rules second-edge "$api"
	status=$?
	if [ "$status" = 1 ] && grep -A1 -E "^not ok [0-9]+ $api impl second-edge$" "$out" |
	   grep -Eq '^# at a second boundary, CPU [0-9]+: impl read [0-9]+\.[0-9]{9} s after [0-9]+\.[0-9]{9} s: [0-9]+ ns back'; then
		ok "$desc"
	else
		not_ok "$desc" "command: $VK verify --impl $so --paths impl -d 0.1 --format ktap --rules second-edge $api" \
			"exit $status, expected 1, and 'not ok N $api impl second-edge' with '# at a second boundary, CPU N: impl read ... ns back'" \
			"$(grep -A1 second-edge "$out" | tr '\n' ';')"
	fi
done
desc="second-edge reads the pass-through across its clocks' boundaries"
if [ -n "$why" ]; then
	skip "$desc" "$why"
else
	n=$(grep -Ec "^ok [0-9]+ [^ ]+ impl second-edge( # SKIP held [0-9]+ calls inside across [0-9]+ second boundaries in|$)" "$TMP/passthrough.ktap")
	if [ "$n" -ge 9 ]; then
		ok "$desc ($n APIs)"
	else
		not_ok "$desc" "$n 'ok N API impl second-edge' lines in $TMP/passthrough.ktap, expected 9 or more (each clock, gettimeofday, time)" \
			"$(grep second-edge "$TMP/passthrough.ktap" | head -n 4)"
	fi
fi

# The threads rule says what it could detect, passed or skipped: the
# tightest hand-off between its threads (or that a pair never handed off).
desc="the threads rule's result carries the tightest hand-off"
so=$IMPL/passthrough.so
figure='cross-CPU: (the tightest hand-off was [0-9.]+ us|thread [0-9]+ never read right after)'
if [ -n "$why" ]; then
	skip "$desc" "$why"
else
	out=$TMP/threads.ktap
	verify "$out" "$so" 0.2 --rules threads clock-gettime-monotonic
	check "$desc (ktap)" sh -c "grep -A1 -E '^(not )?ok [0-9]+ clock-gettime-monotonic impl threads' '$out' | grep -Eq '$figure'"
	expect_status 0 "verify --format text --verbose of the passthrough exits 0" "$VK" verify --impl "$so" --paths impl -d 0.2 --verbose --rules threads clock-gettime-monotonic
	contains "$desc (text --verbose)" "$TMP/out" "^  clock-gettime-monotonic impl threads: $figure"
fi

# The text report without --verbose keeps all of a failure: the values
# the planted step back broke the rule with, and how often it broke.
desc="the text report shows a failure in full"
so=$IMPL/bug-mono-stepback.so
if [ -n "$why" ]; then
	skip "$desc" "$why"
else
	expect_status 1 "verify of bug-mono-stepback exits 1" "$VK" verify --impl "$so" --paths impl -d 0.2 --rules clock clock-gettime-monotonic
	contains "$desc" "$TMP/out" \
		'^  clock-gettime-monotonic impl (ordered: clock 1: syscall [0-9]+\.[0-9]{9}, then impl [0-9]+\.[0-9]{9}, then syscall [0-9]+\.[0-9]{9}|monotonic: clock 1: impl read [0-9]+ ns after [0-9]+ ns: [0-9]+ ns back)( \(broken [0-9]+ times in [0-9]+ calls\))?$'
	contains "$desc, under Failures" "$TMP/out" '^Failures:$'
fi

# A coarse clock that moves once by part of a tick, as the kernel's does
# when it changes clocksource, is noted, not failed (the kernel promises
# no whole ticks); tests/unit/coarse_step.c has the rule's other cases.
desc="coarse-step notes part of a tick and passes"
so=$IMPL/coarse-part-tick.so
if [ -n "$why" ]; then
	skip "$desc" "$why"
elif [ ! -f "$so" ]; then
	not_ok "$desc" "$so is not built (make check-build)"
else
	out=$TMP/part.ktap
	verify "$out" "$so" 0.2 --rules clock clock-getres-monotonic-coarse
	status=$?
	if [ "$status" = 0 ] && grep -A1 -E '^ok [0-9]+ clock-getres-monotonic-coarse impl coarse-step$' "$out" |
	   grep -Eq '^# note: clock 6 advanced by [0-9]+ ns, not a whole number of its [0-9]+ ns resolution \(1 of'; then
		ok "$desc"
	else
		not_ok "$desc" "command: $VK verify --impl $so --paths impl -d 0.2 --format ktap --rules clock clock-getres-monotonic-coarse" \
			"exit $status, expected 0, and 'ok N ... coarse-step' followed by '# note: clock 6 advanced by ...'" \
			"$(grep -A1 coarse-step "$out" | tr '\n' ';')"
	fi
	expect_status 0 "verify --format text of it exits 0" "$VK" verify --impl "$so" --paths impl -d 0.2 --rules clock clock-getres-monotonic-coarse
	contains "and its text report notes the step" "$TMP/out" \
		'^  clock-getres-monotonic-coarse impl coarse-step: note: clock 6 advanced by [0-9]+ ns, not a whole number'
fi

# The failure limit cuts only the repeats of a failing API. A planted bug
# that breaks dozens of clock ids (far past --max-fails) must leave every
# other function checked to the end; and a clock that keeps breaking has
# its repeats cut, which the report says.
desc="--max-fails never stops the other APIs"
so=$IMPL/bug-invalid-success.so
if [ -n "$why" ]; then
	skip "$desc" "$why"
else
	out=$TMP/limit.ktap
	verify "$out" "$so" 0.1 --max-fails 2
	fails=$(grep -c '^not ok ' "$out")
	missing=
	for fn in gettimeofday time getcpu getrandom; do
		grep -Eq "^ok [0-9]+ $fn impl " "$out" || missing="$missing $fn"
	done
	if [ "$fails" -gt 2 ] && [ -z "$missing" ]; then
		ok "$desc ($fails failures, every function checked)"
	else
		not_ok "$desc" "$VK verify --impl $so --paths impl -d 0.1 --max-fails 2 --format ktap" \
			"$fails failures (want more than 2); functions not checked:${missing:- none}"
	fi
	out=$TMP/cut.ktap
	verify "$out" "$IMPL/bug-nsec-overflow.so" 0.2 --max-fails 2 --rules clock clock-gettime-monotonic
	contains "--max-fails cuts the repeats of a clock that keeps breaking" "$out" \
		'^# checks whose repeats --max-fails cut short: 1$'
fi

# Whether --max-fails cut a run short does not hang on when its deadline
# fell: a run of a microsecond reaches the limit in its first round as a
# long one does, and both checks of the loop (time-pointer, the one that
# fails, and coarse-seconds) are cut.
if [ -f "$O/tests/impl/bug-time-pointer.so" ]; then
	for d in 0.000001 10; do
		"$VK" verify --impl "$O/tests/impl/bug-time-pointer.so" --paths impl -d $d --max-fails 1 --rules time time >"$TMP/cut" 2>&1
		contains "-d $d --max-fails 1: both checks of the time loop say they were cut short" "$TMP/cut" \
			'^Checks whose repeats --max-fails cut short: 2\.$'
	done
fi

# The mlockall rule: a first call after mlockall() that faults is named,
# with its count; Linux 7.3 promises none (c27e727c9a60), so from 7.3 on
# it fails and before it is a SKIP that says so (tests/unit/mlock_judge.c
# has the release switch). The pass-through reads no vDSO data: no fault.
# Where mlockall() is refused (non-root, a small RLIMIT_MEMLOCK), both
# are a SKIP that says so, never a pass.
desc="mlockall: a first call that faults is named"
so=$IMPL/mlock-fault.so
if [ -n "$why" ]; then
	skip "$desc" "$why"
elif [ ! -f "$so" ]; then
	not_ok "$desc" "$so is not built (make check-build)"
else
	out=$TMP/mlock.ktap
	verify "$out" "$so" 0.05 --rules mlockall clock-gettime-monotonic
	status=$?
	fault='[1-9][0-9]* page faults? in the first call after mlockall\(MCL_CURRENT\|MCL_FUTURE\)'
	if grep -Eq '^ok [0-9]+ clock-gettime-monotonic impl mlockall # SKIP not tested: mlockall.* was refused' "$out"; then
		skip "$desc" "mlockall() is refused here: $(grep -m1 ' mlockall # SKIP' "$out")"
	elif kernel_before 7 3; then
		check "$desc (before 7.3: a SKIP with the count)" grep -Eq \
			"^ok [0-9]+ clock-gettime-monotonic impl mlockall # SKIP $fault; a note: kernels before 7.3" "$out"
	else
		check "$desc (7.3 and later: a failure)" grep -Eq "^# $fault: Linux 7.3" "$out"
		check "and verify exits 1" test "$status" = 1
	fi
	out=$TMP/mlock-pass.ktap
	verify "$out" "$IMPL/passthrough.so" 0.05 --rules mlockall,signal-call,signal-unwind clock-gettime-monotonic
	if grep -q ' mlockall # SKIP not tested: mlockall' "$out"; then
		skip "mlockall: the pass-through passes" "mlockall() is refused here"
	else
		contains "mlockall: the pass-through passes" "$out" '^ok [0-9]+ clock-gettime-monotonic impl mlockall$'
	fi
fi

# Signals inside a call (issue 49): a lock held across clock_gettime
# deadlocks when a signal handler calls it again, which the watchdog
# names; assembly whose FDE misdescribes its stack fails signal-unwind,
# and assembly with no FDE at all is a SKIP that names it (no kernel
# promises unwind information everywhere). The pass-through passes both,
# with every signal counted inside the call. A build without the unwinder
# says so.
sig_out() { verify "$TMP/$1.ktap" "$IMPL/$1.so" 0.05 --rules signal-call,signal-unwind clock-gettime-monotonic; echo $?; }
if [ -n "$why" ]; then
	skip "signals: the planted deadlock and wrong unwind information are caught" "$why"
elif grep -q 'links no unwinder' "$TMP/mlock-pass.ktap"; then
	skip "signals: the planted deadlock and wrong unwind information are caught" \
		"this build links no unwinder: $(grep -m1 'signal-unwind # SKIP' "$TMP/mlock-pass.ktap")"
else
	status=$(sig_out sig-lock)
	contains "signals: a lock held across the call is a named deadlock" "$TMP/sig-lock.ktap" \
		'^not ok [0-9]+ clock-gettime-monotonic impl signal-call$'
	contains "and says so" "$TMP/sig-lock.ktap" \
		'^# called from a signal handler that interrupted it, it never returned: a deadlock'
	check "and verify exits 1" test "$status" = 1
	case $(uname -m) in
	x86_64 | i?86)
		status=$(sig_out sig-bad-cfi)
		contains "signals: unwind information that misdescribes the stack fails" "$TMP/sig-bad-cfi.ktap" \
			'^not ok [0-9]+ clock-gettime-monotonic impl signal-unwind$'
		contains "and says where it led" "$TMP/sig-bad-cfi.ktap" \
			'^# unwinding from [^ ]+ reached 0, which is no code, from __vdso_clock_gettime\+0x[0-9a-f]+: the unwind information there is wrong'
		check "and verify exits 1" test "$status" = 1
		status=$(sig_out sig-no-unwind)
		# The first stop named: its function, or (i386) the PLT stub it
		# calls through, which has no FDE either.
		contains "signals: a function without unwind information is a SKIP that names it" \
			"$TMP/sig-no-unwind.ktap" \
			'^ok [0-9]+ clock-gettime-monotonic impl signal-unwind # SKIP not tested: no unwind information covers (__vdso_clock_gettime|sig-no-unwind\.so)\+0x[0-9a-f]+'
		check "and verify exits 0" test "$status" = 0
		;;
	*)
		skip "signals: wrong and missing unwind information" "the plants are x86 assembly" ;;
	esac
	out=$TMP/mlock-pass.ktap
	contains "signals: the pass-through's calls from a handler pass" "$out" \
		'^ok [0-9]+ clock-gettime-monotonic impl signal-call$'
	contains "signals: and unwind from each signal inside the call" "$out" \
		'^ok [0-9]+ clock-gettime-monotonic impl signal-unwind$'
fi
