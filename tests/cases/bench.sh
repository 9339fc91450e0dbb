# bench's reports and options. No figure is asserted here: a benchmark's
# claims come from a benchmark run (make bench-quality), not a unit test.
# serial: bench's own processes and its environment warnings (the load
# it meets) are under test, which a neighbour's load would change.
. "$TOP/tests/lib.sh"

api=clock-gettime-monotonic
expect_status 0 "bench of one API exits 0" "$VK" bench -d 0.02 $api --format json
cp "$TMP/out" "$TMP/bench.json"
if need python3; then
	check "the JSON report has schema vdsokit-bench/2 and three paths" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == "vdsokit-bench/2" and d["command"] == "bench"
for k in ("tool", "time", "timer", "environment", "reference"):
    assert k in d, k
e = d["environment"]
for k in ("kernel", "cpu_model", "clocksource", "options", "governor", "warnings"):
    assert k in e, k
r = d["results"]
assert [x["path"] for x in r] == ["vdso", "libc", "syscall"], r
assert any("skipped" not in x for x in r), r
for x in r:
    assert x["api"] == sys.argv[2]
    if "skipped" in x:
        continue
    assert 0 < x["min_ns"] <= x["median_ns"], x
    assert x["ci95_low_ns"] <= x["median_ns"] <= x["ci95_high_ns"], x
    o = e["options"]
    assert x["processes"] == o["processes"] == 10, x
    assert len(x["samples_ns"]) == x["samples"] == o["samples"] * o["processes"], x
    p = x["process_samples_ns"]
    assert len(p) == o["processes"] and all(len(s) == o["samples"] for s in p), p
    assert sum(p, []) == x["samples_ns"], x
ref = d["reference"]
assert ref["ns_per_step"] > 0 and len(ref["processes_ns"]) == e["options"]["processes"], ref
assert min(ref["processes_ns"]) <= ref["ns_per_step"] <= max(ref["processes_ns"]), ref
assert len(ref["syscall_processes_ns"]) == e["options"]["processes"], ref
assert min(ref["syscall_processes_ns"]) <= ref["syscall_ns"] <= max(ref["syscall_processes_ns"]), ref
assert len(ref["loads_processes_ns"]) == e["options"]["processes"], ref
assert 0 < min(ref["loads_processes_ns"]) <= ref["loads_ns"] <= max(ref["loads_processes_ns"]), ref
' "$TMP/bench.json" $api
else
	skip "the JSON report has schema vdsokit-bench/2" "python3 is not installed"
fi

# compare reads bench's own files (vdsokit-bench/2: the run's kernel,
# clocksource and options in the envelope's environment).
expect_status 0 "compare of a bench file with itself exits 0" "$VK" compare "$TMP/bench.json" "$TMP/bench.json"
contains "and finds the run's kernel in the file's environment" "$TMP/out" "^kernel +[^u ]"
contains "and its CPU model" "$TMP/out" "^CPU model +[^u ]"

# Environment warnings (on made-up /sys and /proc trees: tests/unit/envcheck.c):
# the JSON's environment block, with a warning bench itself causes.
expect_status 0 "bench in 2 processes exits 0" "$VK" bench -d 0.02 --processes 2 $api --format json
if need python3; then
	check "the JSON's environment block holds the warnings, each with its fix" python3 -c '
import json, sys
w = json.load(open(sys.argv[1]))["environment"]["warnings"]
assert all(x["warning"] and x["detail"] and x["fix"] for x in w), w
assert "a bench row was measured in too few processes for compare\x27s verdict" in [x["warning"] for x in w], w
' "$TMP/out"
else
	skip "the JSON's environment block holds the warnings" "python3 is not installed"
fi

# --output DIR: the report in every format, the HTML one rendered.
expect_status 0 "bench --output exits 0" "$VK" bench -d 0.01 -n 4 --output "$TMP/bo" time getcpu
for f in report.txt report.json report.ktap report.html; do
	check "bench --output writes $f" test -s "$TMP/bo/$f"
