# vdsokit's own error (issue 47, part 4): where vdsokit itself cannot do
# what a check needs (a sandbox refuses sched_setaffinity or fork, a
# ulimit leaves it no memory for a thread), the check is neither a pass,
# nor a SKIP (a real absence), nor the kernel's failure: it is vdsokit's
# error, named, in no finding and no reproducer, and the command exits 3
# unless a check really failed. The refusals are seccomp's, as container
# runtimes make them (tests/tools/refuse.c).
. "$TOP/tests/lib.sh"

# absent DESC FILE PATTERN: passes when no line of FILE matches PATTERN (ERE).
absent() {
	if grep -Eq -- "$3" "$2"; then not_ok "$1" "$(grep -E -- "$3" "$2" | head -n 3)"; else ok "$1"; fi
}

REFUSE=$O/tests/tools/refuse

if ! "$REFUSE" sched_setaffinity -- true 2>/dev/null; then
	skip "vdsokit under seccomp refusals" "seccomp filters cannot be installed here"
else
	# getcpu's rules pin vdsokit to each CPU: refused, they compared nothing.
	expect_status 3 "sched_setaffinity refused: verify getcpu exits 3" \
		"$REFUSE" sched_setaffinity -- "$VK" verify -d 0.05 --paths vdso,libc getcpu --format ktap
	contains "its cpu rule is KTAP's ERROR, naming the refused call" "$TMP/out" \
		"^not ok [0-9]+ getcpu (vdso|libc) cpu # ERROR not tested: vdsokit's sched_setaffinity\\(\\) to CPU [0-9]+ failed: Operation not permitted"
	check "and never passes" test "$(grep -cE '^ok [0-9]+ getcpu (vdso|libc) cpu' "$TMP/out")" = 0
	contains "the totals count it as error:, not fail:" "$TMP/out" \
		'^# Totals: pass:[0-9]+ fail:0 xfail:0 xpass:0 skip:[0-9]+ error:[1-9]'

	# bench pins itself too: the CPU is in the set, the call was refused.
	expect_status 3 "sched_setaffinity refused: bench exits 3" \
		"$REFUSE" sched_setaffinity -- "$VK" bench -d 0.02 --processes 1 time
	contains "and says the call was refused" "$TMP/err" \
		"vdsokit's own error: cannot pin itself to CPU [0-9]+: sched_setaffinity\\(\\) failed: Operation not permitted"
	absent "not that the CPU is outside its set" "$TMP/err" "not in this process's CPU set"

	# second-edge signals its readers by timers of their own: refused, it
	# held nothing, which is no pass.
	expect_status 3 "timer_create refused: verify exits 3" \
		"$REFUSE" timer_create -- "$VK" verify -d 0.05 --paths vdso clock-gettime-monotonic --format ktap
	contains "its second-edge is KTAP's ERROR, naming the refused call" "$TMP/out" \
		"^not ok [0-9]+ clock-gettime-monotonic vdso second-edge # ERROR not tested: vdsokit's timer_create\\(\\) failed: Operation not permitted"

	# No fork: nothing is tested, which is no SKIP (exit 4) and no failure.
	nofork=("$REFUSE" clone clone3 fork --)
	expect_status 3 "fork refused: verify exits 3" "${nofork[@]}" "$VK" verify -d 0.05 --format ktap
	check "with no SKIP" test "$(grep -c '# SKIP' "$TMP/out")" = 0
	contains "each check's line is ERROR, naming fork" "$TMP/out" \
		"^not ok 1 [^#]* # ERROR not tested: vdsokit could not fork a child to run the checks in: Operation not permitted"
	expect_status 3 "fork refused: abi exits 3" "${nofork[@]}" "$VK" abi getcpu
	contains "and counts its cases as vdsokit's errors" "$TMP/out" \
		'^abi: [0-9]+ cases: 0 as the syscall or as the ABI allows, 0 unexpected, [0-9]+ skipped, [1-9][0-9]* not tested for vdsokit.s own error$'
	expect_status 3 "fork refused: fallback exits 3" "${nofork[@]}" "$VK" fallback
	contains "its probes say vdsokit could not fork" "$TMP/out" \
		"ERROR, vdsokit's own: not probed: vdsokit could not fork \\(Operation not permitted\\)"
	absent "not that the probe was 'could not fork'" "$TMP/out" "the probe was could not fork"
	expect_status 3 "fork refused: timens exits 3, not 4" "${nofork[@]}" "$VK" timens -d 0.05
	expect_status 3 "fork refused: bench exits 3" "${nofork[@]}" "$VK" bench -d 0.02 time --format ktap
	contains "its rows are KTAP's ERROR, not a worker's death" "$TMP/out" \
		'^not ok 1 time vdso # ERROR not measured: vdsokit could not start a worker process for it'
	# The wait refused, not the fork: said as such (vk_isolate_failure's
	# words), never "could not fork" with whatever errno was left.
	expect_status 3 "wait4 refused: abi exits 3" "$REFUSE" wait4 -- "$VK" abi --paths vdso getcpu --format ktap
	contains "and says it could not wait for its child" "$TMP/out" \
		"^not ok 1 [^#]* # ERROR not tested: vdsokit could not wait for its child \\(Operation not permitted\\)$"
	absent "not that it could not fork" "$TMP/out" "could not fork"
	expect_status 3 "wait4 refused: timens exits 3" "$REFUSE" wait4 -- "$VK" timens -d 0.05 --format ktap
	contains "and says it could not wait for its child" "$TMP/out" \
		"# ERROR not tested: [^#]*vdsokit could not wait for its child \\(Operation not permitted\\)$"
	absent "not that it could not fork" "$TMP/out" "could not fork"
	expect_status 3 "fork refused: all exits 3" "${nofork[@]}" "$VK" all -d 0.02
	contains "its verdict is ERROR" "$TMP/out" '^Verdict: ERROR: no finding'
	contains "and it names vdsokit's own errors" "$TMP/out" \
		"^Not tested, vdsokit's own errors \\([0-9]+; not the kernel's, no reproducer\\):"
