# vdsokit compare on hand-written bench files: verdicts and exit statuses
# for identical, slower, faster and slightly changed runs, the warning for
# runs from different machines, and every input error. What it is built
# on (the statistics, the JSON reader, the verdict against the machine's
# move and the merge of a side's runs) is tests/cases/unit.sh's.
# serial: side by side measures a 30% slowdown and the syscall against
# the vDSO, whose verdicts a neighbour's load would blur.
. "$TOP/tests/lib.sh"

# bench FILE FACTOR [MACHINE] [REFERENCE] [PROCESSES] [SYSCALL] [LOAD]: a bench file whose
# clock-gettime-monotonic samples on vdso are tight ones around 22.6 ns
# times FACTOR, from PROCESSES (8) processes of 3 samples each; time's are
# the same in every file, and getrandom's libc path was skipped. The
# reference loop took REFERENCE (1.0) ns per step, a load LOAD (0.25) ns
# and getppid SYSCALL (100) ns. Escapes, exponents and
# unknown keys are there for the reader to get past. Each file is a run of
# its own (its run_id from its name), though its samples are another's.
bench() {
	local flat procs
	flat=$(samples "$2" "${5:-8}" ", ")
	procs="[$(samples "$2" "${5:-8}" "], [")]"
	cat >"$1" <<EOF
{
  "schema": "vdsokit-bench/1",
  "tool_version": "0.1.0",
  "time": "2026-12-02T11:55:00Z",
  "run_id": "$(printf %s "$1" | md5sum | cut -c1-32)",
  "kernel": {"release": "6.18.44", "machine": "${3:-x86_64}"},
  "cpu_model": "AMD EPYC 9R45 \u0028\"Turin\"\u0029",
  "clocksource": "tsc",
  "options": {"seconds": 3e-1, "samples": 3, "processes": ${5:-8}, "cpu": 0, "cold": false},
  "timer": {"name": "tsc", "ghz": 2.596, "overhead_ns": 1.75E+1},
  "reference": {"loop": "x", "ns_per_step": ${4:-1.0}, "processes_ns": [${4:-1.0}],
                "loads_ns": ${7:-0.25}, "syscall_ns": ${6:-100}},
  "environment": {"loadavg": 0.52, "disturbed": false, "future": [null, {"x": true}]},
  "results": [
    {"api": "clock-gettime-monotonic", "path": "vdso", "median_ns": 22.6, "samples": 24,
     "multimodal": false, "samples_ns": [$flat], "process_samples_ns": [$procs]},
    {"api": "time", "path": "vdso", "samples_ns": [1.29, 1.30, 1.29, 1.31, 1.29, 1.30, 1.29, 1.30],
     "process_samples_ns": [[1.29], [1.30], [1.29], [1.31], [1.29], [1.30], [1.29], [1.30]]},
    {"api": "getrandom", "path": "libc", "skipped": "glibc 2.36 has no \\"getrandom\\" vDSO"}
  ]
}
EOF
}

# samples FACTOR PROCESSES JOIN: 3 samples a process, JOIN between processes.
samples() {
	awk -v f="$1" -v np="$2" -v join="$3" 'BEGIN {
		n = split("22.60 22.61 22.59 22.62 22.58 22.60 22.63 22.57 22.61 " \
			  "22.59 22.60 22.64 22.56 22.62 22.58 22.61 22.59 22.60", s, " ")
		for (p = 0; p < np; p++)
			for (k = 1; k <= 3; k++) {
				i = (p * 3 + k - 1) % n + 1
				printf "%s%.4f", (k > 1 ? ", " : (p > 0 ? join : "")), s[i] * f
			}
	}'
}

mkdir -p "$TMP/compare" && cd "$TMP/compare" || exit 1
bench old.json 1
bench same.json 1
bench slower.json 1.10
bench faster.json 0.90
bench slight.json 1.02
bench arm.json 1 aarch64

# row API VERDICT: the pattern of API's row on vdso with that verdict.
row() {
	echo "^$1 +vdso +[0-9.]+ ns +[0-9.]+ ns .* $2\$"
}

expect_status 0 "identical runs exit 0" "$VK" compare old.json same.json
contains "identical runs: ~ for clock-gettime-monotonic" "$TMP/out" "$(row clock-gettime-monotonic '100\.0% .* ~')"
contains "identical runs: ~ for time" "$TMP/out" "$(row time '~')"
contains "identical runs: a summary line" "$TMP/out" \
	'^2 compared at a threshold of 5%: 0 regressions, 0 improvements, 2 within the threshold \(0 significant\); 2 results not compared'

expect_status 1 "10% slower exits 1" "$VK" compare old.json slower.json
contains "10% slower: a regression at 110.0%" "$TMP/out" "$(row clock-gettime-monotonic '110\.0% .* regression')"
contains "10% slower: time is unchanged" "$TMP/out" "$(row time '~')"
contains "10% slower: counted in the summary" "$TMP/out" ': 1 regression, 0 improvements, 1 within'

expect_status 0 "10% faster exits 0" "$VK" compare old.json faster.json
contains "10% faster: an improvement at 90.0%" "$TMP/out" "$(row clock-gettime-monotonic '90\.0% .* improvement')"

