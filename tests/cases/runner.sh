# tests/run.sh's totals count each case's own result lines only: the
# lines of a file that a failure shows (a KTAP report full of "ok N")
# are diagnostics, never passes.
. "$TOP/tests/lib.sh"

planted=$TMP/planted
mkdir -p "$planted"
cat >"$planted/shows_ktap.sh" <<'CASE'
. "$TOP/tests/lib.sh"
not_ok "a failure that shows a report" "$(printf 'ok 1 a\nok 2 b\nnot ok 3 c\nok 4 d # SKIP e')"
skip "a skip" "a reason"
CASE
TMPDIR=$TMP "$TOP/tests/run.sh" "$planted/shows_ktap.sh" >"$TMP/run.out" 2>&1
check "run.sh fails a run with a failure" test $? = 1
contains "and counts the case's results alone" "$TMP/run.out" '^0 passed, 1 failed, 1 skipped$'
contains "the shown report's lines are diagnostics" "$TMP/run.out" '^#   ok 2 b$'
contains "and says how long each case took" "$TMP/run.out" '^# shows_ktap took [0-9]+ s \(CPU: [0-9]+ s\)$'
contains "and how to rerun a failed case alone" "$TMP/run.out" '^# rerun: tests/run.sh .*/shows_ktap\.sh$'
contains "and names the failed check with its case at the end" "$TMP/run.out" '^#   shows_ktap: a failure that shows a report$'
contains "with the command that reruns the failed cases" "$TMP/run.out" '^# rerun them: tests/run.sh .*/shows_ktap\.sh$'
check "the totals stay the last line" sh -c "tail -n 1 '$TMP/run.out' | grep -qx '0 passed, 1 failed, 1 skipped'"

# -j: cases run at once, each in a TMP of its own, each one's output shown
# whole; a case marked '# serial' runs after them, with none beside it.
for n in 1 2 3; do
	cat >"$planted/at_once$n.sh" <<CASE
. "\$TOP/tests/lib.sh"
echo "\$TMP" >"$TMP/tmp$n"
touch "$TMP/running.$n"
ok "at_once$n begins"
sleep 1
ok "at_once$n ends"
rm "$TMP/running.$n"
CASE
done
cat >"$planted/alone.sh" <<CASE
# serial: the test of it
. "\$TOP/tests/lib.sh"
check "alone runs with no other case" test -z "\$(ls "$TMP"/running.* 2>/dev/null)"
CASE
TMPDIR=$TMP "$TOP/tests/run.sh" -j3 "$planted/alone.sh" "$planted"/at_once*.sh >"$TMP/run.out" 2>&1
check "run.sh -j3 passes cases that pass" test $? = 0
contains "and counts them all" "$TMP/run.out" '^7 passed, 0 failed, 0 skipped$'
check "and names no failure, nor a case to rerun" sh -c "! grep -Eq '^# (failed|rerun)' '$TMP/run.out'"
check "each case has a TMP of its own" test "$(sort -u "$TMP"/tmp[123] | wc -l)" = 3
check "the serial case ran last" test "$(grep -E '^# [a-z_0-9]+ took' "$TMP/run.out" | tail -n 1 | cut -d' ' -f2)" = alone
# Run at once, their lines would mix: a begins, b begins, a ends.
whole=$(grep '^ok - at_once' "$TMP/run.out" |
	awk 'NR % 2 { c = $3; if ($4 != "begins") bad = 1; next } $3 != c || $4 != "ends" { bad = 1 }
	     END { print bad ? "no" : "yes" }')
check "each case's output is shown whole" test "$whole" = yes
expect_status 2 "run.sh -j 0 is a usage error" "$TOP/tests/run.sh" -j 0

# --run NAME: a failed check is named with the command that reruns it
# alone, which shows and counts that check only, and the case ends once
# the check has run.
cat >"$planted/named.sh" <<CASE
. "\$TOP/tests/lib.sh"
ok "one"
touch "$TMP/after_one"
not_ok "two *star's" "a diagnostic"
ok "three"
CASE
TMPDIR=$TMP "$TOP/tests/run.sh" "$planted/named.sh" >"$TMP/run.out" 2>&1
cmd=$(sed -n 's/^#     \(tests\/run\.sh --run .*\)$/\1/p' "$TMP/run.out")
check "a failed check is named with the command that reruns it alone" \
	test "$cmd" = "tests/run.sh --run 'two \\*star'\\''s' $planted/named.sh"
rm -f "$TMP/after_one"
(cd "$TOP" && TMPDIR=$TMP eval "$cmd") >"$TMP/run.out" 2>&1
check "which fails" test $? = 1
contains "and counts that check alone" "$TMP/run.out" '^0 passed, 1 failed, 0 skipped$'
contains "with its diagnostics" "$TMP/run.out" '^#   a diagnostic$'
check "and shows no other check" sh -c "! grep -Eq '^ok - (one|three)' '$TMP/run.out'"
rm -f "$TMP/after_one"
TMPDIR=$TMP "$TOP/tests/run.sh" --run one "$planted/named.sh" >"$TMP/run.out" 2>&1
check "--run of a passing check passes" test $? = 0
contains "and counts it alone" "$TMP/run.out" '^1 passed, 0 failed, 0 skipped$'
check "the case ends once the check named has run" test ! -e "$TMP/after_one"
TMPDIR=$TMP "$TOP/tests/run.sh" --run 't*' "$planted/named.sh" >"$TMP/run.out" 2>&1
contains "--run takes a pattern" "$TMP/run.out" '^1 passed, 1 failed, 0 skipped$'
TMPDIR=$TMP "$TOP/tests/run.sh" --run four "$planted/named.sh" >"$TMP/run.out" 2>&1
check "--run of a check no case has fails" test $? = 1
contains "and says so" "$TMP/run.out" '^not ok - no check of named is named four$'

# An interrupt (SIGINT from a terminal, SIGTERM from a job's limit) ends
# the cases that run, with everything they started, and the run, with
# the shell's status for it: no case runs on after the runner. A case
# started by a script with & ignores SIGINT, as the runner started here
# does: SIGTERM reaches the same handler.
cat >"$planted/waits.sh" <<CASE
. "\$TOP/tests/lib.sh"
ok "waits begins"
sleep 300 &
echo \$! >"$TMP/child"
wait
CASE
TMPDIR=$TMP "$TOP/tests/run.sh" "$planted/waits.sh" >"$TMP/run.out" 2>&1 &
runner=$!
for ((i = 0; i < 300; i++)); do
	[ -s "$TMP/child" ] && break
	sleep 0.1
done
kill -TERM "$runner"
wait "$runner"
check "an interrupted run exits with the signal's status (143)" test $? = 143
contains "and says what it stopped" "$TMP/run.out" '^# interrupted by SIGTERM: stopping the running cases \(waits\)$'
child=$(cat "$TMP/child" 2>/dev/null)
if [ -z "$child" ]; then
	not_ok "and what the cases started ends with them" "the planted case started nothing in 30 s"
elif kill -0 "$child" 2>/dev/null; then
	not_ok "and what the cases started ends with them" "pid $child (sleep 300) still runs"
	kill "$child"
else
	ok "and what the cases started ends with them"
fi