done
check "report.txt is the text report" cmp "$TMP/out" "$TMP/bo/report.txt"
check "report.ktap is KTAP with a plan of the 6 rows" sh -c "sed -n 3p '$TMP/bo/report.ktap' | grep -qx '1..6'"
render "$TMP/bo/report.html" "$TMP/bench"
case $? in
1) skip "headless Chromium renders bench's HTML report" "$render_why" ;;
2) not_ok "headless Chromium renders bench's HTML report" "$render_why" ;;
*)
	ok "headless Chromium renders bench's HTML report"
	not_blank "$TMP/bench.png"
	rows=$(grep -cE '^ok [0-9]+ [^#]+$' "$TMP/bo/report.ktap")
	check "its DOM has one mark per measured row ($rows)" test "$(marks "$TMP/bench.dom")" = "$rows" -a "$rows" -gt 0
	;;
esac
expect_status 2 "bench --output into a file is a usage error" "$VK" bench --output "$TMP/bo/report.txt" time

expect_status 0 "--format vdsotest exits 0" "$VK" bench -d 0.02 $api --format vdsotest
check "only vdsotest's lines" test "$(grep -cvE "^$api: (syscall|   libc|   vdso): ([0-9]+ nsec/call|SKIP)\$" "$TMP/out")" = 0
check "syscall, then libc, then vdso" test "$(cut -d: -f2 "$TMP/out" | tr -d ' ' | tr '\n' ,)" = "syscall,libc,vdso,"
if ! need_cross i386 "a path that cannot run is a SKIP line"; then
	:
elif ! cross_variant i386; then
	not_ok "the i386 build for the SKIP line" "$(tail -n 3 "$TMP/variant-cross-i386.log")"
elif ! runs_here "$O/cross/i386/vdsokit"; then
	skip "a path that cannot run is a SKIP line" "$NO_I386"
else
	# The i386 vDSO has clock_getres_time64 from Linux 7.0 on.
	if "$O/cross/i386/vdsokit" list-apis | grep -q '^clock-getres-time64-monotonic .* exported$'; then
		expect_status 0 "the i386 vDSO's getres_time64 is measured" \
			"$O/cross/i386/vdsokit" bench -d 0.02 clock-getres-time64-monotonic --format vdsotest --paths vdso
		contains "as a vdsotest line" "$TMP/out" '^clock-getres-time64-monotonic:    vdso: [0-9]+ nsec/call$'
	else
		expect_status 4 "a bench with nothing to measure exits 4 (i386, no getres_time64)" \
			"$O/cross/i386/vdsokit" bench -d 0.02 clock-getres-time64-monotonic --format vdsotest --paths vdso
		contains "the missing getres_time64 is 'vdso: SKIP'" "$TMP/out" '^clock-getres-time64-monotonic:    vdso: SKIP$'
		contains "and stderr says it was not tested, and why" "$TMP/err" '^clock-getres-time64-monotonic: vdso: not tested: .'
	fi
fi

expect_status 0 "--format csv exits 0" "$VK" bench -d 0.02 time --format csv
contains "CSV has its header" "$TMP/out" '^api,path,median_ns,min_ns,ci95_low_ns,ci95_high_ns,cv_pct,p90_ns,p99_ns,samples,batch,multimodal,skipped,failed$'
check "CSV has one row per path" test "$(grep -c '^time,' "$TMP/out")" = 3
expect_status 0 "--format ktap exits 0" "$VK" bench -d 0.02 getcpu --format ktap
contains "KTAP plans the three paths" "$TMP/out" '^1\.\.3$'
contains "KTAP gives the figure" "$TMP/out" '^# median [0-9.]+ ns/call, min [0-9.]+, 95% CI [0-9.]+-[0-9.]+, CV [0-9.]+%, 50 samples, 10 processes$'
expect_status 0 "any clock id can be measured" "$VK" bench -d 0.02 clock-getres-id:15 clock-gettime-id:-1 --format csv
contains "clock id 15 is measured" "$TMP/out" '^clock-getres-id:15,vdso,[0-9.]+,'
contains "clock id -1 is measured" "$TMP/out" '^clock-gettime-id:-1,syscall,[0-9.]+,'
expect_status 0 "--cold measures single calls" "$VK" bench --cold -d 0.05 $api --paths vdso --format json
if need python3; then
	check "--cold reports p90 and p99" python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
assert r["batch"] == 1 and r["samples"] >= 20 and r["p90_ns"] <= r["p99_ns"], r
' "$TMP/out"
fi
# Cold samples are as many as the time allows: the processes' must fit
# in one row together (512).
expect_status 0 "--cold with a long budget exits 0" "$VK" bench --cold -d 1 --processes 16 $api --paths vdso --format json
if need python3; then
	check "--cold's samples of every process fit in the row" python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