expect_status 0 "2% slower with --threshold 5 exits 0" "$VK" compare --threshold 5 old.json slight.json
contains "2% slower: significant, within the threshold" "$TMP/out" "$(row clock-gettime-monotonic '102\.0% .* ~ \(significant\)')"
expect_status 1 "2% slower with --threshold 1 exits 1" "$VK" compare old.json slight.json --threshold 1
contains "2% slower with --threshold 1 is a regression" "$TMP/out" "$(row clock-gettime-monotonic 'regression')"

# A verdict needs 7 processes a side: with fewer, however large the change,
# the row says so and compare exits 0. A file from before processes (its
# samples_ns alone) is one process.
bench few-old.json 1 x86_64 1.0 6
bench few-new.json 1.10 x86_64 1.0 6
expect_status 0 "6 processes a side: a 10% slowdown exits 0" "$VK" compare few-old.json few-new.json
contains "6 processes a side: too few runs for a verdict" "$TMP/out" "$(row clock-gettime-monotonic '110\.0% .* too few runs for a verdict')"
contains "6 processes a side: counted as without a verdict" "$TMP/out" '^0 faster, 0 slower, 1 unchanged, 1 without a verdict; geometric mean'
bench seven.json 1.10 x86_64 1.0 7
expect_status 1 "7 processes against 8: a 10% slowdown is a regression" "$VK" compare old.json seven.json
# Ties are common, as samples are whole counter steps: these 7 processes'
# medians are 22.58, 22.60 five times and 22.61 ns. Twice as slow, the
# machine held, is a regression at 7, 8 and 9 processes a side: 7 against
# 7 apart has p 2/3432, and the test is exact with ties, where the normal
# approximation's smallest p, 0.0021, could never pass 0.001.
for n in 7 8 9; do
	bench "tied-$n.json" 1 x86_64 1.0 "$n"
	bench "twice-$n.json" 2 x86_64 1.0 "$n"
	expect_status 1 "$n processes a side with tied medians, twice as slow: exit 1" \
		"$VK" compare "tied-$n.json" "twice-$n.json"
	contains "$n processes a side, tied, twice as slow: a regression" "$TMP/out" \
		"$(row clock-gettime-monotonic '200\.0% .* regression')"
	contains "$n processes a side, tied, twice as slow: counted slower" "$TMP/out" \
		'^0 faster, 1 slower, 1 unchanged; geometric mean 1\.414$'
done
"$VK" compare tied-7.json twice-7.json >"$TMP/tied7" 2>&1
contains "7 against 7 apart, tied: p is 2/3432" "$TMP/tied7" "$(row clock-gettime-monotonic '200\.0% .* 0\.00058 +regression')"
legacy() {
	cat >"$1" <<EOF
{"schema": "vdsokit-bench/1", "results": [
 {"api": "clock-gettime-monotonic", "path": "vdso", "samples_ns": [$(samples "$2" 8 ", ")]}]}
EOF
}
legacy legacy-old.json 1
legacy legacy-new.json 1.10
expect_status 0 "files of one process each: exit 0" "$VK" compare legacy-old.json legacy-new.json
contains "files of one process each: too few runs for a verdict" "$TMP/out" "$(row clock-gettime-monotonic '110\.0% .* too few runs for a verdict')"
contains "files without a reference: said" "$TMP/out" '^reference +unknown \(a file has no reference loop\)'

# Several runs a side (--vs) are merged: two runs of 5 processes each are
# 10 processes a side, enough for the verdict that one run of 5 is not.
bench five-old-1.json 1 x86_64 1.0 5
bench five-old-2.json 1 x86_64 1.0 5
bench five-new-1.json 1.10 x86_64 1.0 5
bench five-new-2.json 1.10 x86_64 1.0 5
expect_status 0 "one run of 5 processes a side: exit 0" "$VK" compare five-old-1.json five-new-1.json
contains "one run of 5 processes a side: too few runs for a verdict" "$TMP/out" "$(row clock-gettime-monotonic '110\.0% .* too few runs for a verdict')"
expect_status 1 "two runs of 5 a side, merged: a 10% slowdown exits 1" \
	"$VK" compare five-old-1.json five-old-2.json --vs five-new-1.json five-new-2.json
contains "two runs a side: a regression at 110.0%" "$TMP/out" "$(row clock-gettime-monotonic '110\.0% .* regression')"
contains "two runs a side: each side's files named" "$TMP/out" '^old: five-old-1\.json, five-old-2\.json$'
expect_status 0 "two runs against one: 10 processes against 5, exit 0" \
	"$VK" compare five-old-1.json five-old-2.json --vs five-new-1.json
contains "two runs against one: each side needs 7" "$TMP/out" "$(row clock-gettime-monotonic 'too few runs for a verdict')"
expect_status 0 "--vs between single files is compare of two files" "$VK" compare five-old-1.json --vs five-new-1.json
contains "--vs between single files: too few runs, as without it" "$TMP/out" "$(row clock-gettime-monotonic 'too few runs for a verdict')"
expect_status 1 "--vs in JSON: the runs a side" \
	"$VK" compare --format json five-old-1.json five-old-2.json --vs five-new-1.json five-new-2.json
