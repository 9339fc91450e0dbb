# verify on this machine's vDSO: the report's form, options and timing.
# Whether the host's vDSO is free of bugs is not asserted here: what verify
# finds on the host is reported as a finding. The proof that verify
# catches bugs is tests/cases/verify_impl.sh, with planted ones.
# serial: its threads rule needs its threads to run at once, on two
# CPUs that a neighbour would take.
. "$TOP/tests/lib.sh"

start=$(date +%s%N)
"$VK" verify --max-fails 0 --format ktap >"$TMP/ktap" 2>"$TMP/err"
status=$?
elapsed=$((($(date +%s%N) - start) / 1000000))
if [ $status -eq 0 ] || [ $status -eq 1 ]; then ok "verify over all APIs exits 0 or 1 ($status)"; else not_ok "verify over all APIs exits 0 or 1" "exit $status" "$(head -c 300 "$TMP/err")"; fi
# A figure, not a check: a loaded machine stretches the wall clock.
echo "# verify with defaults: ${elapsed} ms"
check "the report starts with a KTAP version line" test "$(head -n 1 "$TMP/ktap")" = "KTAP version 1"
plan=$(grep -E '^1\.\.[0-9]+$' "$TMP/ktap" | cut -d. -f3)
results=$(grep -cE '^(not )?ok [0-9]+ ' "$TMP/ktap")
if [ -n "$plan" ] && [ "$plan" = "$results" ]; then ok "the plan (1..$plan) counts the results"; else not_ok "the plan counts the results" "plan ${plan:-none}, results $results"; fi
bad=$(grep -vE '^(KTAP version 1|1\.\.[0-9]+|# .*|(not )?ok [0-9]+ [A-Za-z0-9:_-]+ (vdso|libc|syscall|impl) [a-z-]+( # SKIP .+)?)$' "$TMP/ktap" | head -n 3)
if [ -z "$bad" ]; then ok "every line follows the KTAP grammar"; else not_ok "every line follows the KTAP grammar" "$bad"; fi
contains "the report ends with the totals" "$TMP/ktap" '^# Totals: pass:[0-9]+ fail:[0-9]+ xfail:0 xpass:0 skip:[0-9]+ error:0$'
if [ $status -eq 1 ]; then
	contains "a failing run says what failed" "$TMP/ktap" '^not ok '
else
	check "a passing run has no failed result" sh -c "! grep -q '^not ok ' '$TMP/ktap'"
fi
# Each API has results on each path, or one SKIP of its function with
# the reason (a 32-bit vDSO has no getrandom; libc's clock calls are the
# time64 ones when time_t is 64-bit).
for api in clock-gettime-monotonic:clock_gettime clock-getres-realtime:clock_getres \
	   gettimeofday:gettimeofday time:time getcpu:getcpu getrandom:getrandom; do
	fn=${api#*:} api=${api%:*}
	for path in vdso libc; do
		contains "$api is checked on the $path path, or skipped with a reason" "$TMP/ktap" \
			"^((not )?ok [0-9]+ $api $path |ok [0-9]+ $fn $path all # SKIP .)"
	done
done
for id in id:15 id:-1 cpu:self fd:closed id:INT_MIN id:INT_MAX; do
	contains "clock_gettime is checked for clock $id" "$TMP/ktap" "^(not )?ok [0-9]+ clock-gettime-$id vdso errno"
done
contains "the threads rule runs" "$TMP/ktap" '^(not )?ok [0-9]+ clock-gettime-monotonic vdso threads( # SKIP .+)?$'
# The ordered rule says what it could detect: its tightest bracket.
check "the ordered rule says its tightest bracket" sh -c \
	"grep -A1 -E '^ok [0-9]+ clock-gettime-monotonic vdso ordered( # SKIP .+)?$' '$TMP/ktap' | grep -Eq 'the tightest bracket was [0-9]+ ns: an error (over that was|under that was not) tested$'"
# The text report says what failed and what was not tested; what the
# passing checks could see is one line, each check's with --verbose.
passing_bounds "verify" verify -d 0.2 --paths vdso,libc clock-gettime-monotonic-coarse clock-gettime-monotonic

expect_status 0 "verify of one API runs only it" "$VK" verify -d 0.1 --format ktap clock-gettime-id:1 --paths vdso
check "the one API is the only one reported" sh -c "! grep -E '^(not )?ok' '$TMP/out' | grep -v ' clock-gettime-id:1 '"
expect_status 0 "verify --format json exits as the text report does" "$VK" verify -d 0.05 --format json time
if need python3; then
	check "verify's JSON parses and counts its results" python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); t=d["totals"]; assert t["pass"]+t["fail"]+t["skip"]==len(d["results"])>0' "$TMP/out"
