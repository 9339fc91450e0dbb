# vdsokit as vdsotest, judged as the farms judge vdsotest: their parsing
# applied to the real output of their commands.
. "$TOP/tests/lib.sh"

B="$TMP/bin"
mkdir -p "$B"
for l in vdsotest vdsotest-all vdsotest-bench; do ln -s "$VK" "$B/$l"; done
impl="$O/tests/impl"
REF="$TOP/tests/vdsotest-ref"

# Linaro test-definitions' automated/linux/vdsotest/vdsotest.sh, which
# LKFT, tuxrun and lava-test-plans run, parses the output (stdout and
# stderr, 2>&1) so: "(", ")", ":" and "," become spaces; a line with OK,
# FAIL or SKIP anywhere in it is a pass, fail or skip named by its
# fields but the last, joined with "-"; a line with nsec/call is a
# measurement named FIELD1-FIELD2, its value FIELD3 and units FIELD4.
farm_results() {
	local w blank
	blank=$(tr '():,' '    ' <"$1")
	for w in OK:pass FAIL:fail SKIP:skip; do
		printf '%s\n' "$blank" | grep -e "${w%%:*}" |
			awk -v r="${w#*:}" '{ n = $1; for (i = 2; i < NF; i++) n = n "-" $i; print n, r }'
	done
}
farm_metrics() {
	tr '():,' '    ' <"$1" | grep -e nsec/call | awk '{ print $1 "-" $2, "pass", $3, $4 }'
}
# only_results FILE: every line with OK, FAIL, SKIP or nsec/call is a
# result line of vdsotest's grammar, so that the farm records nothing else.
only_results() {
	test "$(grep -E 'OK|FAIL|SKIP|nsec/call' "$1" |
		grep -cvE '^.{70} (OK|FAIL|SKIP)$|^[a-z0-9-]+: +(syscall|libc|vdso|impl): ([0-9]+ nsec/call|SKIP)$')" = 0
}

# repeated RESULTS: the names that occur more than once.
repeated() { cut -d' ' -f1 "$1" | sort | uniq -d; }
# per_clock RESULTS: vdsotest's clock abi names occur once per clock of its seven.
per_clock() {
	test "$(cut -d' ' -f1 "$1" | grep -E '^passing-' | sort | uniq -c | awk '$1 != 7' | grep -c .)" = 0
}

# The command line: options after the arguments, "-d 10" as one word.
api=clock-gettime-monotonic
expect_status 0 "vdsotest \"-d 0.1\" API verify -g -v (Linaro's form)" "$B/vdsotest" "-d 0.1" $api verify -g -v
contains "prints a result line" "$TMP/out" "^$api verify ordered \\(vdso\\) +OK\$"
expect_status 0 "vdsotest API bench --duration=0.02 -gv" "$B/vdsotest" $api bench --duration=0.02 -gv
expect_status 0 "vdsotest -d0.02 -f 3 API bench" "$B/vdsotest" -d0.02 -f 3 $api bench
expect_status 0 "vdsotest -- API abi" "$B/vdsotest" -- $api abi
check "prints nothing without -v, as vdsotest" test ! -s "$TMP/out"
# vdsotest-ref: what the real vdsotest printed (tests/vdsotest-ref/README.md).
expect_status 0 "vdsotest list-test-types" "$B/vdsotest" list-test-types
check "is vdsotest's, byte for byte" cmp "$TMP/out" "$REF/list-test-types.out"
expect_status 0 "vdsokit list-test-types, too" "$VK" list-test-types
for h in vdsotest vdsotest-all vdsotest-bench; do
	expect_status 0 "$h --help" "$B/$h" --help
	check "has no word a farm would take for a result" test "$(grep -cE 'OK|FAIL|SKIP|nsec/call' "$TMP/out")" = 0
done
expect_status 0 "vdsotest list-apis" "$B/vdsotest" list-apis
check "is vdsotest's, byte for byte" cmp "$REF/list-apis.out" "$TMP/out"
# vdsotest-all runs those, then the API table's others that call into
# libc too (the futex unlocks have no libc function nor syscall: abi alone
# checks them, and list-apis shows "-").
"$VK" list-apis | awk 'NR == 1 { next } NF == 0 { exit } $5 != "-" { print $1 }' >"$TMP/table"
expect_status 0 "vdsokit \"-d 0.1\" API verify: vdsotest's line through vdsokit" "$VK" "-d 0.1" $api verify
for bad in "" "--bogus" "-d 0 $api bench" "-d x $api bench" "-f -1 $api verify" "--bogus $api abi" \
	   "-d" "$api" "$api abi extra" "list-apis extra" "--debug=1 $api abi"; do
	# shellcheck disable=SC2086
	expect_status "$(cat "$REF/no-arguments.status")" "vdsotest $bad is a usage error, as vdsotest's" \
		"$B/vdsotest" $bad
	contains "saying why, or the usage, as argp" "$TMP/err" "^(vdsotest: .+|Usage: vdsotest )"