contains "JSON: old_runs" "$TMP/out" '^  "old_runs": 2,$'
contains "JSON: new_runs" "$TMP/out" '^  "new_runs": 2,$'
contains "JSON: 10 processes a side" "$TMP/out" '^      "old_groups": 10,$'
# A side's reference is the median of all its processes: a second run at
# 1.20 against one at 1.0 moves the side by 10%, beyond the threshold.
bench ref-fast.json 1.10 x86_64 1.0 5
bench ref-slow.json 1.10 x86_64 1.20 5
expect_status 0 "a side whose runs' references are 1.0 and 1.2: no verdict" \
	"$VK" compare five-old-1.json five-old-2.json --vs ref-fast.json ref-slow.json
contains "the merged reference is the median of every process" "$TMP/out" \
	'^reference +1\.000 -> 1\.100 ns per step, 110\.0%: the machine.s own speed moved beyond the threshold; no verdicts$'
legacy five-legacy.json 1
expect_status 0 "a side with a run that has no reference: compared" \
	"$VK" compare five-old-1.json five-legacy.json --vs five-new-1.json five-new-2.json
contains "a side with a run that has no reference: the reference is unknown" "$TMP/out" \
	'^reference +unknown \(a file has no reference loop\)'
bench five-arm.json 1 aarch64 1.0 5
expect_status 0 "a run of another machine within a side: compared" "$VK" compare five-old-1.json five-arm.json --vs five-new-1.json
contains "a run of another machine within a side: warned of" "$TMP/err" \
	'warning: the runs come from different machines: x86_64 \(five-old-1\.json\), aarch64 \(five-arm\.json\)'
expect_status 2 "--vs with nothing after it" "$VK" compare old.json --vs
contains "--vs with nothing after it: said" "$TMP/err" '--vs needs a file before it and one after it'
expect_status 2 "--vs with nothing before it" "$VK" compare --vs old.json
expect_status 2 "--vs twice" "$VK" compare old.json --vs same.json --vs slower.json
contains "--vs twice: said" "$TMP/err" '--vs is given once'
expect_status 2 "--vs with --impl" "$VK" compare --impl "$O/tests/impl/passthrough.so" --vs clock-gettime-monotonic
contains "--vs with --impl: said" "$TMP/err" '--vs compares files, not --impl'
# A run given twice in a side would count its processes twice: a
# 2-process run given 4 times a side passed the 7-process minimum and got
# a verdict (issue 47, part 3). Refused, whether the copies are one file
# or copies of it; a file from before run_id is told by its samples.
"$VK" bench -d 0.02 --processes 2 time --paths vdso --format json >two.json
cp two.json two-copy.json
expect_status 2 "a bench run given twice in a side is refused" \
	"$VK" compare two.json two.json two.json two.json --vs two.json two.json two.json two.json
contains "saying which files are one run" "$TMP/err" \
	'two\.json and two\.json are one bench run: its processes would count twice'
expect_status 2 "a copy of a bench run in a side is refused, by its run_id" \
	"$VK" compare two.json two-copy.json --vs two.json
contains "naming both" "$TMP/err" 'two\.json and two-copy\.json are one bench run'
expect_status 2 "a file from before run_id given twice is refused, by its samples" \
	"$VK" compare legacy-old.json legacy-old.json --vs legacy-new.json
expect_status 0 "one run a side, the same on both sides, is still compared" "$VK" compare two.json two.json
# An API name with a NUL in it would be cut there and matched as "time".
printf '%s\n' '{"schema": "vdsokit-bench/2", "results": [{"api": "time\u0000x", "path": "vdso",' \
	' "samples_ns": [1.3], "process_samples_ns": [[1.3]]}]}' >nul.json
expect_status 2 "an API name holding a NUL is refused" "$VK" compare nul.json nul.json
contains "saying where" "$TMP/err" 'nul\.json: results\[0\]\.api holds a NUL \(\\u0000\)'
# getrandom's length (bench --length): files of different lengths are
# refused, across the sides or within one; a file without it measured 16.
for f in old same slower; do
	sed 's/"cold": false}/"cold": false, "getrandom_length": 1263}/' $f.json >$f-1263.json
done
check "(the 1263-byte files were made)" grep -q '"getrandom_length": 1263' old-1263.json
expect_status 2 "files of different getrandom lengths are refused" "$VK" compare old.json --vs same-1263.json
contains "... naming each file and its length" "$TMP/err" \
	'old\.json measured getrandom with --length 16, same-1263\.json with --length 1263: .*cannot be compared'
expect_status 2 "... and so within a side" "$VK" compare old.json slower-1263.json --vs same.json
expect_status 0 "files of one length, 1263, are compared" "$VK" compare old-1263.json same-1263.json
sed 's/"cold": false}/"cold": false, "getrandom_length": 0}/' old.json >len0.json
expect_status 2 "a getrandom_length of 0 is refused" "$VK" compare len0.json same.json
contains "... saying what it must be" "$TMP/err" 'len0\.json: .*getrandom_length is not a length from 1 to 1048576'
expect_status 2 "a missing file in a side" "$VK" compare old.json --vs same.json no-such.json
contains "a missing file in a side: named" "$TMP/err" 'no-such\.json: No such file or directory'
many=$(for i in $(seq 1 65); do printf 'old.json '; done)
# shellcheck disable=SC2086 # one word a file
expect_status 2 "65 files a side" "$VK" compare $many --vs same.json
contains "65 files a side: said" "$TMP/err" 'at most 64 files a side'