fi

# ulimit -n: too few files for the pipe to a check's child (the loader
# and the three standard streams take the rest). vdsokit's error, exit 3.
(ulimit -n 5 && exec "$VK" verify -d 0.02 --paths vdso clock-gettime-monotonic --format ktap) \
	>"$TMP/out" 2>"$TMP/err"
status=$?
check "ulimit -n 5: verify exits 3, vdsokit's error ($status)" test "$status" = 3
contains "it names the files it lacked" "$TMP/out" \
	'^not ok [0-9]+ clock-gettime-monotonic vdso all # ERROR not tested: vdsokit could not make a pipe .*: Too many open files$'

# ulimit -v: too little memory for a second thread's stack. The checks
# that need one are vdsokit's errors; no finding, no reproducer of them.
# (Other findings of this kernel's may stand beside them: not judged here.)
rm -rf "$TMP/outdir"
(ulimit -v 10000 && exec "$VK" all -d 0.02 --output "$TMP/outdir") >"$TMP/out" 2>"$TMP/err"
status=$?
check "ulimit -v 10000: all --output ends 0, 1 or 3 ($status), not by a signal" \
	test "$status" = 0 -o "$status" = 1 -o "$status" = 3
contains "it names the threads vdsokit could not start as its errors" "$TMP/out" \
	"^- verify: [^ ]+ [a-z]+ threads: not tested: vdsokit could not start a second thread"
sed -n '/^Findings/,/^$/p' "$TMP/out" >"$TMP/findings"
absent "no finding is vdsokit's own error" "$TMP/findings" 'not tested: vdsokit'
cat "$TMP/outdir/repro/"*.txt >"$TMP/repros" 2>/dev/null
absent "no reproducer's report is of vdsokit's own error" "$TMP/repros" 'not tested: vdsokit'

contains "report.json has them as \"error\"" "$TMP/outdir/report.json" '"status": "error"'