assert r["processes"] == 16 and 16 * 20 <= r["samples"] <= 512, r["samples"]
' "$TMP/out"
fi
expect_status 0 "a function name measures all its clocks" "$VK" bench -d 0.01 clock_getres --paths vdso --format csv
check "all named clocks of clock_getres" test "$(grep -c '^clock-getres-' "$TMP/out")" = 11
expect_status 0 "--impl adds the impl path" "$VK" bench -d 0.02 time --impl "$O/tests/impl/passthrough.so" --format csv
contains "the impl path is measured" "$TMP/out" '^time,impl,[0-9.]+,'

for bad in "-d 0" "-d x" "--samples 1" "--samples 513" "--samples 52" "--cpu 99999" "--format yaml" \
	   "--processes 0" "--processes 65" "--processes 64 --samples 9" "--processes x" \
	   "--paths bogus" "--paths impl" "no-such-api" "clock-gettime-id:x"; do
	# shellcheck disable=SC2086 # each case is several words
	expect_status 2 "bench $bad is a usage error" "$VK" bench $bad
done

# --threads N: N threads calling at once in each worker. The figures are
# checked for their form and their own arithmetic, never for a speed: the
# lock-against-free scaling is a benchmark's claim (make a run of
# bench --threads 2 --impl tests/impl/lock-global.so), not a test's.
for bad in "--threads 0" "--threads -1" "--threads x" "--threads 257" "--threads 2 --cold" \
	   "--worker 1:0 --threads 2 --thread-cpus 0" "--worker 1:0 --threads 1 --thread-cpus x"; do
	# shellcheck disable=SC2086 # each case is several words
	expect_status 2 "bench $bad is a usage error" "$VK" bench $bad time
done
lock=$O/tests/impl/lock-global.so
if [ -f "$lock" ]; then
	expect_status 0 "--threads 2 on a locked library exits 0" "$VK" bench -d 0.02 --processes 2 \
		--threads 2 --impl "$lock" clock-gettime-monotonic --paths vdso,impl --format json
	cp "$TMP/out" "$TMP/threads.json"
	expect_status 0 "--threads 1 exits 0" "$VK" bench -d 0.02 --processes 2 --threads 1 \
		clock-gettime-monotonic --paths vdso --format json
	cp "$TMP/out" "$TMP/threads1.json"
	if need python3; then
		check "--threads' rows: total = threads x the rate per thread, scaling = total / one" python3 -c '
import json, sys
for name, n in ((sys.argv[1], 2), (sys.argv[2], 1)):
    d = json.load(open(name))
    o = d["environment"]["options"]
    assert o["threads"] == n and len(o["thread_cpus"]) == n, o
    assert all(isinstance(c, int) and c >= 0 for c in o["thread_cpus"]), o
    for x in d["results"]:
        if "skipped" in x:
            continue
        assert x["threads"] == n, x
        t, per, one, s = x["calls_per_s"], x["thread_ns_per_call"], x["one_thread_calls_per_s"], x["scaling"]
        at_once = x["threads_at_once"]
        assert t > 0 and per > 0 and one > 0 and at_once >= 0, x
        assert abs(t * per / 1e9 / n - 1) < 1e-9, x
        if n == 1:
            assert s == 1 and t == one, x
        elif at_once < 0.9:
            assert s is None, x  # the threads did not run at once: not judged
        else:
            assert abs(s - t / one) < 1e-9 * s, x
' "$TMP/threads.json" "$TMP/threads1.json"
	fi
	expect_status 0 "--threads 2 in text exits 0" "$VK" bench -d 0.02 --processes 1 --threads 2 \
		--impl "$lock" clock-gettime-monotonic --paths impl
	contains "the text gives a row's threads' figures on a line under it" "$TMP/out" \
		'^  2 threads: [0-9.e+]+ calls/s in all, [0-9.]+ ns per call per thread, scaling ([0-9.]+|not judged: they held their CPUs [0-9]+% of the time)$'
	contains "and says the threads are pinned, and where" "$TMP/out" \
		'^threads: 2 at once, each pinned, to CPUs [0-9]+,[0-9]+; '
	# Planted: two threads on one CPU take turns, whatever the load, and
	# hold it half the time at most: their scaling cannot be judged.
	one_cpu=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*\([0-9]*\).*/\1/p' /proc/self/status)
	if need taskset && need python3; then
		expect_status 0 "--threads 2 on one CPU (taskset) exits 0" taskset -c "$one_cpu" "$VK" bench \
			-d 0.02 --processes 2 --threads 2 time --paths vdso --format json
		check "the JSON gives no scaling, and the share of the time the threads ran at once" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