# The reference loop: where it moved beyond the threshold, the machine's
# speed moved, and no row gets a verdict; where it held, the verdict stands.
bench moved.json 1.10 x86_64 1.06
expect_status 0 "the machine moved 6%: a 10% slowdown exits 0" "$VK" compare old.json moved.json
contains "the machine moved: said above the table" "$TMP/out" \
	'^reference +1\.000 -> 1\.060 ns per step, 106\.0%: the machine.s own speed moved beyond the threshold; no verdicts$'
contains "the machine moved: the row has no verdict" "$TMP/out" "$(row clock-gettime-monotonic '110\.0% .* the machine moved: no verdict')"
expect_status 1 "the machine moved 6%, the threshold 7%: the regression stands" "$VK" compare --threshold 7 old.json moved.json
bench held.json 1.10 x86_64 1.03
expect_status 1 "the machine held (3%): a 10% slowdown is a regression" "$VK" compare old.json held.json
contains "the machine held: said above the table" "$TMP/out" \
	'^reference +1\.000 -> 1\.030 ns per step, 103\.0%: the machine.s own speed held$'
# Below the threshold, a row must leave the band from 100% to the
# machine's ratio by 1%, on the machine's side or the other way.
# band NAME ROW REFERENCE VERDICT DESC: a run whose row is ROW times old's
# and whose register loop took REFERENCE; compare exits 0, its row VERDICT.
band() {
	bench "$1.json" "$2" x86_64 "$3"
	expect_status 0 "$5: exits 0" "$VK" compare old.json "$1.json"
	contains "$5" "$TMP/out" "$(row clock-gettime-monotonic "$4")"
}
band slight-moved 1.02 1.015 '102\.0% .* ~$' "the machine 1.5% slower: a 2% slowdown is not significant"
band other-way 1.02 0.985 '102\.0% .* ~ \(significant\)' "the machine 1.5% faster: a 2% slowdown is significant"
band with-machine 0.965 0.97 '96\.5% .* ~$' "the machine 3% faster: a row 3.5% faster moved with it"
band beyond-machine 0.955 0.97 '95\.5% .* ~ \(significant\)' "the machine 3% faster: a row 4.5% faster moved beyond it"
# The loads moved: calls of under 32 loads (time's 1.3 ns against 0.25 ns
# a load) get no verdict, dearer ones keep theirs.
bench loads-old.json 1 x86_64 1.0 8 100 0.25
bench loads-new.json 1.10 x86_64 1.0 8 100 0.30
expect_status 1 "the loads moved 20%: clock_gettime's regression stands" "$VK" compare loads-old.json loads-new.json
contains "the loads moved: said above the table" "$TMP/out" \
	'^loads +0\.250 -> 0\.300 ns per load, 120\.0%: the core.s loads moved beyond the threshold; no verdicts on calls of a few loads$'
contains "the loads moved: a call of a few loads has no verdict" "$TMP/out" "$(row time 'the machine moved: no verdict')"
contains "the loads moved: a dearer call keeps its verdict" "$TMP/out" "$(row clock-gettime-monotonic '110\.0% .* regression')"
bench loads-held.json 1.10 x86_64 1.0 8 100 0.26
expect_status 1 "the loads held (4%): regression" "$VK" compare loads-old.json loads-held.json
contains "the loads held: said above the table" "$TMP/out" '^loads +0\.250 -> 0\.260 ns per load, 104\.0%: the core.s loads held$'
contains "the loads held: a call of a few loads keeps its verdict" "$TMP/out" "$(row time '~')"
# The syscall's own cost moved: calls that cost half a syscall or more
# get no verdict (here clock_gettime's 22.6 ns against a 20 ns syscall),
# cheaper ones keep theirs.
bench sys-old.json 1 x86_64 1.0 8 20
bench sys-new.json 1.10 x86_64 1.0 8 24
expect_status 0 "the syscall moved 20%: exits 0" "$VK" compare sys-old.json sys-new.json
contains "the syscall moved: said above the table" "$TMP/out" \
	'^syscall +20\.0 -> 24\.0 ns \(getppid\), 120\.0%: the kernel.s entry and exit moved beyond the threshold; no verdicts on calls that cost a syscall$'
