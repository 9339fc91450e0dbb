# contrib/kselftest: `make kselftest-install` lays vdsokit out as a
# kselftest collection, and the kernel's own runner (run_kselftest.sh and
# kselftest/ from Debian's linux-source-6.12, which .ci/run installs) runs
# it. What the runner prints is what the farms parse: every test reported
# once, in order, each test's KTAP nested under it valid, a SKIP as
# "# SKIP", and a divergence planted in the vDSO as "not ok".
. "$TOP/tests/lib.sh"

SRC=/usr/src/linux-source-6.12.tar.xz
SEL=linux-source-6.12/tools/testing/selftests
TESTS=(info verify abi fallback timens bench)
K=$TMP/ksft

if [ ! -r "$SRC" ]; then
	skip "the kernel's run_kselftest.sh runs the vdsokit collection" \
		"no $SRC (Debian's package linux-source-6.12)"
	exit 0
fi
for f in vdsokit_ksft.sh "${TESTS[@]}"; do
	need shellcheck || break
	check "contrib/kselftest/$f passes shellcheck" shellcheck "$TOP/contrib/kselftest/$f"
done

mkdir -p "$K"
if ! tar -xJf "$SRC" -C "$K" --strip-components=4 "$SEL/run_kselftest.sh" "$SEL/kselftest" \
	2>"$TMP/tar.err"; then
	not_ok "the kernel's runner unpacks from $SRC" "$(tail -n 3 "$TMP/tar.err")"
	exit 0
fi
# Another collection's line, as the kernel's own install leaves it.
echo "timers:posix_timers" >"$K/kselftest-list.txt"
install_ksft() {
	(unset MAKEFLAGS MFLAGS MAKELEVEL SANITIZE
	 make_locked -C "$TOP" O="$O/v/static" STATIC=1 kselftest-install KSFT_INSTALL_PATH="$K") \
		>"$TMP/install.log" 2>&1
}
if ! install_ksft; then
	not_ok "make kselftest-install installs the collection" "$(tail -n 5 "$TMP/install.log")"
	exit 0
fi
check "installing twice works" install_ksft
want=$(printf 'timers:posix_timers\n'; printf 'vdsokit:%s\n' "${TESTS[@]}")
check "kselftest-list.txt keeps other collections and lists each test once" \
	test "$(cat "$K/kselftest-list.txt")" = "$want"
check "the collection's vdsokit is static" sh -c "'$K/vdsokit/vdsokit' --version | grep -q ', static'"
contains "the settings file sets a timeout" "$K/vdsokit/settings" '^timeout=[0-9]+$'
expect_status 2 "kselftest-install without KSFT_INSTALL_PATH is refused" \
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$TOP" kselftest-install KSFT_INSTALL_PATH=

# runner FILE ARGS...: run_kselftest.sh ARGS into FILE, through a pipe,
# as a farm reads it (the runner appends to /dev/stdout: a file given
# as its stdout would be overwritten in places).
runner() {
	local out=$1
	shift
	(cd "$K" && sh ./run_kselftest.sh "$@" 2>&1 | cat >"$out")
}

