# vdsokit all, the main job: its one-screen report, --verbose, and that a
# finding is named once with a command that reproduces it. How findings
# are grouped is proven by the unit test tests/unit/findings.c.
. "$TOP/tests/lib.sh"

# One run of the main job gives every format: stdout has the format
# asked for, and --output's DIR holds report.txt, .json, .ktap and .html.
# all's status is its commands' worst: 1 when the host's vDSO has a
# finding, which is a finding, not a failure of all. What is checked is
# the report's form, not a measurement: the runs are short (-d).
DIR=$TMP/report
"$VK" all -d 0.05 --format ktap --output "$DIR" >"$TMP/stdout.ktap" 2>"$TMP/all.err"
status=$?
cp "$DIR/report.txt" "$TMP/all.txt"
if [ $status -eq 0 ] || [ $status -eq 1 ]; then ok "all (the main job) exits 0 or 1 ($status)"; else not_ok "all (the main job) exits 0 or 1" "exit $status: $(head -c 300 "$TMP/all.err")"; fi
lines=$(wc -l <"$TMP/all.txt")
if [ "$lines" -le 60 ]; then ok "all's report fits on one screen ($lines lines)"; else not_ok "all's report fits on one screen" "$lines lines, more than 60"; fi
for step in info verify abi timens fallback bench; do
	contains "all has a row for $step" "$TMP/all.txt" "^$step +(ok|FAIL|SKIP) +[0-9]+ +[0-9]+ +[0-9]+ +[0-9.]+"
done
# info's row counts the functions info reports, Linux 7.3's futex unlocks
# among them (exported: passed; absent: skipped).
"$VK" info --format ktap >"$TMP/info.ktap" 2>&1
want="^info +ok +$(grep -E '^ok [0-9]+ ' "$TMP/info.ktap" | grep -vc '# SKIP') +0 +$(grep -c '^ok .*# SKIP' "$TMP/info.ktap") "
contains "all's info row counts info's functions, the futex unlocks too" "$TMP/all.txt" "$want"
contains "the header names the kernel" "$TMP/all.txt" "^kernel +Linux $(uname -r) "
contains "the header names the clocksource" "$TMP/all.txt" '^clocksource +[^ ]+: (serves|does not serve) the vDSO|^clocksource +[^ ]+: vDSO use unknown'
contains "the bench headline has clock-gettime-monotonic" "$TMP/all.txt" '^clock-gettime-monotonic +[0-9.]+ '
last=$(tail -n 1 "$TMP/all.txt")
case $last in
Verdict:\ *) ok "the report ends with the verdict" ;;
*) not_ok "the report ends with the verdict" "last line: $last" ;;
esac
contains "verify checked every API (the failure limit stops none)" "$TMP/all.txt" '^Verdict: .*; every API verified\.'
if [ $status -eq 1 ]; then
	contains "a failing run lists its findings" "$TMP/all.txt" '^Findings \([0-9]+\):$'
else
	check "a passing run has no finding" sh -c "! grep -q '^Findings' '$TMP/all.txt'"
fi
dups=$(grep -E '^[0-9]+\. ' "$TMP/all.txt" | sed 's/^[0-9]*\. //' | sort | uniq -d)
if [ -z "$dups" ]; then ok "no finding is named twice"; else not_ok "no finding is named twice" "$dups"; fi
# Each finding's reproduce command shows it again: it fails by itself.
grep -E '^   reproduce: vdsokit ' "$TMP/all.txt" | sed 's/^   reproduce: vdsokit //' |
while read -r cmd; do
	# shellcheck disable=SC2086
	expect_status 1 "'vdsokit $cmd' reproduces its finding" "$VK" $cmd
done
# This host's known finding, where the kernel has it: clock_getres
# succeeds in the vDSO for the aux clocks 16-23, which the syscall refuses.
desc="the aux-clock clock_getres finding is named once, with its clocks"
if "$VK" verify --paths vdso -d 0.05 clock-getres-id:16 >/dev/null 2>&1; then
	skip "$desc" "this kernel's vDSO agrees with the syscall on clock_getres for clock 16"
else
	n=$(grep -cE '^[0-9]+\. clock_getres succeeds where the syscall fails with EINVAL$' "$TMP/all.txt")
	if [ "$n" = 1 ] && grep -A1 -E '^[0-9]+\. clock_getres succeeds' "$TMP/all.txt" | grep -q '^   clocks 16-23, '; then
		ok "$desc"
	else
		not_ok "$desc" "named $n times; $(grep -A1 -E '^[0-9]+\. clock_getres' "$TMP/all.txt" | tr '\n' ' ')"
	fi
