# make install honours PREFIX and DESTDIR, and the man page renders.
. "$TOP/tests/lib.sh"
unset MAKEFLAGS MFLAGS MAKELEVEL

root="$TMP/root"
check "make install into DESTDIR" make_locked -C "$TOP" O="$O" DESTDIR="$root" PREFIX=/usr install
check "the binary is installed" test -x "$root/usr/bin/vdsokit"
check "the man page is installed" test -f "$root/usr/share/man/man1/vdsokit.1"
check "it names the version vdsokit --version prints" \
	grep -q "\"$("$O/vdsokit" --version | head -n 1)\"" "$root/usr/share/man/man1/vdsokit.1"
check "vdsotest's man page is vdsokit's" test "$(readlink "$root/usr/share/man/man1/vdsotest.1")" = vdsokit.1
check "the installed binary runs" "$root/usr/bin/vdsokit" --version
for l in vdsotest vdsotest-all vdsotest-bench; do
	check "$l is a link to vdsokit" test "$(readlink "$root/usr/bin/$l")" = vdsokit
done
check "the installed vdsotest is vdsotest" \
	test "$("$root/usr/bin/vdsotest" list-test-types | tr '\n' ' ')" = "$(printf '\tverify \tbench \tabi ')"
expect_status 64 "the installed vdsotest-all refuses an argument" "$root/usr/bin/vdsotest-all" bogus
contains "saying so under its own name" "$TMP/err" "^vdsotest-all: unexpected argument 'bogus'"

# tuxrun's vdso test wants /opt/vdsotest/bin/vdsotest and vdsotest-all.
opt="$TMP/opt"
check "PREFIX=/opt/vdsotest make install" make_locked -C "$TOP" O="$O" DESTDIR="$opt" PREFIX=/opt/vdsotest install
(cd "$opt" && find . ! -type d | LC_ALL=C sort) >"$TMP/files"
printf '%s\n' ./opt/vdsotest/bin/vdsokit ./opt/vdsotest/bin/vdsotest ./opt/vdsotest/bin/vdsotest-all \
	./opt/vdsotest/bin/vdsotest-bench ./opt/vdsotest/share/man/man1/vdsokit.1 \
	./opt/vdsotest/share/man/man1/vdsotest-all.1 ./opt/vdsotest/share/man/man1/vdsotest-bench.1 \
	./opt/vdsotest/share/man/man1/vdsotest.1 >"$TMP/want"
check "it installs exactly vdsokit, vdsotest's three programs and their man pages" cmp "$TMP/files" "$TMP/want"
check "Linaro's script finds \$VDSO_INSTALL_PATH/bin/vdsotest (test -f)" test -f "$opt/opt/vdsotest/bin/vdsotest"
if need groff; then
	LC_ALL=C groff -man -Tutf8 -ww -z "$TOP/doc/vdsokit.1" >"$TMP/groff.txt" 2>&1
	if [ ! -s "$TMP/groff.txt" ]; then ok "the man page renders without warnings"; else not_ok "the man page renders without warnings" "$(head -n 3 "$TMP/groff.txt")"; fi
else
	skip "the man page renders without warnings" "groff is not installed"
fi
check "make uninstall removes them" make_locked -C "$TOP" O="$O" DESTDIR="$root" PREFIX=/usr uninstall
check "the binary is gone" test ! -e "$root/usr/bin/vdsokit"
check "and so are the links" test ! -e "$root/usr/bin/vdsotest" -a ! -e "$root/usr/bin/vdsotest-all" \
	-a ! -e "$root/usr/bin/vdsotest-bench"
