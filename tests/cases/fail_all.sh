# A library whose every call fails (tests/impl/fail-all.c): no rule may
# pass on what it never read (issue 47, part 4), and, under valgrind,
# none may read what a failed call left unwritten: verify, abi, timens,
# bench and compare each run on it.
. "$TOP/tests/lib.sh"

LIB=$O/tests/impl/fail-all.so
if [ ! -f "$LIB" ]; then
	skip "a library whose calls all fail" "no --impl library in this build ($LIB)"
	exit 0
fi

# getrandom's differs and fork rules compared bytes no draw wrote, and
# gettimeofday's realtime rule passed with every call failed.
expect_status 1 "verify on it exits 1" "$VK" verify -d 0.05 --impl "$LIB" --paths impl \
	getrandom gettimeofday --format ktap
for rule in "getrandom impl differs" "getrandom impl fork" "getrandom impl fork-drawing" \
	"getrandom impl thread-states" "gettimeofday impl realtime"; do
	contains "$rule is not a pass" "$TMP/out" "^not ok [0-9]+ $rule( |\$)"
done
contains "differs names the failed draw" "$TMP/out" '^# a draw of 16 bytes: impl returned -22'
contains "realtime compared nothing: vdsokit's error, not a pass" "$TMP/out" \
	'^not ok [0-9]+ gettimeofday impl realtime # ERROR compared nothing'

# valgrind follows every fork and exec (the checks run in children). The
# stack rule's painted stacks are its own (tests/valgrind/stack-rule.supp).
# A use of an uninitialised value is what would make a verdict of it.
if ! need valgrind; then
	skip "verify, abi, timens, bench and compare under valgrind" "valgrind is not installed"
	exit 0
fi
vg() {
	local name=$1
	shift
	rm -f "$TMP/vg.$name".*
	valgrind -q --trace-children=yes --suppressions="$TOP/tests/valgrind/stack-rule.supp" \
		--log-file="$TMP/vg.$name.%p" "$VK" "$@" --impl "$LIB" >"$TMP/out" 2>"$TMP/err"
	echo $? >"$TMP/status"
	cat "$TMP/vg.$name".* >"$TMP/vg.$name" 2>/dev/null
	if grep -q 'uninitialised' "$TMP/vg.$name"; then
		not_ok "$name under valgrind reads no uninitialised value" \
			"$(grep -B2 -A12 -m1 'uninitialised' "$TMP/vg.$name")"
	else
		ok "$name under valgrind reads no uninitialised value (exit $(cat "$TMP/status"))"
	fi
}
vg verify verify -d 0.02 --paths impl getrandom gettimeofday time getcpu clock-gettime-monotonic \
	clock-getres-monotonic
vg abi abi --paths impl time clock-gettime-monotonic
vg timens timens -d 0.02
# bench and compare time with clock_gettime here (VDSOKIT_TIMER), as
# valgrind 3.19 cannot run rdtscp (SIGILL).
export VDSOKIT_TIMER=clock_gettime
vg bench bench -d 0.02 --processes 2 time getrandom
vg compare compare -d 0.02 time getrandom