x = [r for r in d["results"] if "skipped" not in r][0]
assert x["scaling"] is None and 0 < x["threads_at_once"] < 0.9, x
assert any("scaling cannot be judged" in w["warning"] for w in d["environment"]["warnings"]), d
' "$TMP/out"
		expect_status 0 "... and so in text" taskset -c "$one_cpu" "$VK" bench \
			-d 0.02 --processes 1 --threads 2 time --paths vdso
		contains "... the row saying why" "$TMP/out" \
			'^  2 threads: [0-9.e+]+ calls/s in all, [0-9.]+ ns per call per thread, scaling not judged: they held their CPUs [0-9]+% of the time$'
		contains "... and the warning" "$TMP/out" \
			"^warning: --threads' threads did not all run at once: their scaling cannot be judged \\([0-9]+ of [0-9]+ rows: .*\\); fix: "
	fi
	cpus=$(nproc)
	expect_status 0 "more --threads than CPUs exits 0" "$VK" bench -d 0.02 --processes 1 \
		--threads $((cpus + 1)) time --paths vdso
	contains "and warns that threads share a CPU" "$TMP/out" \
		"^warning: more --threads than CPUs.*\($((cpus + 1)) threads on [0-9]+ CPUs\)"
	expect_status 0 "compare reads a --threads file" "$VK" compare "$TMP/threads.json" "$TMP/threads.json"
	contains "and shows each row's scaling, both sides having one" "$TMP/out" \
		'^ +scaling ([0-9.]+|not judged) at 2 threads -> ([0-9.]+|not judged) at 2$'
	expect_status 0 "and one against a file without threads" "$VK" compare "$TMP/bench.json" "$TMP/threads1.json"
	check "where it shows no scaling" sh -c "! grep -q scaling '$TMP/out'"
	# A second run: one run given twice in a side is refused (compare.sh).
	"$VK" bench -d 0.02 --processes 2 --threads 2 --impl "$lock" clock-gettime-monotonic \
		--paths vdso,impl --format json >"$TMP/threads2.json"
	expect_status 0 "compare merges --threads files, several a side" "$VK" compare \
		"$TMP/threads.json" "$TMP/threads2.json" --vs "$TMP/threads.json"
	contains "and their scaling" "$TMP/out" '^ +scaling ([0-9.]+|not judged) at 2 threads -> ([0-9.]+|not judged) at 2$'
	if need python3; then
		for edit in 'x["scaling"] = -1' 'x["threads"] = 1.5' 'x["thread_ns_per_call"] *= 2' \
			    'del x["threads"]' 'x["calls_per_s"] = "many"'; do
			python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
x = [r for r in d["results"] if "skipped" not in r][0]
exec(sys.argv[2])
json.dump(d, open(sys.argv[3], "w"))
' "$TMP/threads.json" "$edit" "$TMP/bad-threads.json"
			expect_status 2 "compare refuses a --threads row where $edit" \
				"$VK" compare "$TMP/bad-threads.json" "$TMP/threads.json"
		done
		contains "naming the field" "$TMP/err" 'results\[[0-9]+\]\.calls_per_s: "many" is not a number'
	fi
else
	skip "--threads on a locked library" "$lock is not built (a static build has no --impl)"
fi