done
# argp's words, which vdsotest's usage errors are in.
for c in no-arguments: bad-option:--bogus; do
	# shellcheck disable=SC2086
	expect_status "$(cat "$REF/${c%%:*}.status")" "vdsotest ${c#*:}: vdsotest's status" \
		env PATH="$B:$PATH" vdsotest ${c#*:}
	check "and its message, byte for byte" cmp "$TMP/err" "$REF/${c%%:*}.err"
done
expect_status 0 "vdsotest --usage" env PATH="$B:$PATH" vdsotest --usage
check "is argp's short usage" test "$(head -c 23 "$TMP/out")" = "$(head -c 23 "$REF/usage.out")"
# On PATH, as the record was made, so that argv[0] is the bare name.
for c in unknown-api:"nope abi" unknown-test-type:"$api frob"; do
	# shellcheck disable=SC2086
	expect_status "$(cat "$REF/${c%%:*}.status")" "vdsotest ${c#*:}: vdsotest's status" \
		env PATH="$B:$PATH" vdsotest ${c#*:}
	check "and its message" cmp "$TMP/err" "$REF/${c%%:*}.err"
done
expect_status 64 "vdsotest-all takes no argument" "$B/vdsotest-all" $api
expect_status 64 "vdsotest-all refuses -d 0 once, up front" "$B/vdsotest-all" -d 0
check "with one message" test "$(grep -c . "$TMP/err")" = 2

# vdsotest's abi lines, byte for byte: description, padded to 70, outcome.
# $1: the test's stdout; the rest: the descriptions it must print.
same_descriptions() {
	local out=$1
	shift
	printf '%s\n' "$@" | LC_ALL=C sort >"$TMP/want"
	grep -E '^(passing |getcpu\(|gettimeofday\()' "$out" | sed -E 's/ (OK|FAIL|SKIP)$//' |
		sed -E 's/ +$//' | LC_ALL=C sort >"$TMP/got"
	cmp -s "$TMP/want" "$TMP/got"
}
for fn in gettime getres; do
	descs=()
	for path in syscall VDSO; do
		for what in NULL UINTPTR_MAX "PROT_NONE page" "PROT_READ page" "bogus clock id" \
			    "bogus clock id and NULL"; do
			descs+=("passing $what to clock_$fn ($path)")
		done
	done
	expect_status 0 "vdsotest clock-$fn-tai abi" "$B/vdsotest" clock-$fn-tai abi -g -v
	check "has vdsotest's 12 clock_$fn descriptions" same_descriptions "$TMP/out" "${descs[@]}"
	check "each padded to 70 columns, then its outcome" test "$(grep -E '^passing ' "$TMP/out" |
		awk '{ d = $0; if (sub(/ (OK|FAIL|SKIP)$/, "", d) && length(d) == 70) n++ } END { print n }')" = 12
done
kinds=(valid NULL UINTPTR_MAX "page (PROT_NONE)" "page (PROT_READ)")
descs=()
for a in "${kinds[@]}"; do for b in "${kinds[@]}"; do for p in syscall VDSO; do
	descs+=("gettimeofday($a, $b) ($p)")
done; done; done
expect_status 0 "vdsotest gettimeofday abi" "$B/vdsotest" gettimeofday abi -v
check "has vdsotest's 50 gettimeofday descriptions" same_descriptions "$TMP/out" "${descs[@]}"
descs=()
for a in "${kinds[@]}"; do for b in "${kinds[@]}"; do for c in "${kinds[@]}"; do for p in syscall VDSO; do
	descs+=("getcpu($a, $b, $c) ($p)")
done; done; done; done
expect_status 0 "vdsotest getcpu abi" "$B/vdsotest" getcpu abi -v
check "has vdsotest's 250 getcpu descriptions" same_descriptions "$TMP/out" "${descs[@]}"
farm_results "$TMP/out" >"$TMP/res"
contains "which the farm names as vdsotest's were" "$TMP/res" '^getcpu-page-PROT_NONE-NULL-valid-syscall pass$'

# Every API's abi -g -v: vdsotest's lines byte for byte and in its order
# (getcpu's and gettimeofday's alternate syscall and VDSO), then vdsokit's.
for f in "$REF"/abi-*.out; do
	a=${f##*/abi-}
	a=${a%.out}
	expect_status "$(cat "${f%.out}.status")" "vdsotest $a abi -g -v: vdsotest's status" \
		"$B/vdsotest" "$a" abi -g -v
	check "starts with vdsotest's lines, byte for byte" \
		cmp "$f" <(head -n "$(wc -l <"$f")" "$TMP/out")
	check "the rest are vdsokit's own abi results" \
		test "$(tail -n +"$(($(wc -l <"$f") + 1))" "$TMP/out" | grep -cvE "^$a abi [^ ].* (OK|SKIP)\$")" = 0
done

# Stable names: two runs give the same ones (their outcomes may differ: a
# check that could not look closely enough in one run is a SKIP there).
for t in verify abi; do
	"$B/vdsotest" -d 0.05 $api $t -v >"$TMP/a" 2>&1
	"$B/vdsotest" -d 0.05 $api $t -v >"$TMP/b" 2>&1
	check "two runs of $api $t give the same result names" \
		cmp <(farm_results "$TMP/a" | cut -d' ' -f1 | sort) <(farm_results "$TMP/b" | cut -d' ' -f1 | sort)
done

# The whole run as Linaro's script makes it, within tuxrun's 15 minutes.
start=$(date +%s)
timeout 900 "$B/vdsotest-all" -g -v >"$TMP/all" 2>&1
status=$?
echo "# vdsotest-all -g -v took $(($(date +%s) - start)) s, exit $status"
check "vdsotest-all -g -v ends within tuxrun's 15 minutes, exit 0 or 1" test "$status" = 0 -o "$status" = 1
farm_results "$TMP/all" >"$TMP/res"
farm_metrics "$TMP/all" >"$TMP/met"
check "its status is 1 exactly when the farm records a fail" \
	test "$([ "$status" = 1 ] && echo y)" = "$(grep -q ' fail$' "$TMP/res" && echo y)"
check "every line with OK, FAIL, SKIP or nsec/call is a result line" only_results "$TMP/all"
check "every result is 'name pass|fail|skip', the name LAVA-safe" \
	test "$(grep -cvE '^[A-Za-z0-9_.-]+ (pass|fail|skip)$' "$TMP/res")" = 0
check "the only repeated names are vdsotest's own clock abi cases, as in vdsotest" \
	test "$(repeated "$TMP/res" | grep -cvE '^passing-.*-to-clock_get(time|res)-(syscall|VDSO)$')" = 0
check "which repeat once per clock of vdsotest's seven, as vdsotest's do" per_clock "$TMP/res"
contains "vdsotest's abi results are there" "$TMP/res" '^passing-NULL-to-clock_gettime-VDSO (pass|fail)$'
check "the bench figures are measurements or SKIP lines: 3 per API" \
	test "$(($(wc -l <"$TMP/met") + $(grep -cE '^[a-z0-9-]+: +(syscall|libc|vdso): SKIP$' "$TMP/all")))" \
	= "$((3 * $(wc -l <"$TMP/table")))"
check "named API-path, whole nanoseconds per call" \
	test "$(grep -cvE '^[a-z0-9-]+-(syscall|libc|vdso) pass [0-9]+ nsec/call$' "$TMP/met")" = 0
check "each name once" test "$(cut -d' ' -f1 "$TMP/met" | sort | uniq -d | grep -c .)" = 0
contains "as vdsotest's were" "$TMP/met" '^clock-gettime-monotonic-vdso pass [0-9]+ nsec/call$'
# vdsotest's set of result and nsec/call lines, numbers masked, is in vdsokit's.
sed -E 's/[0-9]+/N/g' "$TMP/all" | LC_ALL=C sort -u >"$TMP/all.lines"
check "every result, nsec/call and call count line of vdsotest-all's record is there" \
	test "$(grep -E ' OK$|nsec/call$|calls = N$' "$REF/all.lines" | LC_ALL=C comm -23 - "$TMP/all.lines" |
		grep -c .)" = 0
# vdsotest's -g debug lines, "FUNCTION:LINE: MESSAGE": every message of
# the record's is one of vdsokit's, which names its own function and line.
D="$TMP/vdsotest-debug"
mkdir -p "$D"
messages() { sed -nE 's/^[A-Za-z_N]+:N: //p' "$1" | LC_ALL=C sort -u; }
debug_lines() { grep -hE '^[A-Za-z_]+:[0-9]+: ' "$@"; }
# own_functions FILE: each debug line's function is vdsokit's, not vdsotest's.
own_functions() {
	local fn
	for fn in $(debug_lines "$1" | cut -d: -f1 | sort -u); do
		case $fn in force_migrate | subtimer_set_duration) return 1 ;; esac
		grep -qE "^[a-z].*[ *]$fn\(" "$TOP"/core/*/*.c "$TOP"/commands/*.c || return 1
	done
}
messages "$REF/all.lines" >"$D/ref"
if [ "$(nproc)" -lt 2 ]; then
	sed -i '/^migrating off cpu/d' "$D/ref"
	skip "vdsotest's 'migrating off cpu N'" "one CPU to run on: getcpu verify moves nowhere"
fi
check "every kind of vdsotest's -g debug line in its record is there, by its message" \
	test "$(messages "$TMP/all.lines" | LC_ALL=C comm -13 - "$D/ref" | grep -c .)" = 0
check "each naming a function of vdsokit's" own_functions "$TMP/all"
# As vdsotest's debug(): -g alone (vdsotest's implies -v), on stdout, as
# the run goes, so before the run's results.
expect_status 0 "vdsotest -d 0.2 getcpu verify -g" "$B/vdsotest" -d 0.2 getcpu verify -g
contains "prints the time verify gives each path" "$TMP/out" '^[a-z_]+:[0-9]+: subtimer_ns = 100000000$'
if [ "$(nproc)" -ge 2 ]; then
	contains "each move off a CPU" "$TMP/out" '^[a-z_]+:[0-9]+: migrating off cpu [0-9]+$'
fi
contains "and the return to the CPUs it began with" "$TMP/out" \
	'^[a-z_]+:[0-9]+: resetting cpus_allowed to original$'
check "before the results" awk '/ (OK|FAIL|SKIP)$/ { r = 1 } /^[a-z_]+:[0-9]+: / && r { bad = 1 }
	END { exit bad }' "$TMP/out"
check "none on stderr" test "$(debug_lines "$TMP/err" | grep -c .)" = 0
expect_status 0 "vdsotest -d 0.2 getcpu verify -v" "$B/vdsotest" -d 0.2 getcpu verify -v
check "prints no debug line without -g, as vdsotest" test "$(debug_lines "$TMP/out" "$TMP/err" | grep -c .)" = 0
expect_status 0 "vdsokit verify --format vdsotest getcpu" "$VK" verify -d 0.1 --format vdsotest getcpu
check "vdsokit's own names print none" test "$(debug_lines "$TMP/out" "$TMP/err" | grep -c .)" = 0
expect_status 0 "vdsokit -d 0.1 -g getcpu verify" "$VK" -d 0.1 -g getcpu verify
check "nor does vdsotest's line through vdsokit" test "$(debug_lines "$TMP/out" "$TMP/err" | grep -c .)" = 0
# Under Linaro's parsing, the drop-in's run differs from vdsotest's only by
# the names it adds: every name of vdsotest's is there, with its result,
# so a failure only vdsokit reports is under a name of its own.
farm_results "$REF/all.lines" | LC_ALL=C sort -u >"$TMP/ref.res"
check "every result name of vdsotest's parsed run is there, with its result" \
	test "$(LC_ALL=C sort -u "$TMP/res" | LC_ALL=C comm -13 - "$TMP/ref.res" | grep -c .)" = 0
check "and every measurement name" test "$(farm_metrics "$REF/all.lines" | cut -d' ' -f1 | LC_ALL=C sort -u |
	LC_ALL=C comm -13 <(cut -d' ' -f1 "$TMP/met" | LC_ALL=C sort -u) - | grep -c .)" = 0

# On i386: the time64 APIs too, and a run with nothing to run (the
# kernel's vDSO lacks clock_getres_time64 before Linux 7.0) is no failure.
if ! need_cross i386 "vdsotest-all on i386"; then
	:
elif ! cross_variant i386; then
	not_ok "the i386 build" "$(tail -n 3 "$TMP/variant-cross-i386.log")"
elif ! runs_here "$O/cross/i386/vdsokit"; then
	skip "vdsotest-all on i386" "$NO_I386"
else
	mkdir -p "$TMP/bin32"
	for l in vdsotest vdsotest-all; do ln -s "$O/cross/i386/vdsokit" "$TMP/bin32/$l"; done
	"$TMP/bin32/vdsotest" clock-getres-time64-monotonic verify >/dev/null 2>&1
	one=$?
	"$TMP/bin32/vdsotest-all" -d 0.02 -g -v >"$TMP/all32" 2>&1
	status=$?
	farm_results "$TMP/all32" >"$TMP/res32"
	check "i386: every line with OK, FAIL, SKIP or nsec/call is a result line" only_results "$TMP/all32"
	check "i386: names LAVA-safe, unique but vdsotest's clock abi cases, seven each" \
		test "$(grep -cvE '^[A-Za-z0-9_.-]+ (pass|fail|skip)$' "$TMP/res32")" = 0 -a \
		"$(repeated "$TMP/res32" | grep -cvE '^passing-')" = 0
	check "i386: vdsotest's clock abi names seven times each" per_clock "$TMP/res32"
	contains "i386: the time64 APIs are there" "$TMP/res32" '^clock-gettime64-monotonic-verify-ordered-vdso pass$'
	check "i386: vdsotest-all exits 1 exactly when the farm records a fail (exit $status)" \
		test "$([ "$status" = 1 ] && echo y)" = "$(grep -q ' fail$' "$TMP/res32" && echo y)"
	if [ "$one" = 4 ]; then
		check "i386: a run with nothing to run (exit 4) leaves vdsotest-all's status alone" \
			test "$status" != 4
	else
		skip "i386: a run with nothing to run leaves vdsotest-all's status alone" \
			"this kernel's i386 vDSO has clock_getres_time64 (exit $one)"
	fi
fi

# Planted bugs reach the farm as fails.
if [ ! -f "$impl/abi-wrong-errno.so" ]; then
	skip "planted bugs appear as fails" "no --impl libraries in this build"
	exit 0
fi
expect_status 1 "vdsotest gettimeofday abi -I abi-wrong-errno.so fails" \
	"$B/vdsotest" gettimeofday abi -g -v -I "$impl/abi-wrong-errno.so"
cat "$TMP/out" "$TMP/err" >"$TMP/both"
farm_results "$TMP/both" >"$TMP/res"
contains "the farm records the planted EINVAL as a fail" "$TMP/res" '^gettimeofday-abi-tv-valid-tz-unmapped-impl fail$'
check "the reasons on stderr are no results" only_results "$TMP/both"
check "and nothing else of the bug's" test "$(grep ' fail$' "$TMP/res" | grep -cv -- '-impl fail$')" = 0
expect_status 0 "the correct passthrough.so passes the same cases" \
	"$B/vdsotest" gettimeofday abi -I "$impl/passthrough.so"
"$B/vdsotest" -d 0.6 $api verify -v -I "$impl/bug-mono-stepback.so" >"$TMP/both" 2>&1
farm_results "$TMP/both" >"$TMP/res"
contains "a clock that steps back is a verify fail" "$TMP/res" "^$api-verify-monotonic-impl fail\$"
check "and its reasons are no results" only_results "$TMP/both"
"$B/vdsotest" -d 0.02 $api bench -I "$impl/bug-mono-stepback.so" >"$TMP/both" 2>&1
contains "bench measures the impl path too" "$TMP/both" "^$api:    impl: [0-9]+ nsec/call\$"
farm_metrics "$TMP/both" >"$TMP/met"
contains "which the farm records as a measurement" "$TMP/met" "^$api-impl pass [0-9]+ nsec/call\$"

# vdsotest-all's last run: the table's last API, or vdsotest's last one
# when the table's others are all vdsotest's.
last_api=$(tr -d '\t' <"$REF/list-apis.out" | grep -vxFf - "$TMP/table" | tail -n 1)
[ -n "$last_api" ] || last_api=$(tail -n 1 "$REF/list-apis.out" | tr -d '\t')
"$B/vdsotest" "$last_api" abi -I "$impl/abi-wrong-errno.so" >/dev/null 2>&1
last=$?
expect_status 1 "vdsotest-all with the planted bug exits 1" \
	"$B/vdsotest-all" -d 0.02 -I "$impl/abi-wrong-errno.so"
if [ "$last" = 0 ]; then
	ok "though its last run ($last_api abi) passed: the worst status, not the last"
else
	skip "the worst status, not the last" "its last run ($last_api abi) fails here too (exit $last)"
fi