contains "the syscall moved: a call that costs one has no verdict" "$TMP/out" "$(row clock-gettime-monotonic '110\.0% .* the machine moved: no verdict')"
contains "the syscall moved: a cheaper call keeps its verdict" "$TMP/out" "$(row time '~')"
# A row that moved further than the machine by the threshold gets its
# verdict all the same, and says how far beyond the machine's move.
bench sys-far.json 1.30 x86_64 1.0 8 21.5
expect_status 1 "the syscall moved 7.5%, the row 30%: a regression" "$VK" compare sys-old.json sys-far.json
contains "the row moved beyond the machine: said in the row" "$TMP/out" \
	"$(row clock-gettime-monotonic "130\.0% .* regression \(\+20\.9% beyond the machine's own \+7\.5%\)")"
contains "the row moved beyond the machine: said above the table" "$TMP/out" \
	'^but 1 row moved further than the machine, by more than the threshold: its verdict stands$'
"$VK" compare --format json sys-old.json sys-far.json >"$TMP/far.json"
schema_valid "the row moved beyond the machine: its JSON follows compare.json" compare "$TMP/far.json"
bench sys-held.json 1.10 x86_64 1.0 8 20.5
expect_status 1 "the syscall held (2.5%): the 10% slowdown is a regression" "$VK" compare sys-old.json sys-held.json
"$VK" compare --output "$TMP/moved" old.json moved.json >/dev/null
contains "the machine moved: KTAP skips the row, saying why" "$TMP/moved/report.ktap" \
	'^ok 1 clock-gettime-monotonic vdso # SKIP the machine moved: no verdict$'
contains "the machine moved: KTAP's totals count it skipped" "$TMP/moved/report.ktap" 'pass:0 fail:0 xfail:0 xpass:0 skip:2 error:0'
contains "the machine moved: the JSON says so" "$TMP/moved/report.json" '"machine_moved": true'

expect_status 0 "runs from different machines still compare" "$VK" compare old.json arm.json
contains "runs from different machines: a warning" "$TMP/err" \
	"^vdsokit compare: warning: the runs come from different machines: x86_64 \(old\.json\), aarch64 \(arm\.json\)$"
expect_status 0 "runs from one machine: no warning" "$VK" compare old.json same.json
check "runs from one machine: stderr is empty" test ! -s "$TMP/err"

expect_status 1 "--format json exits 1 on a regression" "$VK" compare --format json old.json slower.json
contains "--format json gives the verdict" "$TMP/out" '^      "verdict": "regression"$'
if need python3; then
	check "--format json is valid JSON with the fields" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
r = d["results"][0]
assert d["schema"] == "vdsokit-compare/2" and d["environment"]["options"]["threshold_pct"] == 5
assert (r["api"], r["path"], r["verdict"], r["significant"]) == ("clock-gettime-monotonic", "vdso", "regression", True)
assert abs(r["ratio_pct"] - 110) < 1e-6 and r["ci95_low_pct"] - 1e-6 <= 110 <= r["ci95_high_pct"] + 1e-6 and r["p"] < 0.001
assert abs(r["shift_ns"] - 2.26) < 0.05 and r["old_samples"] == 24 and r["old_groups"] == 8
g = d["summary"].pop("geomean")
assert d["summary"] == {"compared": 2, "regressions": 1, "improvements": 0, "unchanged": 1, "no_verdict": 0, "not_compared": 2}
assert abs(g - 1.1 ** 0.5) < 1e-3, g
assert d["environments"]["kernel"] == {"old": "6.18.44", "new": "6.18.44"}, d["environments"]
' "$TMP/out"
else
	skip "--format json is valid JSON with the fields" "python3 is not installed"
fi
# Above the table, the two environments; below it, the one-line summary.
sed 's/"clocksource": "tsc"/"clocksource": "kvm-clock"/' old.json >kvm.json
expect_status 1 "a slower run on another clocksource exits 1" "$VK" compare kvm.json slower.json
contains "the environments' diff names a clocksource that differs" "$TMP/out" '^clocksource +kvm-clock -> tsc \(differs\)$'
contains "the environments' diff shows the kernel both ran" "$TMP/out" '^kernel +6\.18\.44$'
contains "the environments' diff says when a file has no governor" "$TMP/out" '^governor +unknown$'
last=$(tail -n 1 "$TMP/out")
check "the last line sums up with the geometric mean ($last)" test "$last" = "0 faster, 1 slower, 1 unchanged; geometric mean 1.049"
expect_status 0 "a faster run exits 0" "$VK" compare old.json faster.json
check "the summary counts it faster" sh -c "tail -n 1 '$TMP/out' | grep -qx '1 faster, 0 slower, 1 unchanged; geometric mean 0.949'"
expect_status 1 "--format markdown exits 1 on a regression" "$VK" compare --format markdown old.json slower.json
contains "--format markdown has a before, after and ratio header" "$TMP/out" '^\| API \| path \| before \(ns\) \| after \(ns\) \| after/before \| verdict \|$'
contains "--format markdown has the regression's row" "$TMP/out" '^\| clock-gettime-monotonic \| vdso \| 22\.60 \| 24\.86 \| 1\.100 \| regression \|$'
contains "--format markdown ends with the summary" "$TMP/out" '^0 faster, 1 slower, 1 unchanged; geometric mean 1\.049$'
expect_status 2 "an unknown format is a usage error" "$VK" compare --format yaml old.json same.json
contains "the unknown format is named with the known ones" "$TMP/err" "unknown format 'yaml' \(text, ktap, json, markdown or html\)"
# --output DIR: the report in every format, the HTML one rendered.
expect_status 1 "compare --output exits as compare does" "$VK" compare --output "$TMP/co" old.json slower.json
for f in report.txt report.json report.ktap report.html; do
	check "compare --output writes $f" test -s "$TMP/co/$f"
done
check "report.txt is the text report" cmp "$TMP/out" "$TMP/co/report.txt"
contains "report.ktap has the regression as not ok" "$TMP/co/report.ktap" '^not ok 1 clock-gettime-monotonic vdso$'
contains "report.ktap has the summary" "$TMP/co/report.ktap" '^# 0 faster, 1 slower, 1 unchanged; geometric mean 1\.049$'
# KTAP and HTML on stdout too: the files' bytes.
for f in ktap html; do
	"$VK" compare --format $f old.json slower.json >"$TMP/out.$f" 2>/dev/null
	check "compare --format $f prints report.$f" cmp "$TMP/out.$f" "$TMP/co/report.$f"
done
render "$TMP/co/report.html" "$TMP/compare"
case $? in
1) skip "headless Chromium renders compare's HTML report" "$render_why" ;;
2) not_ok "headless Chromium renders compare's HTML report" "$render_why" ;;
*)
	ok "headless Chromium renders compare's HTML report"
	not_blank "$TMP/compare.png"
	check "its DOM has one mark per compared row" test "$(marks "$TMP/compare.dom")" = 2
	;;