# Worker processes: each a fresh exec, one after the other; what the
# parent prints is theirs, pooled. One process leaves no spread between
# processes to report, and says so with "-"; a worker that dies is named.
expect_status 0 "--processes 1 exits 0" "$VK" bench -d 0.02 --processes 1 time --paths vdso
contains "one process: no CI or CV, shown as -" "$TMP/out" '^time +vdso +[0-9.]+ +[0-9.]+ +- +- +- +- +5( +multimodal)?$'
contains "the text says what the figure is" "$TMP/out" "^ns per call, unpreempted \\(each sample the fastest batch of calls of 20 us or more,\$"
contains "... and how it is made" "$TMP/out" "^the median of 1 processes' medians, their 95% CI and CV\$"
contains "and gives the reference loops" "$TMP/out" "^the machine's own speed, for compare: reference loop [0-9.]+ ns per step, [0-9.]+ ns per load, getppid [0-9.]+ ns$"
# getrandom's length (--length, 16 by default): in the JSON and below the
# text's table, and the bytes each call really asks for (seen by strace on
# the syscall path, where a call is a syscall).
expect_status 0 "bench --length 4 getrandom exits 0" "$VK" bench -d 0.01 --processes 1 --length 4 getrandom --paths syscall --format json
contains "the JSON records the length" "$TMP/out" '"getrandom_length": 4'
expect_status 0 "bench getrandom without --length exits 0" "$VK" bench -d 0.01 --processes 1 getrandom --paths syscall
contains "the text names the default length, 16" "$TMP/out" '^getrandom: 16 bytes a call \(--length\)$'
for bad in 0 1048577; do
	expect_status 2 "--length $bad is refused" "$VK" bench --length "$bad" getrandom
	contains "... saying the range" "$TMP/err" '--length takes 1 to 1048576'
done
expect_status 2 "--length x is refused" "$VK" bench --length x getrandom
contains "... saying it is no number" "$TMP/err" "--length: 'x' is not a whole number"
if need strace && strace -f -qq -e trace=none true 2>/dev/null; then
	strace -f -qq -e trace=getrandom -o "$TMP/strace" "$VK" bench -d 0.01 --processes 1 --length 4 \
		getrandom --paths syscall >/dev/null 2>&1
	contains "each call asks for 4 bytes" "$TMP/strace" 'getrandom\(.*, 4, 0\) += 4$'
	check "... and none for the default 16" sh -c "! grep -E 'getrandom\(.*, 16, 0\) += 16' '$TMP/strace'"
else
	skip "each call asks for 4 bytes" "strace cannot trace here (not installed, or ptrace refused)"
fi
expect_status 0 "--processes 1 --format csv exits 0" "$VK" bench -d 0.02 --processes 1 time --paths vdso --format csv
contains "one process: CSV leaves CI and CV empty, not nan" "$TMP/out" '^time,vdso,[0-9.]+,[0-9.]+,,,,[0-9.]+,[0-9.]+,5,[0-9]+,[01],,$'
expect_status 0 "--processes 1 --format ktap exits 0" "$VK" bench -d 0.02 --processes 1 time --paths vdso --format ktap
contains "one process: KTAP says there is no CI" "$TMP/out" '^# median [0-9.]+ ns/call, min [0-9.]+, 5 samples, one process: no CI$'
expect_status 0 "--processes 1 --output exits 0" "$VK" bench -d 0.02 --processes 1 time --paths vdso --output "$TMP/one"
check "one process: no nan anywhere in the reports" sh -c "! grep -il nan '$TMP/one'/report.*"
if need strace && strace -o /dev/null true 2>/dev/null; then
	strace -f -o "$TMP/trace" -e trace=execve "$VK" bench -d 0.02 --processes 3 time --paths vdso >/dev/null 2>&1
	check "--processes 3 execs 3 workers, each a fresh exec (strace)" \
		test "$(grep -c 'execve("/proc/self/exe", \["vdsokit", "bench", "--worker"' "$TMP/trace")" = 3
else
	skip "--processes 3 execs 3 workers (strace)" "strace is missing or cannot trace here"