# ktap_check FILE TESTS...: the runner's TAP 13 names TESTS, in order,
# once each; under each result, the test's output is "# "-prefixed
# KTAP v1 with its version line, a plan its results count, numbers
# from 1, descriptions without '#' and unique, totals (if any) that count them;
# the parent is "ok" exactly when no child failed and vdsokit exited 0
# or 4 ("# SKIP"), else "not ok". Prints what is wrong; status 1 then.
ktap_check() {
	local f=$1
	shift
	awk -v tests="$*" '
	function fail(m) { print m; bad = 1 }
	function close_test(name, line,   skip) {
		# A run that ended otherwise than 0, 1 or 4 may have printed
		# nothing or half: its parent is "not ok", and that is all.
		if (!exited && !seen_ver) fail(name ": no KTAP version line")
		if (!exited && plan != n) fail(name ": plan 1.." plan ", " n " results")
		if (!exited && totals >= 0 && totals != n) fail(name ": totals count " totals " of " n " results")
		skip = line ~ / # SKIP$/
		if ((line ~ /^not ok/) != (children_failed || exited)) fail(name ": parent and children disagree")
		if (skip && children_failed) fail(name ": a SKIP with failed children")
	}
	BEGIN { nt = split(tests, want, " ") }
	NR == 1 { if ($0 != "TAP version 13") fail("line 1 is not TAP version 13: " $0); next }
	NR == 2 { if ($0 != "1.." nt) fail("plan " $0 ", want 1.." nt); next }
	/^# selftests: / { inside = 1; seen_ver = 0; plan = -1; n = 0; totals = -1
			   children_failed = 0; exited = 0; delete desc; next }
	/^(not )?ok [0-9]+ selftests: / {
		k++
		name = $0; sub(/^(not )?ok [0-9]+ selftests: vdsokit: /, "", name); sub(/ #.*/, "", name)
		num = $0; sub(/^(not )?ok /, "", num); sub(/ .*/, "", num)
		if (num != k) fail("result " k " is numbered " num)
		if (name != want[k]) fail("result " k " is " name ", want " want[k])
		if ($0 ~ /# TIMEOUT/) fail(name ": timed out")
		close_test(name, $0)
		inside = 0
		next
	}
	!inside { if ($0 !~ /^# (timeout set to [0-9]+)?$/) fail("stray line: " $0); next }
	{
		if (substr($0, 1, 2) != "# ") { fail("unprefixed line: " $0); next }
		l = substr($0, 3)
	}
	l == "KTAP version 1" { seen_ver++; next }
	l ~ /^1\.\.[0-9]+$/ { plan = substr(l, 4) + 0; next }
	l ~ /^(not )?ok [0-9]+ / {
		n++
		split(l, w, " ")
		num = w[1] == "not" ? w[3] : w[2]
		if (num != n) fail("result " n " numbered " num ": " l)
		d = l; sub(/^(not )?ok [0-9]+ /, "", d); sub(/ # (SKIP|ERROR).*$/, "", d)
		if (d ~ /#/ || d == "") fail("bad description: " l)
		if (desc[d]++) fail("duplicate description: " d)
		if (l ~ /^not ok/) children_failed = 1
		next
	}
	l ~ /^# Totals: pass:[0-9]+ fail:[0-9]+ / {
		split(l, t, /[: ]+/)
		totals = t[4] + t[6] + t[8] + t[10] + t[12] + t[14]
		next
	}
	l ~ /^# vdsokit [a-z]+ exited [0-9]+: / { exited = 1; next }
	l ~ /^#( |$)/ { next }
	{ fail("not KTAP: " l) }
	END { if (k != nt) fail(k " results, want " nt); exit bad }' "$f"
}

start=$SECONDS
runner "$TMP/run.out" -c vdsokit
took=$((SECONDS - start))
echo "# run_kselftest.sh -c vdsokit took $took s"
if ktap_check "$TMP/run.out" "${TESTS[@]}" >"$TMP/why"; then
	ok "run_kselftest.sh -c vdsokit reports every test once, each with valid nested KTAP"
else
	not_ok "run_kselftest.sh -c vdsokit reports every test once, each with valid nested KTAP" \
		"$(head -n 5 "$TMP/why")"
fi

# Planted outcomes, passed as the runner passes arguments to a test
# (KSELFTEST_<TEST>_ARGS), into a dynamic vdsokit that can load them:
# a vDSO that diverges (verify fails), one that serves nothing (fallback
# has nothing to run: SKIP), and an option vdsokit refuses (exit 2: a
# failure named as such).
impl=$O/tests/impl
if [ ! -x "$O/vdsokit" ] || [ ! -f "$impl/bug-invalid-success.so" ]; then
	skip "a planted divergence reaches the runner as not ok" "no dynamic build with tests/impl in $O"
	exit 0
fi
cp "$O/vdsokit" "$K/vdsokit/vdsokit"
KSELFTEST_VERIFY_ARGS="--impl $impl/bug-invalid-success.so --paths impl clock_gettime" \
KSELFTEST_FALLBACK_ARGS="--impl $impl/none.so --paths impl" \
KSELFTEST_ABI_ARGS="--no-such-option" \
	runner "$TMP/plant.out" -t vdsokit:verify -t vdsokit:fallback -t vdsokit:abi
if ktap_check "$TMP/plant.out" verify fallback abi >"$TMP/why"; then
	ok "the planted runs' output is valid too"
else
	not_ok "the planted runs' output is valid too" "$(head -n 5 "$TMP/why")"
fi
contains "a planted divergence reaches the runner as not ok" "$TMP/plant.out" \
	'^not ok 1 selftests: vdsokit: verify # exit=1$'
contains "... with the diverging check's own not ok nested under it" "$TMP/plant.out" \
	'^# not ok [0-9]+ clock-gettime-id:[0-9]+ impl errno$'
contains "nothing to run is a SKIP" "$TMP/plant.out" '^ok 2 selftests: vdsokit: fallback # SKIP$'
contains "vdsokit's bad input (2) is a failure" "$TMP/plant.out" \
	'^not ok 3 selftests: vdsokit: abi # exit=1$'
contains "... named as such" "$TMP/plant.out" '^# # vdsokit abi exited 2: a usage error or bad input$'