esac
"$VK" compare old.json slower.json >"$TMP/again" 2>&1
"$VK" compare old.json slower.json >"$TMP/again2" 2>&1
check "the output is the same from run to run" cmp "$TMP/again" "$TMP/again2"

# Every error exits 2 with its message.
expect_status 0 "--help exits 0" "$VK" compare --help
contains "--help shows the usage" "$TMP/out" '^Usage: vdsokit compare '
expect_status 0 "help compare is compare --help" "$VK" help compare
expect_status 2 "no files" "$VK" compare
contains "no files: said" "$TMP/err" 'expected two files, OLD.json and NEW.json, got 0'
expect_status 2 "one file" "$VK" compare old.json
expect_status 2 "three files" "$VK" compare old.json same.json slower.json
contains "three files: said" "$TMP/err" 'got 3'
contains "three files: --vs suggested" "$TMP/err" 'OLD\.json\.\.\. --vs NEW\.json\.\.\.'
expect_status 2 "an unknown option" "$VK" compare --no-such-option old.json same.json
contains "an unknown option: points to --help" "$TMP/err" "Try 'vdsokit compare --help'"
expect_status 2 "an unknown format" "$VK" compare --format yaml old.json same.json
contains "an unknown format: named" "$TMP/err" "unknown format 'yaml'"
for t in abc -x 5x inf nan ''; do
	expect_status 2 "--threshold '$t' is refused" "$VK" compare --threshold "$t" old.json same.json
	contains "--threshold '$t': said" "$TMP/err" "--threshold: '$t' is not a number"
done
for t in -1 1000.5; do
	expect_status 2 "--threshold $t is refused" "$VK" compare --threshold "$t" old.json same.json
	contains "--threshold $t: the bounds said" "$TMP/err" "--threshold takes 0 to 1000"
done
expect_status 0 "--threshold 0 is accepted" "$VK" compare --threshold 0 old.json same.json

expect_status 2 "a missing file" "$VK" compare old.json nonexistent.json
contains "a missing file: said" "$TMP/err" '^vdsokit compare: nonexistent\.json: No such file or directory$'
mkdir -p adir
expect_status 2 "a directory" "$VK" compare adir old.json
contains "a directory: said" "$TMP/err" '^vdsokit compare: adir: a directory, not a regular file$'

