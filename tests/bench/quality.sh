#!/usr/bin/env bash
# make bench-quality: how good bench's and compare's figures are, measured
# here and now against the targets set for them. A benchmark is judged by
# a benchmark run, never by a timed unit test; this prints the figures and
# the commands that gave them, and exits 1 when a target is missed.
#   accuracy     vdso clock_gettime(MONOTONIC) within 3% of a plain
#                loop (tests/bench/reference.c), same CPU: the medians of 5
#                runs of each, in turn
#   precision    CV of the vdso median over 10 separate runs <= 2%
#   speed        bench --format json of every API on its three paths
#                in <= 15 s
#   A/A          two separate whole-table runs of the same binary, compared:
#                at most 1 significant row per 100, over 3 trials; rows
#                that say "the machine moved" are counted apart
#   separate     a planted 5% slowdown (tests/impl/syscalls-21.c against
#                syscalls-20.c), one bench run a side, called significant
#                in >= 9 of 10 trials
#   three runs   the same with three runs a side, old and new in turn as
#                vm --rounds 3 boots them, merged by compare OLD... --vs
#                NEW...: significant in >= 9 of 10, the identical pair in
#                <= 1 of 10
#   side by side compare --impl A --impl B, in one process: a planted 2%
#                slowdown (syscalls-51.c against syscalls-50.c) significant
#                in >= 9 of 10 trials, two identical libraries in <= 1 of 10
# TRIALS (10) and AA_TRIALS (3) set the trials.
set -u
O=${O:-build}
VK=$O/vdsokit
IMPL=$O/tests/impl
TRIALS=${TRIALS:-10}
AA_TRIALS=${AA_TRIALS:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cpu=$(( $(nproc) - 1 ))
api=clock-gettime-monotonic
missed=0

# median_of CSV: the median_ns of the first measured row.
median_of() {
	awk -F, 'NR > 1 && $3 != "" { print $3; exit }' "$1"
}

# verdict DESC OK: prints DESC with its verdict, counting a missed target
# (not in a subshell, so that the count survives).
verdict() {
	if [ "$2" = 1 ]; then echo "$1: met"; else echo "$1: MISSED"; missed=$((missed + 1)); fi
}

stats() {
	awk '{ s += $1; q += $1 * $1; n++ } END { m = s / n; v = (q - n * m * m) / (n - 1); printf "%.3f %.3f\n", m, sqrt(v > 0 ? v : 0) / m * 100 }'
}

# rows JSON FIELD VALUE: how many of a compare JSON's results have it.
rows() {
	grep -c "^      \"$2\": $3" "$1"
}

echo "# accuracy: 5 pairs in turn of $VK bench -d 0.3 --cpu $cpu $api --paths vdso and $O/tests/bench/reference (taskset -c $cpu)"
echo "  the median of each's 5: the machine's speed moves by several percent within seconds"
for i in 1 2 3 4 5; do
	"$VK" bench -d 0.3 --cpu $cpu $api --paths vdso --format csv >"$tmp/a.csv"
	b=$(median_of "$tmp/a.csv")
	r=$(taskset -c $cpu "$O/tests/bench/reference")
	echo "$b $r" >>"$tmp/pairs"
	echo "  pair $i: bench $b ns, plain loop $r ns"
done
bm=$(cut -d' ' -f1 "$tmp/pairs" | sort -n | sed -n 3p)
rm_=$(cut -d' ' -f2 "$tmp/pairs" | sort -n | sed -n 3p)
dev=$(awk -v b="$bm" -v r="$rm_" 'BEGIN { printf "%.2f", (b / r - 1) * 100 }')
verdict "accuracy: median bench $bm ns against median plain loop $rm_ ns: ${dev}% (target within 3%)" \
	"$(awk -v d="$dev" 'BEGIN { d = d < 0 ? -d : d; print d <= 3 }')"

echo "# precision: 10 runs of $VK bench $api --paths vdso"
for i in $(seq 1 10); do
	"$VK" bench $api --paths vdso --format csv >"$tmp/p.csv"
	median_of "$tmp/p.csv"
done >"$tmp/medians"
read -r mean cv < <(stats <"$tmp/medians")
echo "  medians: $(tr '\n' ' ' <"$tmp/medians")"
verdict "precision: mean ${mean} ns, CV ${cv}% (target <= 2%)" "$(awk -v c="$cv" 'BEGIN { print c <= 2 }')"

# A/A: each trial is two whole-table runs, the first also timed for speed.
echo "# speed and A/A: $AA_TRIALS trials of $VK bench --cpu $cpu --format json twice, then $VK compare A.json B.json"
slowest=0 compared=0 significant=0 moved=0
for i in $(seq 1 "$AA_TRIALS"); do
	start=$(date +%s%N)
	"$VK" bench --cpu $cpu --format json >"$tmp/aa1.json"
	secs=$(awk -v n=$(( $(date +%s%N) - start )) 'BEGIN { printf "%.2f", n / 1e9 }')
	slowest=$(awk -v s="$secs" -v w="$slowest" 'BEGIN { print (s > w ? s : w) }')
	"$VK" bench --cpu $cpu --format json >"$tmp/aa2.json"
	"$VK" compare --format json "$tmp/aa1.json" "$tmp/aa2.json" >"$tmp/aa.json"
	n=$(grep -c '^      "api"' "$tmp/aa.json")
	s=$(rows "$tmp/aa.json" significant true)
	m=$(rows "$tmp/aa.json" verdict '"the machine moved: no verdict"')
	ref=$(sed -n 's/^    "ratio_pct": \([0-9.]*\).*/\1/p' "$tmp/aa.json" | xargs printf "%.1f")
	echo "  trial $i: $n rows, $s significant, $m 'the machine moved'; reference ${ref}%; first run ${secs} s"
	grep -B14 '"significant": true' "$tmp/aa.json" | grep -E '"(api|path|ratio_pct|p)"' | paste - - - - | sed 's/^ */    /'
	compared=$((compared + n)) significant=$((significant + s)) moved=$((moved + m))
done
verdict "speed: a whole-table run took at most ${slowest} s (target <= 15 s)" "$(awk -v s="$slowest" 'BEGIN { print s <= 15 }')"
verdict "A/A: $significant significant of $compared rows, $moved without a verdict as the machine moved (target <= 1 per 100)" \
	"$(( significant * 100 <= compared ))"

ratio() {
	sed -n 's/^      "ratio_pct": \([0-9.]*\).*/\1/p' "$tmp/cmp.json" | head -n 1 | xargs printf "%.1f"
}
# trials HOW BASE SLOWER: TRIALS trials of HOW OLD NEW (true when it calls
# the change significant) on BASE against SLOWER and on BASE against a
# copy of itself (two libraries loaded apart, as two builds of the same
# code would be); sets slow and same to how often each was significant.
# The plants are tests/impl/syscalls-K.c: K syscalls a call, so that K + 1
# against K is the same slowdown in every trial.
trials() {
	slow=0 same=0
	cp "$IMPL/$2.so" "$tmp/$2-copy.so"
	for i in $(seq 1 "$TRIALS"); do
		"$1" "$IMPL/$2.so" "$IMPL/$3.so" && slow=$((slow + 1))
		r1=$(ratio) v1=$(sed -n 's/^      "verdict": "\(.*\)",*$/\1/p' "$tmp/cmp.json" | head -n 1)
		"$1" "$IMPL/$2.so" "$tmp/$2-copy.so" && same=$((same + 1))
		echo "  trial $i: slowed ${r1}% ($v1), identical $(ratio)%"
	done
}
significant() {
	[ "$1" -le 1 ] && grep -q '"significant": true' "$tmp/cmp.json"
}
ab() {
	"$VK" compare --cpu $cpu --format json --impl "$1" --impl "$2" $api >"$tmp/cmp.json"
	significant $?
}
files() {
	"$VK" bench --cpu $cpu --impl "$1" --paths impl $api --format json >"$tmp/old.json" &&
	"$VK" bench --cpu $cpu --impl "$2" --paths impl $api --format json >"$tmp/new.json" &&
	"$VK" compare --format json "$tmp/old.json" "$tmp/new.json" >"$tmp/cmp.json"
	significant $?
}

echo "# separate runs: $TRIALS trials of $VK bench --cpu $cpu --impl A --paths impl $api, then --impl B, then compare A.json B.json"
echo "  A: 20 syscalls a call, B: 21 (5% slower)"
trials files syscalls-20 syscalls-21
verdict "separate runs: 5% slowdown significant in $slow of $TRIALS (target >= 9)" "$(( slow * 10 >= TRIALS * 9 ))"
echo "  (identical pair significant in $same of $TRIALS)"

# runs3 OLD NEW: three bench runs of each in turn, compared merged.
runs3() {
	for r in 1 2 3; do
		"$VK" bench --cpu $cpu --impl "$1" --paths impl $api --format json >"$tmp/old-$r.json" &&
		"$VK" bench --cpu $cpu --impl "$2" --paths impl $api --format json >"$tmp/new-$r.json" || return 1
	done
	"$VK" compare --format json "$tmp"/old-[123].json --vs "$tmp"/new-[123].json >"$tmp/cmp.json"
	significant $?
}

echo "# three runs a side: $TRIALS trials of $VK bench --cpu $cpu --impl A (then B) --paths impl $api, three times in turn, then compare A1 A2 A3 --vs B1 B2 B3"
echo "  A: 20 syscalls a call, B: 21 (5% slower)"
trials runs3 syscalls-20 syscalls-21
verdict "three runs a side: 5% slowdown significant in $slow of $TRIALS (target >= 9)" "$(( slow * 10 >= TRIALS * 9 ))"
verdict "three runs a side: identical pair significant in $same of $TRIALS (target <= 1)" "$(( same * 10 <= TRIALS ))"

echo "# side by side: $TRIALS trials of $VK compare --cpu $cpu --impl A --impl B $api (one process)"
echo "  A: 50 syscalls a call, B: 51 (2% slower)"
trials ab syscalls-50 syscalls-51
verdict "side by side: 2% slowdown significant in $slow of $TRIALS (target >= 9)" "$(( slow * 10 >= TRIALS * 9 ))"
verdict "side by side: identical pair significant in $same of $TRIALS (target <= 1)" "$(( same * 10 <= TRIALS ))"
[ "$missed" = 0 ]