else
	skip "verify's JSON parses" "python3 is not installed"
fi
for d in 0 -1 junk 1x inf nan; do
	expect_status 2 "-d $d is a usage error" "$VK" verify -d "$d"
done
expect_status 2 "an unknown API is a usage error" "$VK" verify no-such-api
contains "the unknown API is named" "$TMP/err" "unknown API 'no-such-api'"
expect_status 2 "an unknown path is a usage error" "$VK" verify --paths vdso,bogus
expect_status 2 "the impl path needs --impl" "$VK" verify --paths impl
expect_status 2 "a missing --impl library is an input error" "$VK" verify --impl ./no-such-lib.so
expect_status 2 "--impl wants a path, not a bare name" "$VK" verify --impl libc.so.6
expect_status 2 "--threads 0 is a usage error" "$VK" verify --threads 0
expect_status 2 "--max-fails -1 is a usage error" "$VK" verify --max-fails -1
if ! need make; then
	skip "--impl in a static build is refused" "make is not installed: no static build here"
elif variant "$(static_dir)" STATIC=1; then
	expect_status 2 "--impl in a static build is refused" "$O/$(static_dir)/vdsokit" verify --impl /dev/null
	contains "the static build says why" "$TMP/err" 'unavailable in a static build'
else
	not_ok "--impl in a static build is refused" "the static build failed: $(tail -n 3 "$TMP/variant-$(static_dir | tr / -).log")"
fi

# Every API name a result carries is one verify takes back: the
# reproduce lines of findings name them (clock-getres-id:INT_MAX, ...).
"$VK" verify -d 0.001 --paths syscall --format json clock_gettime clock_getres 2>/dev/null |
	grep -o '"api": *"[^"]*"' | sed 's/.*"\([^"]*\)"$/\1/' | sort -u >"$TMP/names"
refused=
while read -r api; do
	"$VK" verify -d 0.001 --paths syscall --rules errno "$api" >/dev/null 2>&1
	[ $? = 2 ] && refused="$refused $api"
done <"$TMP/names"
if [ "$(wc -l <"$TMP/names")" -ge 70 ] && [ -z "$refused" ]; then
	ok "verify takes back every API name its results give ($(wc -l <"$TMP/names"))"
else
	not_ok "verify takes back every API name its results give" "of $(wc -l <"$TMP/names"), refused:$refused"
fi

# A check vdsokit's own error kept from running is neither a pass, nor a
# SKIP ('not applicable here'), nor the kernel's failure: it is vdsokit's
# error, named, and verify exits 3 (issue 47). LD_PRELOAD makes
# pthread_create() or sched_getaffinity() fail; getcpu's is libc's where
# this vDSO lacks it.
cpu_path=vdso paths=vdso
vdso_exports getcpu || cpu_path=libc paths=vdso,libc
for p in no-threads:'clock-gettime-monotonic vdso threads: not tested: vdsokit could not start a second thread' \
	 no-affinity:"getcpu $cpu_path cpu: not tested: vdsokit's sched_getaffinity\(\) failed"; do
	so=$O/tests/impl/preload-${p%%:*}.so
	desc="a check that vdsokit's own error kept from running is its error, exit 3 (${p%%:*})"
	why=$(preload_why "$so")
	if [ -n "$why" ]; then
		skip "$desc" "$why"
		continue
	fi
	expect_status 3 "$desc" env LD_PRELOAD="$so" "$VK" verify -d 0.05 --paths $paths \
		--rules threads,cpu clock-gettime-monotonic getcpu
	contains "and names what it could not do (${p%%:*})" "$TMP/out" "^  ${p#*:}"
	contains "under vdsokit's own errors, not the failures (${p%%:*})" "$TMP/out" \
		"^Not tested, vdsokit's own error \\(not the kernel's\\):\$"