# bad NAME DESC PATTERN: FILE (written from stdin) as NEW is refused, saying PATTERN.
bad() {
	cat >"$1"
	expect_status 2 "$2" "$VK" compare old.json "$1"
	contains "$2: said" "$TMP/err" "$3"
}
printf '' | bad empty.json "an empty file" '^vdsokit compare: empty\.json:1:1: not valid JSON: expected a value'
bad notjson.json "not JSON" '^vdsokit compare: notjson\.json:3:16: not valid JSON: trailing comma before '"']'"'$' <<'EOF'
{
  "schema": "vdsokit-bench/1",
  "results": [1,]
}
EOF
bad text.json "a text file" '^vdsokit compare: text\.json:1:1: not valid JSON: expected a value, found '"'h'" <<'EOF'
hello
EOF
bad truncated.json "a truncated file" 'truncated\.json:2:[0-9]+: not valid JSON: unterminated string' <<'EOF'
{"schema": "vdsokit-bench/1",
 "results": [{"api": "ti
EOF
bad v3.json "another schema" '^vdsokit compare: v3\.json: schema is "vdsokit-bench/3", expected "vdsokit-bench/2" or /1$' <<'EOF'
{"schema": "vdsokit-bench/3", "results": []}
EOF
bad noschema.json "no schema" 'noschema\.json: no "schema" string: not a vdsokit bench file' <<'EOF'
[{"api": "time"}]
EOF
bad noresults.json "no results" 'noresults\.json: no "results" array' <<'EOF'
{"schema": "vdsokit-bench/1", "results": {}}
EOF
bad noapi.json "a result without an api" 'noapi\.json: results\[1\] has no "api" string' <<'EOF'
{"schema": "vdsokit-bench/1", "results": [{"api": "time", "path": "vdso", "skipped": "x"}, {"path": "vdso"}]}
EOF
bad nopath.json "a result without a path" 'nopath\.json: results\[0\] has no "path" string' <<'EOF'
{"schema": "vdsokit-bench/1", "results": [{"api": "time", "path": 3}]}
EOF
bad nosamples.json "a result without samples" 'results\[0\] \(time on vdso\) has neither "samples_ns" nor "skipped"' <<'EOF'
{"schema": "vdsokit-bench/1", "results": [{"api": "time", "path": "vdso", "median_ns": 1.3}]}
EOF
bad badprocs.json "process samples that are not arrays of numbers" 'results\[0\]\.process_samples_ns\[1\]: "x" is not an array$' <<'EOF'
{"schema": "vdsokit-bench/1", "results": [{"api": "time", "path": "vdso", "samples_ns": [1.3], "process_samples_ns": [[1.3], "x"]}]}
EOF
bad emptysamples.json "a result with no samples" 'results\[0\]\.samples_ns: the array is empty$' <<'EOF'
{"schema": "vdsokit-bench/1", "results": [{"api": "time", "path": "vdso", "samples_ns": []}]}
EOF
bad strsample.json "a sample that is not a number" 'results\[0\]\.samples_ns\[1\]: "1\.4" is not a number$' <<'EOF'
{"schema": "vdsokit-bench/1", "results": [{"api": "time", "path": "vdso", "samples_ns": [1.3, "1.4"]}]}
EOF
bad repeat.json "a repeated result" 'repeat\.json: results\[1\] repeats time on vdso$' <<'EOF'
{"schema": "vdsokit-bench/1", "results": [{"api": "time", "path": "vdso", "skipped": "x"},
 {"api": "time", "path": "vdso", "samples_ns": [1.3]}]}
EOF
# A key twice in an object: Python's json takes the last, vdsokit's
# reader would take the first, so neither is trusted.
bad dupkey.json "a key twice in a row" \
	'^vdsokit compare: dupkey\.json:2:55: not valid JSON: the key "samples_ns" is repeated in an object$' <<'EOF'
{"schema": "vdsokit-bench/1", "results": [
 {"api": "time", "path": "vdso", "samples_ns": [1.3], "samples_ns": [2.6]}]}
EOF
{ sed '$d' old.json; echo ', "schema": "vdsokit-bench/3"}'; } | bad dupschema.json "a bench file with its schema twice" \
	'^vdsokit compare: dupschema\.json:[0-9]+:[0-9]+: not valid JSON: the key "schema" is repeated in an object$'
bad none.json "no results at all" '^vdsokit compare: old\.json and none\.json have no API and path with samples in both$' <<'EOF'
{"schema": "vdsokit-bench/1", "results": []}
EOF
bad other.json "nothing in common" 'have no API and path with samples in both' <<'EOF'
{"schema": "vdsokit-bench/1", "results": [{"api": "getcpu", "path": "vdso", "samples_ns": [1.3]},
 {"api": "getrandom", "path": "libc", "samples_ns": [259]}]}
EOF

# Side by side: two libraries measured in turn in one process. The
# pass-through against its own copy is no regression; against itself made
# 30% slower (tests/impl/slow-5pct.c with VK_SLOWDOWN_PCT) it is one.
IMPL=$O/tests/impl
cp "$IMPL/passthrough.so" copy.so
side() {
	"$VK" compare -d 0.05 -n 48 "$@"
}
expect_status 0 "side by side: identical libraries exit 0" \
	side --impl "$IMPL/passthrough.so" --impl ./copy.so clock-gettime-monotonic time
contains "side by side: names both sides" "$TMP/out" "^new: \./copy\.so$"
contains "side by side: a row on impl for time" "$TMP/out" '^time +impl +[0-9.]+ ns +[0-9.]+ ns +[0-9.]+% .* ~'
contains "side by side: the summary" "$TMP/out" '^2 compared at a threshold of 5%: 0 regressions'
VK_SLOWDOWN_PCT=30 expect_status 1 "side by side: 30% slower exits 1" \
	side --impl "$IMPL/passthrough.so" --impl "$IMPL/slow-5pct.so" clock-gettime-monotonic
contains "side by side: 30% slower is a regression" "$TMP/out" \
	'^clock-gettime-monotonic +impl +[0-9.]+ ns +[0-9.]+ ns +1[1-9][0-9]\.[0-9]% .* regression$'
expect_status 1 "side by side: the syscall pass-through is slower than the vDSO" \
	side --impl "$IMPL/passthrough.so" --format json time
contains "side by side, json: says it was interleaved" "$TMP/out" '"interleaved": true'
contains "side by side, json: the row is vdso against impl" "$TMP/out" '"path": "vdso:impl"'
# Each library is loaded --copies times, the groups the test compares:
# one copy a side is too few for a verdict, however slow.
VK_SLOWDOWN_PCT=30 expect_status 0 "side by side: one copy a side exits 0 on a 30% slowdown" \
	side --copies 1 -n 4 --impl "$IMPL/passthrough.so" --impl "$IMPL/slow-5pct.so" clock-gettime-monotonic
contains "side by side: one copy a side is too few runs for a verdict" "$TMP/out" \
	'^clock-gettime-monotonic +impl .* too few runs for a verdict$'
contains "side by side: and says how many loads" "$TMP/out" '^\(measured in turn in one process, each library loaded 1 time\)$'
expect_status 2 "side by side: --copies 33 is refused" side --copies 33 --impl ./copy.so time
contains "side by side: --copies 33 is said" "$TMP/err" '--copies takes 1 to 32'
expect_status 2 "side by side: fewer than 2 samples a copy is refused" "$VK" compare -n 8 --impl ./copy.so time
contains "side by side: fewer than 2 samples a copy is said" "$TMP/err" '--samples is 8: at least 2 per copy, 48 in all'
expect_status 2 "side by side: a third --impl" side --impl a.so --impl b.so --impl c.so
contains "side by side: a third --impl is said" "$TMP/err" 'given at most twice'
expect_status 2 "side by side: -d without --impl" "$VK" compare -d 1 old.json same.json
contains "side by side: -d without --impl is said" "$TMP/err" 'need --impl'
expect_status 2 "side by side: a missing library" side --impl ./nonexistent.so time
contains "side by side: a missing library is said" "$TMP/err" 'nonexistent\.so'
expect_status 2 "side by side: an unknown API" side --impl ./copy.so no-such-api
expect_status 2 "side by side: a bad --samples" side --impl ./copy.so -n 1 time
# A side whose calls fail has no figure and no verdict: its time is the
# failure's (issue 47, part 2). The row names the call, the errno and how
# often, and compare exits 1.
if [ -f "$IMPL/fail-einval.so" ]; then
	expect_status 1 "side by side: a library whose clock_gettime fails exits 1" \
		side --copies 2 -n 8 --impl "$IMPL/fail-einval.so" clock-gettime-monotonic time
	contains "its row names the call, the errno and how often, with no verdict" "$TMP/out" \
		'^clock-gettime-monotonic +vdso:impl +no figure, no verdict: on the new side, clock_gettime failed: Invalid argument \(errno 22\), ([0-9]+) of \1 calls$'
	check "no improvement is claimed" sh -c "! grep -Eq ' improvement$' '$TMP/out'"
	contains "stderr says so too" "$TMP/err" 'clock-gettime-monotonic on the new side: clock_gettime failed'
	expect_status 1 "side by side: every row failed still exits 1, with a report" \
		side --copies 2 -n 8 --format json --impl "$IMPL/fail-einval.so" clock-gettime-monotonic
	schema_valid "its JSON, with the failed row, follows compare.json" compare "$TMP/out"
	contains "the JSON names the failed row" "$TMP/out" '"why": "clock_gettime failed: Invalid argument'
	expect_status 1 "side by side, ktap: the failed row is not ok" \
		side --copies 2 -n 8 --format ktap --impl "$IMPL/fail-einval.so" clock-gettime-monotonic
	contains "not ok, named" "$TMP/out" '^not ok 1 clock-gettime-monotonic vdso:impl$'
	# A crash is in the report too, as its case's row, beside the cases
	# measured, in every format; named on stderr as before (issue 47, part 6).
	for fmt in text json ktap markdown html; do
		expect_status 1 "side by side: a library that crashes, --format $fmt: exit 1" \
			side --copies 2 -n 8 --format $fmt --impl "$IMPL/crash-clock.so" time clock-gettime-monotonic
		check "side by side: a library that crashes, --format $fmt: the report is written" \
			test -s "$TMP/out"
		contains "side by side: a library that crashes, --format $fmt: the crash is in it" \
			"$TMP/out" 'the child that measured it was killed by SIGSEGV'
	done
	contains "the crash is named on stderr" "$TMP/err" 'crash-clock\.so: measuring clock-gettime-monotonic, it was killed by SIGSEGV'
	expect_status 1 "side by side: a crash, in text" side --copies 2 -n 8 \
		--impl "$IMPL/crash-clock.so" time clock-gettime-monotonic
	contains "its row names the side that died alone" "$TMP/out" \
		'^clock-gettime-monotonic +vdso:impl +no figure, no verdict: on the new side, the child that measured it was killed by SIGSEGV$'
	contains "the other case is compared" "$TMP/out" '^time +vdso:impl +[0-9.]+ ns'
	expect_status 1 "side by side: a crash, in JSON" side --copies 2 -n 8 --format json \
		--impl "$IMPL/crash-clock.so" clock-gettime-monotonic
	schema_valid "its JSON follows compare.json" compare "$TMP/out"
	# Files: a bench run whose calls failed has no figure there; merged
	# with runs that measured the row (vm's A/B boots too), it still fails.
	"$VK" bench -d 0.02 --processes 2 --impl "$IMPL/fail-einval.so" --paths impl \
		clock-gettime-monotonic time --format json >failed.json
	"$VK" bench -d 0.02 --processes 2 --impl "$IMPL/passthrough.so" --paths impl \
		clock-gettime-monotonic time --format json >fine.json
	expect_status 1 "files: a run whose calls failed exits 1" "$VK" compare fine.json failed.json
	contains "its row names the failure, with no verdict" "$TMP/out" \
		'^clock-gettime-monotonic +impl +no figure, no verdict: on the new side, clock_gettime failed: Invalid argument \(errno 22\)'
	contains "the other row is compared" "$TMP/out" '^time +impl +[0-9.]+ ns'
	"$VK" bench -d 0.02 --processes 2 --impl "$IMPL/passthrough.so" --paths impl \
		clock-gettime-monotonic time --format json >fine2.json
	expect_status 1 "files: one failed run among a side's fails the row" "$VK" compare \
		fine.json failed.json --vs fine.json fine2.json
	contains "on the old side" "$TMP/out" '^clock-gettime-monotonic +impl +no figure, no verdict: on the old side'
fi
if [ -f "$IMPL/no-vdso.so" ]; then
	expect_status 4 "side by side: a library with no __vdso_ functions exits 4" side --impl "$IMPL/no-vdso.so" time
	contains "side by side: nothing on both sides is said" "$TMP/err" 'have no API and path with samples in both'
else
	skip "side by side: a library with no __vdso_ functions exits 4" "$IMPL/no-vdso.so is not built (a static build has no --impl)"
fi