fi
if [ -f "$O/tests/impl/crash-getcpu.so" ]; then
	expect_status 1 "a worker that dies: exit 1" "$VK" bench -d 0.02 --impl "$O/tests/impl/crash-getcpu.so" time getcpu
	contains "a worker that dies: named, with its signal, API, path and library" "$TMP/err" \
		'^vdsokit bench: worker process 1 of 10 was killed by signal 11 \(Segmentation fault\) while measuring getcpu on impl \(.*/crash-getcpu\.so\)$'
	# The document is written, with the crash in it (issue 47, part 6).
	contains "a worker that dies: the report holds the crash in its row" "$TMP/out" \
		'^getcpu +impl +- +\(worker process 1 of 10 was killed by signal 11 \(Segmentation fault\)\)$'
	contains "and the rows the workers measured" "$TMP/out" '^time +vdso +[0-9.]+ '
	for fmt in json ktap csv vdsotest openmetrics; do
		expect_status 1 "a worker that dies, --format $fmt: exit 1" "$VK" bench -d 0.02 \
			--processes 2 --impl "$O/tests/impl/crash-getcpu.so" time getcpu --format $fmt
		check "a worker that dies, --format $fmt: the report is written" test -s "$TMP/out"
		cp "$TMP/out" "$TMP/crash.$fmt"
	done
	contains "CSV: the crashed row is failed, not skipped" "$TMP/crash.csv" \
		'^getcpu,impl,,,,,,,,,,,,"worker process 1 of 2 was killed by signal 11'
	contains "vdsotest: the crashed row is FAIL, not SKIP" "$TMP/crash.vdsotest" '^getcpu:    impl: FAIL$'
	expect_status 1 "a worker that dies, --format ktap" "$VK" bench -d 0.02 --processes 2 \
		--impl "$O/tests/impl/crash-getcpu.so" time getcpu --format ktap
	contains "KTAP: the crashed row is not ok" "$TMP/out" '^not ok [0-9]+ getcpu impl$'
	expect_status 1 "a worker that dies, --format json" "$VK" bench -d 0.02 --processes 2 \
		--impl "$O/tests/impl/crash-getcpu.so" time getcpu --format json
	contains "JSON: the crashed row says so" "$TMP/out" '"crashed": true'
	schema_valid "JSON: a crashed row follows bench.json" bench "$TMP/out"
else
	skip "a worker that dies: exit 1" "$O/tests/impl/crash-getcpu.so is not built (a static build has no --impl)"
fi
expect_status 2 "--worker with a bad timer is refused" "$VK" bench --worker x time
contains "and says it is bench's own" "$TMP/err" "--worker is bench's own, for its worker processes"

# vdsotest's own command line.
expect_status 0 "vdsotest's 'API bench' works" "$VK" -d 0.1 $api bench
check "and prints vdsotest's lines" test "$(cut -d: -f2 "$TMP/out" | tr -d ' ' | tr '\n' ,)" = "syscall,libc,vdso,"
expect_status 0 "vdsotest's 'API verify' works, options after" "$VK" getcpu verify -d 0.1 -f 3 -v -g
expect_status 2 "vdsotest's -d 0 is refused, not a hang" "$VK" $api bench -d 0
expect_status 0 "vdsotest's 'API abi' works" "$VK" time abi
expect_status 2 "an unknown vdsotest test type is an error" "$VK" $api frobnicate

# A call that fails is no figure: its time is the failure's (an -EINVAL
# returned at once, a syscall refused). Its row names the call, the errno
# and how often, and the run exits 1 (issue 47, part 2).
fail=$O/tests/impl/fail-einval.so
if [ -f "$fail" ]; then
	expect_status 1 "bench of a library whose clock_gettime fails exits 1" "$VK" bench -d 0.02 \
		--processes 2 --impl "$fail" clock-gettime-monotonic --paths vdso,impl
	contains "its row names the call, the errno and how often, with no figure" "$TMP/out" \
		'^clock-gettime-monotonic +impl +- +\(clock_gettime failed: Invalid argument \(errno 22\), ([0-9]+) of \1 calls\)$'
	contains "the vdso row beside it is measured" "$TMP/out" '^clock-gettime-monotonic +vdso +[0-9.]+ '
	expect_status 1 "and in JSON" "$VK" bench -d 0.02 --processes 2 --impl "$fail" \
		clock-gettime-monotonic --paths impl --format json
	if need python3; then
		check "the JSON row has no figure, and says the call, errno and count" python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
