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
contains "and says how long each case took" "$TMP/run.out" '^# shows_ktap took [0-9]+ s$'
