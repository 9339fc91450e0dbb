# contrib/kselftest: `make kselftest-install` lays vdsokit out as a
# kselftest collection, and the kernel's own runners run it: 6.12's
# (run_kselftest.sh and kselftest/ from Debian's linux-source-6.12, which
# .ci/run installs) under sh, and the newest one (tests/kselftest-runner,
# which prints its results through ktap_helpers.sh and exits 1 on a
# failure) under bash, the only shell it runs in. What a runner prints is
# what the farms parse: every test reported once, in order, each test's
# KTAP nested under it valid, a SKIP as "# SKIP", a divergence planted in
# the vDSO as "not ok", and never an XFAIL (the newest runner's reading of
# an exit 2, which vdsokit's bad input must not reach).
. "$TOP/tests/lib.sh"

SRC=/usr/src/linux-source-6.12.tar.xz
SEL=linux-source-6.12/tools/testing/selftests
NEWEST=$TOP/tests/kselftest-runner/2964f6b816c2
TESTS=(info verify abi fallback timens bench)

for f in vdsokit_ksft.sh "${TESTS[@]}"; do
	need shellcheck || break
	check "contrib/kselftest/$f passes shellcheck" shellcheck "$TOP/contrib/kselftest/$f"
done

# install_ksft DIR: the collection into DIR, beside the runner there.
install_ksft() {
	(unset MAKEFLAGS MFLAGS MAKELEVEL SANITIZE
	 make_locked -C "$TOP" O="$O/$(static_dir)" STATIC=1 kselftest-install KSFT_INSTALL_PATH="$1") \
		>"$TMP/install.log" 2>&1
}
# runner FILE ARGS...: the runner in $K (its shell $KSH) with ARGS into
# FILE, through a pipe, as a farm reads it (the runner appends to
# /dev/stdout: a file given as its stdout would be overwritten in
# places); its exit status in $rstatus.
runner() {
	local out=$1
	shift
	(cd "$K" && "$KSH" ./run_kselftest.sh "$@" 2>&1 | cat >"$out"; exit "${PIPESTATUS[0]}")
	rstatus=$?
}