fi

# The progress line is for a terminal: none in the run above, whose
# stderr was a file; this run's stderr is a terminal (script's), and its
# stdout a file.
check "no progress line when stderr is no terminal" sh -c "! grep -q 'vdsokit all: .* done' '$TMP/all.err'"
# The quick tier runs the main job once: --verbose's run is make check's.
if [ -n "${QUICK:-}" ]; then
	skip "all --verbose and the progress line" "QUICK=1: make check runs the main job a second time for them"
elif need script; then
	script -qec "'$VK' all -d 0.05 --verbose >'$TMP/verbose.txt'" "$TMP/typescript" >/dev/null 2>&1
	contains "a progress line when stderr is a terminal" "$TMP/typescript" 'vdsokit all: verify \(2/6\), [0-9]+% done, about [0-9]+ s left'
	n=$(tr '\r' '\n' <"$TMP/typescript" | grep -oE '^.*vdsokit all: bench \(6/6\), [0-9]+% done' | sort -u | wc -l)
	check "the progress line moves on while bench runs ($n distinct lines)" test "$n" -gt 1
	check "bench prints no progress line of its own under all" sh -c "! tr '\r' '\n' <'$TMP/typescript' | grep -qE '^.*\[[0-9]+/[0-9]+\] '"
else
	"$VK" all -d 0.05 --verbose >"$TMP/verbose.txt" 2>"$TMP/err"
	skip "a progress line when stderr is a terminal" "script (util-linux) is not installed"
fi
if [ -z "${QUICK:-}" ]; then
	for section in info verify abi timens fallback bench verdict; do
		contains "all --verbose prints $section" "$TMP/verbose.txt" "^== $section ==\$"
	done
	contains "all --verbose prints every verify result" "$TMP/verbose.txt" '^clock-gettime-monotonic +vdso +[0-9]+ +[0-9]+ +(ok|FAIL)'
	contains "all --verbose prints verify's passing bounds, each" "$TMP/verbose.txt" \
		'^  clock-gettime-monotonic-coarse vdso ordered: the tightest bracket was [0-9]+ ns: an error over that was tested$'
	check "all --verbose ends with the verdict" sh -c "tail -n 1 '$TMP/verbose.txt' | grep -q '^Verdict: '"
fi
expect_status 2 "--verbose with --format json is a usage error" "$VK" all --verbose --format json
expect_status 2 "all refuses an unknown format" "$VK" all --format yaml

# all --format ktap: one KTAP v1 document, a subtest per command, each a
# whole KTAP document indented by two spaces, whose plan counts its
# results; a parent is "not ok" exactly when a child is.
for f in report.txt report.json report.ktap report.html; do
	check "--output writes $f" test -s "$DIR/$f"