assert "median_ns" not in r and "samples_ns" not in r, r
assert r["call"] == "clock_gettime" and r["errno"] == 22, r
assert 0 < r["failed_calls"] == r["calls"], r
assert r["skipped"].startswith("clock_gettime failed: "), r
' "$TMP/out"
	fi
	schema_valid "a failed row is valid against bench.json" bench "$TMP/out"
	expect_status 1 "and in KTAP, where it is not ok" "$VK" bench -d 0.02 --processes 2 \
		--impl "$fail" clock-gettime-monotonic --paths impl --format ktap
	contains "not ok, the failure as its diagnostic" "$TMP/out" '^not ok 1 clock-gettime-monotonic impl$'
	contains "the failure as its diagnostic" "$TMP/out" '^# clock_gettime failed: Invalid argument'
	# csv and vdsotest: a failed row, never a skipped one.
	expect_status 1 "and in CSV" "$VK" bench -d 0.02 --processes 2 \
		--impl "$fail" clock-gettime-monotonic --paths impl --format csv
	contains "its failed column says the failure, its skipped column nothing" "$TMP/out" \
		'^clock-gettime-monotonic,impl,,,,,,,,,,,,"clock_gettime failed: Invalid argument \(errno 22\), [0-9]+ of [0-9]+ calls"$'
	expect_status 1 "and in vdsotest's lines" "$VK" bench -d 0.02 --processes 2 \
		--impl "$fail" clock-gettime-monotonic --paths impl --format vdsotest
	contains "FAIL, not SKIP" "$TMP/out" '^clock-gettime-monotonic:    impl: FAIL$'
	contains "the failure on stderr" "$TMP/err" \
		'^clock-gettime-monotonic: impl: clock_gettime failed: Invalid argument \(errno 22\)'
	expect_status 1 "--threads: a library failing its calls exits 1" "$VK" bench -d 0.02 \
		--processes 1 --threads 2 --impl "$fail" clock-gettime-monotonic --paths impl
fi
late=$O/tests/impl/fail-late.so
if [ -f "$late" ]; then
	expect_status 1 "a call failing once in 4096 fails the row" "$VK" bench -d 0.02 --processes 2 \
		--impl "$late" clock-gettime-monotonic --paths impl
	contains "and says how often" "$TMP/out" \
		'\(clock_gettime failed: Resource temporarily unavailable \(errno 11\), [0-9]+ of [0-9]+ calls\)$'
fi
threads=$O/tests/impl/fail-threads.so
if [ -f "$threads" ]; then
	expect_status 1 "--threads: calls that fail only in the threads exit 1" "$VK" bench -d 0.02 \
		--processes 1 --threads 2 --impl "$threads" clock-gettime-monotonic --paths impl
	contains "and the row says so, with no figure" "$TMP/out" \
		'^clock-gettime-monotonic +impl +- +\(clock_gettime failed: Invalid argument'
fi
# The launcher issue 47 asks for: the clock_gettime syscall refused by
# seccomp, as sandboxes do. The syscall row is the refusal's time, no figure.
if "$O/tests/tools/refuse" clock_gettime -- true 2>/dev/null; then
	expect_status 1 "clock_gettime refused by seccomp: bench exits 1" \
		"$O/tests/tools/refuse" clock_gettime -- "$VK" bench -d 0.02 --processes 2 clock-gettime-monotonic
	contains "its syscall row says EPERM, with no figure" "$TMP/out" \
		'^clock-gettime-monotonic +syscall +- +\(clock_gettime failed: Operation not permitted \(errno 1\), '
	contains "and the vDSO's row is measured" "$TMP/out" '^clock-gettime-monotonic +vdso +[0-9.]+ '
else
	skip "clock_gettime refused by seccomp" "seccomp filters cannot be installed here"
fi

# An API named twice, or by its name and its clock id, is one row (issue 47, part 8).
expect_status 0 "bench getcpu getcpu exits 0" "$VK" bench -d 0.01 --processes 1 getcpu getcpu \
	clock-gettime-monotonic clock-gettime-id:1 --paths vdso --format csv
check "each API is one row" test "$(grep -c ',vdso,' "$TMP/out")" = 2
contains "under the name given first" "$TMP/out" '^clock-gettime-monotonic,vdso,'
# The --impl path is anyone's bytes: its control characters are shown, as
# everywhere else (vk_safe), never sent to the terminal.
if [ -f "$O/tests/impl/hostile-segv.so" ]; then
	esc=$(printf '\033')
	ln -sf "$O/tests/impl/hostile-segv.so" "$TMP/x${esc}[31m.so"
	expect_status 1 "an --impl named with an ESC that crashes" "$VK" bench -d 0.01 --processes 1 \
		--impl "$TMP/x${esc}[31m.so" time --paths impl
	contains "its name on stderr shows the ESC as \\x1b" "$TMP/err" 'x\\x1b\[31m\.so'
	check "and holds no raw ESC" sh -c "! grep -q '$esc' '$TMP/err'"
	expect_status 2 "an --impl named with an ESC that does not exist" "$VK" bench -d 0.01 \
		--impl "$TMP/no${esc}[31m.so" time
	contains "its name shows the ESC as \\x1b" "$TMP/err" 'no\\x1b\[31m\.so'
fi
