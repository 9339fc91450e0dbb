# tests/lava/compare.py, which make check-lava runs on lava-run's output:
# on output recorded from a real lava-run (tests/lava/fixtures/, made by
# tests/lava/run.sh --record with the stand-in KTAP beside it) it finds
# LAVA's record equal to vdsokit's KTAP, and with a result planted lost,
# twice, renamed, changed, or named as LAVA refuses, or the KTAP cut
# short or a line of it lost, it fails naming the difference.
. "$TOP/tests/lib.sh"

F="$TOP/tests/lava/fixtures"
C="$TOP/tests/lava/compare.py"
if ! need python3 || ! python3 -c 'import yaml' 2>/dev/null; then
	skip "compare.py on lava-run's recorded output" "python3 with yaml (Debian's python3-yaml) is not installed"
	exit 0
fi
log="$F/stand-in.log"

expect_status 0 "the recorded output: LAVA's record equals vdsokit's KTAP" "$C" "$log"
contains "every result counted, vdsokit-all too" "$TMP/out" \
	'^equal: LAVA recorded 15 results, vdsokit.s 14 \(pass 10, fail 2, skip 2\) and vdsokit-all, each name once$'

# plant NAME SED-SCRIPT: $TMP/NAME.log, the recorded output edited.
plant() { sed -e "$2" "$log" >"$TMP/$1.log"; }
# differs DESC NAME PATTERN: compare.py exits 1 on NAME.log, saying PATTERN.
differs() {
	expect_status 1 "$1" "$C" "$TMP/$2.log"
	contains "$1: named" "$TMP/out" "$3"
}
result='"lvl": "results", "msg": {"case": '

plant lost "/${result}\"verify.getcpu-libc-node\"/d"
differs "a result lost" lost '^not equal: lost: vdsokit.s verify.getcpu-libc-node skip is not in LAVA.s record$'
contains "the counts differ" "$TMP/out" '^not equal: LAVA recorded pass 10, fail 2, skip 1; vdsokit.s KTAP has pass 10, fail 2, skip 2$'

plant twice "/${result}\"info.clock_gettime\"/p"
differs "a result recorded twice" twice '^not equal: recorded 2 times: info.clock_gettime$'

plant renamed "/${result}\"abi.getrandom-vdso-state_len-size-1_dup2\"/s/_dup2/_dup3/"
differs "a result renamed" renamed '^not equal: lost: vdsokit.s abi.getrandom-vdso-state_len-size-1_dup2 pass'
contains "the new name is not vdsokit's" "$TMP/out" \
	'^not equal: not vdsokit.s: LAVA recorded abi.getrandom-vdso-state_len-size-1_dup3 pass'

plant changed "/${result}\"verify.clock-getres-id-17-vdso-errno\"/s/\"result\": \"fail\"/\"result\": \"pass\"/"
differs "a fail recorded as a pass" changed \
	'^not equal: changed: verify.clock-getres-id-17-vdso-errno is fail in vdsokit.s KTAP, pass in LAVA.s record$'

plant figure "/${result}\"bench.clock-gettime-monotonic-vdso\"/s/\"measurement\": ! \"20.5\"/\"measurement\": ! \"2.05\"/"
differs "a measurement changed" figure '^not equal: changed: bench.clock-gettime-monotonic-vdso is pass 20.5 ns'

long=$(printf 'x%.0s' $(seq 101))
plant refused "/${result}\"info.clock_gettime\"/s/info.clock_gettime/$long/"
differs "a name over 100 characters" refused "^not equal: a name LAVA does not accept: '$long'$"
plant spaced "/${result}\"info.clock_gettime\"/s/info.clock_gettime/info clock_gettime/"
differs "a name with a space" spaced "^not equal: a name LAVA does not accept: 'info clock_gettime'$"

plant cut '/"lvl": "target", "msg": "# Totals: pass:3 fail:1/d'
differs "vdsokit's KTAP cut short" cut "^not equal: vdsokit.s KTAP in the log has no final '# Totals:' line: cut short$"

plant dropped '/"lvl": "target", "msg": "  ok 1 clock-gettime-monotonic vdso ordered"/d'
differs "a KTAP line lost on the console" dropped \
	'^not equal: not vdsokit.s: LAVA recorded verify.clock-gettime-monotonic-vdso-ordered pass, which its KTAP does not have$'
contains "vdsokit's own Totals disagree with the block" "$TMP/out" \
	"^not equal: vdsokit.s '# Totals: pass:1 fail:1 xfail:0 xpass:0 skip:1 error:0' but that block has pass 0, fail 1, skip 1$"

# vdsokit's own error (KTAP's ERROR) is unknown to LAVA, never a fail or a pass.
plant errored 's/"msg": "  ok 1 clock-gettime-monotonic vdso ordered"/"msg": "  not ok 1 clock-gettime-monotonic vdso ordered # ERROR not tested: vdsokit could not fork (Operation not permitted)"/'
differs "vdsokit's own error recorded as a pass" errored \
	'^not equal: changed: verify.clock-gettime-monotonic-vdso-ordered is unknown in vdsokit.s KTAP, pass in LAVA.s record$'

plant jobfail "/${result}\"job\"/s/\"result\": \"pass\"/\"result\": \"fail\", \"error_msg\": \"lava-test-shell timed out after 1800 seconds\"/"
differs "the job failed" jobfail '^not equal: the job ended fail: lava-test-shell timed out after 1800 seconds$'

expect_status 2 "an unreadable log is bad input" "$C" "$TMP/no-such.log"
expect_status 2 "a usage error" "$C"