# ktap_check FILE TESTS...: the runner's TAP 13 names TESTS, in order,
# once each; under each result, the test's output is "# "-prefixed
# KTAP v1 with its version line, a plan its results count, numbers
# from 1, descriptions without '#' and unique, totals (if any) that count them;
# the parent is "ok" exactly when no child failed and vdsokit exited 0
# or 4 ("# SKIP"), else "not ok", and never "# XFAIL". The newest
# runner's results carry its count before the test's number
# ("ok 1 1 selftests: ..."), and its "# Totals:" line after the last
# must count them. Prints what is wrong; status 1 then.
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
		if (line ~ / # XFAIL$/) fail(name ": XFAIL, an exit 2 that reached the runner")
		if ((line ~ /^not ok/) != (children_failed || exited)) fail(name ": parent and children disagree")
		if (skip && children_failed) fail(name ": a SKIP with failed children")
		if (line ~ /^not ok/) nfail++
		else if (skip) nskip++
		else if (line ~ / # XFAIL$/) nxfail++
		else npass++
	}
	BEGIN { nt = split(tests, want, " "); runtotals = -1 }
	NR == 1 { if ($0 != "TAP version 13") fail("line 1 is not TAP version 13: " $0); next }
	NR == 2 { if ($0 != "1.." nt) fail("plan " $0 ", want 1.." nt); next }
	/^# selftests: / { inside = 1; seen_ver = 0; plan = -1; n = 0; totals = -1
			   children_failed = 0; exited = 0; delete desc; next }
	/^(not )?ok [0-9]+ ([0-9]+ )?selftests: / {
		k++
		name = $0; sub(/^(not )?ok [0-9 ]+ selftests: vdsokit: /, "", name); sub(/ #.*/, "", name)
		nums = $0; sub(/^(not )?ok /, "", nums); sub(/ selftests: .*/, "", nums)
		split(nums, num, " ")
		for (i in num) if (num[i] != k) fail("result " k " is numbered " nums)
		if (name != want[k]) fail("result " k " is " name ", want " want[k])
		if ($0 ~ /# TIMEOUT/) fail(name ": timed out")
		close_test(name, $0)
		inside = 0
		next
	}
	!inside && /^# Totals: pass:[0-9]+ fail:[0-9]+ xfail:[0-9]+ xpass:[0-9]+ skip:[0-9]+ error:[0-9]+$/ {
		split($0, t, /[: ]+/)
		runtotals = t[4] " " t[6] " " t[8] " " t[12]
		next
	}
	!inside && /^# [0-9]+ skipped test\(s\) detected\./ { next }
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
		num1 = w[1] == "not" ? w[3] : w[2]
		if (num1 != n) fail("result " n " numbered " num1 ": " l)
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
	END {
		if (k != nt) fail(k " results, want " nt)
		if (newest && runtotals == -1) fail("no # Totals: line for the run")
		counted = (npass + 0) " " (nfail + 0) " " (nxfail + 0) " " (nskip + 0)
		if (runtotals != -1 && runtotals != counted)
			fail("the run'"'"'s totals (pass fail xfail skip) are " runtotals ", its results " counted)
		exit bad
	}' newest="$NEWEST_RUN" "$f"
}

# collection RUNNER: install the collection beside RUNNER's files in $K
# and run it, whole and planted, checking what it prints and its exit
# status (the newest runner's 1 exactly when a test failed).
collection() {
	local r=$1 took
	echo "timers:posix_timers" >"$K/kselftest-list.txt"
	if ! install_ksft "$K"; then
		not_ok "$r: make kselftest-install installs the collection" "$(tail -n 5 "$TMP/install.log")"
		return
	fi
	check "$r: installing twice works" install_ksft "$K"
	want=$(printf 'timers:posix_timers\n'; printf 'vdsokit:%s\n' "${TESTS[@]}")
	check "$r: kselftest-list.txt keeps other collections and lists each test once" \
		test "$(cat "$K/kselftest-list.txt")" = "$want"
	check "$r: the collection's vdsokit is static" sh -c "'$K/vdsokit/vdsokit' --version | grep -q ', static'"
	contains "$r: the settings file sets a timeout" "$K/vdsokit/settings" '^timeout=[0-9]+$'

	took=$SECONDS
	runner "$TMP/run.out" -c vdsokit
	echo "# $r: run_kselftest.sh -c vdsokit took $((SECONDS - took)) s, exit status $rstatus"
	if ktap_check "$TMP/run.out" "${TESTS[@]}" >"$TMP/why"; then
		ok "$r: run_kselftest.sh -c vdsokit reports every test once, each with valid nested KTAP"
	else
		not_ok "$r: run_kselftest.sh -c vdsokit reports every test once, each with valid nested KTAP" \
			"$(head -n 5 "$TMP/why")"
	fi
	if [ -n "$NEWEST_RUN" ]; then
		want=0
		grep -q '^not ok [0-9]' "$TMP/run.out" && want=1
		check "$r: the runner exits $want, as a test failed or none did" test "$rstatus" = "$want"
	fi

	# Planted outcomes, passed as the runner passes arguments to a test
	# (KSELFTEST_<TEST>_ARGS), into a dynamic vdsokit that can load them:
	# a vDSO that diverges (verify fails), one that serves nothing
	# (fallback has nothing to run: SKIP), and an option vdsokit refuses
	# (exit 2: a failure named as such, never the newest runner's XFAIL).
	local impl=$O/tests/impl n=
	if [ ! -x "$O/vdsokit" ] || [ ! -f "$impl/bug-invalid-success.so" ]; then
		skip "$r: a planted divergence reaches the runner as not ok" "no dynamic build with tests/impl in $O"
		return
	fi
	[ -n "$NEWEST_RUN" ] && n='[0-9]+ '
	cp "$O/vdsokit" "$K/vdsokit/vdsokit"
	KSELFTEST_VERIFY_ARGS="--impl $impl/bug-invalid-success.so --paths impl clock_gettime" \
	KSELFTEST_FALLBACK_ARGS="--impl $impl/none.so --paths impl" \
	KSELFTEST_ABI_ARGS="--no-such-option" \
		runner "$TMP/plant.out" -t vdsokit:verify -t vdsokit:fallback -t vdsokit:abi
	if ktap_check "$TMP/plant.out" verify fallback abi >"$TMP/why"; then
		ok "$r: the planted runs' output is valid too"
	else
		not_ok "$r: the planted runs' output is valid too" "$(head -n 5 "$TMP/why")"
	fi
	contains "$r: a planted divergence reaches the runner as not ok" "$TMP/plant.out" \
		"^not ok 1 ${n}selftests: vdsokit: verify # exit=1\$"
	contains "$r: ... with the diverging check's own not ok nested under it" "$TMP/plant.out" \
		'^# not ok [0-9]+ clock-gettime-id:[0-9]+ impl errno$'
	contains "$r: nothing to run is a SKIP" "$TMP/plant.out" "^ok 2 ${n}selftests: vdsokit: fallback # SKIP\$"
	contains "$r: vdsokit's bad input (2) is a failure" "$TMP/plant.out" \
		"^not ok 3 ${n}selftests: vdsokit: abi # exit=1\$"
	contains "$r: ... named as such" "$TMP/plant.out" '^# # vdsokit abi exited 2: a usage error or bad input$'
	[ -n "$NEWEST_RUN" ] || return
	check "$r: the planted failures make the runner exit 1" test "$rstatus" = 1

	# The check itself: a wrapper that let vdsokit's 2 through would be
	# the newest runner's XFAIL, an "ok"; ktap_check must say so.
	sed 's/^exit 1$/exit $status/' "$TOP/contrib/kselftest/vdsokit_ksft.sh" >"$K/vdsokit/vdsokit_ksft.sh"
	KSELFTEST_ABI_ARGS="--no-such-option" runner "$TMP/xfail.out" -t vdsokit:abi
	contains "$r: (planted) a wrapper passing 2 through is read as XFAIL" "$TMP/xfail.out" \
		'^ok 1 1 selftests: vdsokit: abi # XFAIL$'
	if ktap_check "$TMP/xfail.out" abi >"$TMP/why"; then
		not_ok "$r: (planted) the check refuses that XFAIL" "$(tail -n 3 "$TMP/xfail.out")"
	else
		contains "$r: (planted) the check refuses that XFAIL" "$TMP/why" 'XFAIL'
	fi
}

expect_status 2 "kselftest-install without KSFT_INSTALL_PATH is refused" \
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$TOP" kselftest-install KSFT_INSTALL_PATH=

# 6.12's runner, under sh.
K=$TMP/ksft-6.12 KSH=sh NEWEST_RUN=
if [ ! -r "$SRC" ]; then
	skip "6.12's run_kselftest.sh runs the vdsokit collection" "no $SRC (Debian's package linux-source-6.12)"
else
	mkdir -p "$K"
	if tar -xJf "$SRC" -C "$K" --strip-components=4 "$SEL/run_kselftest.sh" "$SEL/kselftest" \
		2>"$TMP/tar.err"; then
		collection 6.12
	else
		not_ok "6.12's runner unpacks from $SRC" "$(tail -n 3 "$TMP/tar.err")"
	fi
fi

# The newest runner, kept in the tree, under bash.
K=$TMP/ksft-newest KSH=bash NEWEST_RUN=1
mkdir -p "$K"
cp -R "$NEWEST/." "$K/"
collection newest
