# make install honours PREFIX and DESTDIR, and the man page renders.
. "$TOP/tests/lib.sh"
unset MAKEFLAGS MFLAGS MAKELEVEL

root="$TMP/root"
check "make install into DESTDIR" make -C "$TOP" O="$O" DESTDIR="$root" PREFIX=/usr install
check "the binary is installed" test -x "$root/usr/bin/vdsokit"
check "the man page is installed" test -f "$root/usr/share/man/man1/vdsokit.1"
check "the installed binary runs" "$root/usr/bin/vdsokit" --version
if need groff; then
	LC_ALL=C groff -man -Tutf8 -ww -z "$TOP/doc/vdsokit.1" >"$TMP/groff.txt" 2>&1
	if [ ! -s "$TMP/groff.txt" ]; then ok "the man page renders without warnings"; else not_ok "the man page renders without warnings" "$(head -n 3 "$TMP/groff.txt")"; fi
else
	skip "the man page renders without warnings" "groff is not installed"
fi
check "make uninstall removes them" make -C "$TOP" O="$O" DESTDIR="$root" PREFIX=/usr uninstall
check "the binary is gone" test ! -e "$root/usr/bin/vdsokit"