done

# The mlockall rule runs in a vdsokit exec()ed afresh, on each function
# and path that reads the vDSO's data. Where mlockall() is refused it
# tested nothing: a SKIP that says so, never a pass.
contains "the mlockall rule runs on the vdso path" "$TMP/ktap" \
	'^(not )?ok [0-9]+ clock_gettime vdso mlockall( # SKIP .+)?$'
check "and not on the syscall path, which reads no vDSO data" sh -c \
	"! \"$VK\" verify -d 0.01 --paths syscall --format ktap --rules mlockall time | grep -q mlockall"
if [ "$(id -u)" = 0 ] && need setpriv; then
	(ulimit -l 0 && setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
		"$VK" verify -d 0.01 --paths vdso --format ktap --rules mlockall time) >"$TMP/mlock" 2>&1
	contains "a refused mlockall() is a SKIP that says so" "$TMP/mlock" \
		'^ok [0-9]+ time vdso mlockall # SKIP not tested: mlockall\(MCL_CURRENT\|MCL_FUTURE\) was refused \(Operation not permitted\)'
else
	skip "a refused mlockall() is a SKIP that says so" "not root, or no setpriv to drop privileges with"
fi

# The vvar-pages rule reads the process's [vvar] once, under clock_gettime
# on the vdso path: a pass, or where a page raised SIGBUS a failure from
# 7.3 on and a SKIP naming the pages before (tests/unit/vvar_judge.c
# plants both).
n=$(grep -cE '^(not )?ok [0-9]+ [a-z_0-9-]+ [a-z]+ vvar-pages( # SKIP .+)?$' "$TMP/ktap")
check "the vvar-pages rule runs once ($n)" test "$n" = 1
contains "on clock_gettime's vdso path, passing or naming the pages that raised SIGBUS" "$TMP/ktap" \
	'^(ok [0-9]+ clock_gettime vdso vvar-pages|(not )?ok [0-9]+ clock_gettime vdso vvar-pages( # SKIP)? pages? [0-9, ]+ of [0-9]+ in \[vvar\] raised SIGBUS.*43648f9f3a67.*)$'

# The signals rules run on each function and path but the syscall's; a
# SKIP says why (no unwinder in this build, too few signals inside).
for rule in signal-call signal-unwind; do
	contains "the $rule rule runs on the vdso path" "$TMP/ktap" \
		"^(not )?ok [0-9]+ clock_gettime vdso $rule( # SKIP .+)?\$"
done
check "and not on the syscall path" sh -c \
	"! \"$VK\" verify -d 0.01 --paths syscall --format ktap --rules signal-call,signal-unwind time | grep -q signal-"
# The kernel's vDSO passes both, or signal-unwind is a SKIP naming the
# code that has no unwind information (arm64's vDSO has no .eh_frame, the
# i386 compat vDSO before Linux 7.0 no FDE for its C functions: doc/skips.md).
"$VK" verify -d 0.05 --paths vdso --format ktap --rules signal-call,signal-unwind \
	clock-gettime-monotonic time >"$TMP/sig" 2>&1
check "the vDSO's clock_gettime and time pass the signal rules, or skip them" sh -c "! grep -A1 -E '^not ok [0-9]+ [^ ]+ vdso signal-' '$TMP/sig'"
grep -A1 -E '^not ok |vdso signal-unwind # SKIP' "$TMP/sig" | sed 's/^/#   /'
