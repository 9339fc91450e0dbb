# .ci/run on stand-ins for id (root), dpkg, apt-get and make, first on
# PATH: under CI=true an install that failed stops it at once with the
# end of apt's log, as a package missing would make the gates pass
# without their tests; elsewhere it warns and goes on. An update that
# fails (an index caught mid-sync) is tried again, and is no failure
# while the install works. Nothing is installed: the stand-ins are
# checked to be the ones run first.
. "$TOP/tests/lib.sh"

bin=$TMP/bin
mkdir -p "$bin"
printf '#!/bin/sh\necho 0\n' >"$bin/id"
printf '#!/bin/sh\nexit 0\n' >"$bin/dpkg"
# apt-get: its update fails while $TMP/update-fails exists, its install
# while $TMP/apt-fails does, each with apt's error; every call is
# written to $TMP/apt.calls.
cat >"$bin/apt-get" <<EOF
#!/bin/sh
echo "\$1" >>"$TMP/apt.calls"
if [ "\$1" = update ] && [ -e "$TMP/update-fails" ]; then
	echo "E: Failed to fetch http://deb.debian.org/debian-security/dists/bookworm-security/main/binary-i386/Packages.xz  File has unexpected size (371952 != 372316). Mirror sync in progress?"
	exit 100
fi
[ "\$1" = install ] && [ -e "$TMP/apt-fails" ] || exit 0
echo "E: Unable to locate package gcc-i686-linux-gnu"
exit 100
EOF
printf '#!/bin/sh\necho "make $*" >>"%s/make.calls"\n' "$TMP" >"$bin/make"
chmod +x "$bin"/*
for t in id dpkg apt-get make; do
	if [ "$(PATH=$bin:$PATH command -v "$t")" != "$bin/$t" ]; then
		not_ok "the stand-in for $t comes first on PATH" "$(PATH=$bin:$PATH command -v "$t")"
		exit 0
	fi
done

# ci NAME [VAR=VALUE...]: .ci/run's status in $ci, its stderr in
# $TMP/NAME.err, the makes it ran in $TMP/make.calls.
ci() {
	local name=$1
	shift
	rm -f "$TMP/make.calls" "$TMP/apt.calls"
	touch "$TMP/make.calls"
	env -u CI PATH="$bin:$PATH" TMPDIR="$TMP" CI_APT_RETRY_SLEEP=0 "$@" "$TOP/.ci/run" >"$TMP/$name.out" 2>"$TMP/$name.err"
	ci=$?
}

touch "$TMP/apt-fails"
ci fail-ci CI=true
check "under CI=true an install that failed fails .ci/run" test "$ci" != 0
contains "saying so" "$TMP/fail-ci.err" '^error: apt-get failed under CI=true'
contains "with the end of apt's log" "$TMP/fail-ci.err" "^E: Unable to locate package gcc-i686-linux-gnu"
check "and runs no make after it" test ! -s "$TMP/make.calls"

ci fail
check "without CI it warns and goes on: exit 0" test "$ci" = 0
contains "the warning" "$TMP/fail.err" '^warning: apt-get failed; tests that need those packages will SKIP$'
contains "make check-xarch ran" "$TMP/make.calls" '^make check-xarch$'
contains "make check-lava ran" "$TMP/make.calls" '^make check-lava$'
check "then make check, last" test "$(tail -n 1 "$TMP/make.calls")" = "make check"

rm "$TMP/apt-fails"
touch "$TMP/update-fails"
ci sync CI=true
check "under CI=true an update that fails while the install works goes on: exit 0" test "$ci" = 0
check "the update was tried 3 times" test "$(grep -c '^update$' "$TMP/apt.calls")" = 3
contains "then the install" "$TMP/apt.calls" '^install$'
contains "and make check ran" "$TMP/make.calls" '^make check$'

rm "$TMP/update-fails"
ci good CI=true
check "under CI=true an apt-get that worked goes on: exit 0" test "$ci" = 0
contains "to make check" "$TMP/make.calls" '^make check$'
check "and leaves no apt log behind" test -z "$(find "$TMP" -maxdepth 1 -name 'ci-apt.*')"