done
check "stdout has the format asked for, as report.ktap" cmp "$TMP/stdout.ktap" "$DIR/report.ktap"
# A report to send per finding (tests/cases/repro.sh tests what they hold).
findings=$(sed -n 's/^Findings (\([0-9]*\)):$/\1/p' "$TMP/all.txt")
reports=$(ls "$DIR"/repro/*.txt 2>/dev/null | wc -l)
check "--output writes DIR/repro/NAME.txt for each of the ${findings:-0} findings" test "$reports" = "${findings:-0}"
if need python3; then
	# No stress here: it changes the clock, so all runs it inside vdsokit vm only.
	check "report.json holds each command's document, in order" python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); c=[x["command"] for x in d["children"]]; assert d["command"]=="all" and c==["info","verify","abi","timens","fallback","bench"], c' "$DIR/report.json"
	check "-d is the budget of verify, timens and bench" python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); s={x["command"]: x["environment"]["options"].get("seconds") for x in d["children"] if x["command"] in ("verify","timens","bench")}; assert s=={"verify": 0.05, "timens": 0.05, "bench": 0.05}, s' "$DIR/report.json"
else
	skip "report.json holds each command's document, in order" "python3 is not installed"
	skip "-d is the budget of verify, timens and bench" "python3 is not installed"
fi
schema_valid "report.json follows doc/json-schema/all.json, each child its command's" all "$DIR/report.json"
cp "$DIR/report.ktap" "$TMP/all.ktap"
if need python3; then
	check "the report lists the environment warnings of report.json, with their fixes" python3 -c '
import json, sys
w = [c for c in json.load(open(sys.argv[1]))["children"] if c["command"] == "bench"][0]["environment"]["warnings"]
t = open(sys.argv[2]).read()
assert all("- %s (%s); fix: %s" % (x["warning"], x["detail"], x["fix"]) in t for x in w), w
assert bool(w) == ("\nWarnings" in t), w
' "$DIR/report.json" "$DIR/report.txt"
fi
check "all's KTAP document starts with a KTAP version line" test "$(head -n 1 "$TMP/all.ktap")" = "KTAP version 1"
bad=$(grep -vE '^(  )*(KTAP version 1|1\.\.[0-9]+( # SKIP .+)?|# .*|(not )?ok [0-9]+ [^#]+( # (SKIP .+|ERROR))?)$' "$TMP/all.ktap" | head -n 3)
if [ -z "$bad" ]; then ok "every line follows the KTAP grammar"; else not_ok "every line follows the KTAP grammar" "$bad"; fi
top=$(grep -cE '^(not )?ok [0-9]+ ' "$TMP/all.ktap")
check "the top plan is 1..6 with six results" test "$(sed -n 3p "$TMP/all.ktap"):$top" = "1..6:6"
if awk '
	/^  KTAP version 1$/ { plan = -1; n = 0; failed = 0; next }
	/^  1\.\.[0-9]+/ { split($1, a, "."); plan = a[3]; next }
	/^  (not )?ok [0-9]+ / { n++; if ($1 == "not") failed = 1; next }
	/^(not )?ok [0-9]+ / {
		if (plan != n) { print "subtest " $NF ": plan " plan ", results " n; bad = 1 }
		if (($1 == "not") != failed) { print "subtest " $NF ": parent and children disagree"; bad = 1 }
	}
	END { exit bad }' "$TMP/all.ktap" >"$TMP/ktap.why"; then
	ok "each subtest's plan counts its results, and a parent fails exactly when a child does"
else
	not_ok "each subtest's plan counts its results, and a parent fails exactly when a child does" "$(head -n 3 "$TMP/ktap.why")"
fi
contains "the document ends with the totals" "$TMP/all.ktap" '^# Totals: pass:[0-9]+ fail:[0-9]+ xfail:0 xpass:0 skip:[0-9]+ error:0$'
if [ $status -eq 1 ]; then
	contains "the document names the findings" "$TMP/all.ktap" '^# finding 1: '
fi
expect_status 2 "--verbose with --output is a usage error" "$VK" all --verbose --output "$TMP/x"
expect_status 2 "--output into a file is a usage error" "$VK" all --output "$DIR/report.txt"

# The HTML report in a real browser: self-contained (no script, nothing
# fetched), and rendered by headless Chromium into a screenshot that is
# not blank, with one chart mark per measured bench row in its DOM.
html=$DIR/report.html
check "the HTML report has no script" sh -c "! grep -qi '<script' '$html'"
check "the HTML report fetches nothing" sh -c "! grep -oE '(src|href)=\"[a-z]+:' '$html' | grep -q ."
desc="headless Chromium renders the HTML report"
if [ -n "${QUICK:-}" ]; then
	# A browser's start is most of a minute of CPU under load.
	render_why="QUICK=1: make check renders it"
	false
else
	render "$html" "$TMP/all"
fi
case $? in
1) skip "$desc" "$render_why" ;;
2) not_ok "$desc" "$render_why" ;;
*)
	ok "$desc"
	not_blank "$TMP/all.png"
	rows=$(python3 -c 'import json,sys; print(sum(1 for r in [c for c in json.load(open(sys.argv[1]))["children"] if c["command"] == "bench"][0]["results"] if not r.get("skipped")))' "$DIR/report.json")
	n=$(marks "$TMP/all.dom")
	samples=$(grep -o '<g class="row">' "$TMP/all.dom" | wc -l)
	check "the DOM has one ns-per-call mark per measured row ($n marks, $rows rows)" test "$n" = "$rows" -a "$rows" -gt 0
	check "the DOM has one sample strip per measured row ($samples)" test "$samples" = "$rows"
	contains "the DOM has the fallback map" "$TMP/all.dom" '<table class="fallback">'
	contains "the DOM has the verdict table" "$TMP/all.dom" '<table class="verdict">'
	;;
esac
