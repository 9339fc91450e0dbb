# The Debian package: dpkg-buildpackage builds it from a copy of the tree,
# lintian finds nothing in it, and it installs, runs and removes without
# a trace. Then the same package for i386 and arm64, cross built.
. "$TOP/tests/lib.sh"
unset MAKEFLAGS MFLAGS MAKELEVEL

why=
if ! need dpkg-buildpackage dh lintian dpkg-deb; then
	why="dpkg-buildpackage, debhelper or lintian is not installed"
elif [ "$(id -u)" != 0 ]; then
	why="installing a package needs root"
elif dpkg-query -W -f='${Status}' vdsokit 2>/dev/null | grep -q ' installed$'; then
	why="a vdsokit package is installed on this machine already: the test leaves it alone"
fi
if [ -n "$why" ]; then
	skip "the Debian package builds, installs and removes cleanly" "$why"
	exit 0
fi

version=$(awk -F'[()]' 'NR == 1 { print $2 }' "$TOP/debian/changelog")
# Its own folder of $TMP, which the cases share: vm.sh makes $TMP/arm64.
work=$TMP/package
mkdir -p "$work"
arch=$(dpkg --print-architecture)

# copy_tree DIR: the tree's sources, without build outputs, into DIR.
copy_tree() {
	mkdir -p "$1"
	if git -C "$TOP" rev-parse --git-dir >/dev/null 2>&1; then
		git -C "$TOP" ls-files -z --cached --others --exclude-standard |
			(cd "$TOP" && xargs -0 cp --parents -t "$1")
	else
		tar -C "$TOP" --exclude=./build -cf - . | tar -C "$1" -xf -
	fi
}

# build ARCH: dpkg-buildpackage in a copy of the tree under $work/ARCH;
# the .deb lands in $work/ARCH.
build() {
	local dir=$work/$1 cross=
	[ "$1" = "$arch" ] || cross="-a$1 -d"
	copy_tree "$dir/src"
	# shellcheck disable=SC2086 # $cross is two words or none
	(cd "$dir/src" && env -u O -u VK dpkg-buildpackage -us -uc -b -jauto $cross) >"$dir/build.log" 2>&1
}

deb=$work/$arch/vdsokit_${version}_$arch.deb
if build "$arch" && [ -f "$deb" ]; then
	ok "dpkg-buildpackage -us -uc -b builds vdsokit_${version}_$arch.deb"
else
	not_ok "dpkg-buildpackage -us -uc -b builds vdsokit_${version}_$arch.deb" "$(tail -n 15 "$work/$arch/build.log")"
	exit 0
fi

lintian --fail-on error,warning --no-tag-display-limit "$work/$arch"/*.changes >"$work/lintian" 2>&1
status=$?
if [ $status -eq 0 ] && ! grep -q '^[EW]: ' "$work/lintian"; then
	ok "lintian reports no error and no warning"
else
	not_ok "lintian reports no error and no warning" "exit $status" "$(head -n 20 "$work/lintian")"
fi

dpkg-deb -c "$deb" | awk '{ print $6 }' | sed 's,^\./,/,' >"$work/contents"
for f in /usr/bin/vdsokit /usr/bin/vdsotest /usr/bin/vdsotest-all /usr/bin/vdsotest-bench \
	/usr/share/man/man1/vdsokit.1.gz /usr/share/man/man1/vdsotest.1.gz \
	/usr/share/doc/vdsokit/README.md.gz /usr/share/doc/vdsokit/copyright \
	/usr/share/doc/vdsokit/lava/vdsokit.yaml /usr/share/doc/vdsokit/lava/vdsokit.sh; do
	contains "the package holds $f" "$work/contents" "^${f//./\\.}$"
done

# Installed, it runs from /usr/bin; removed and purged, nothing of it is left.
# The package is the machine's, not the case's: a second suite running
# here (two clones' make check at once) would purge it between these
# checks, so they hold one lock of the machine's from install to purge.
exec 8>/tmp/vdsokit-package.lock && flock 8
trap 'dpkg --purge vdsokit >/dev/null 2>&1' EXIT
check "dpkg -i installs it" dpkg -i "$deb"
check "/usr/bin/vdsokit --version is the package's version" \
	test "$(/usr/bin/vdsokit --version | head -n 1)" = "vdsokit $version"
/usr/bin/vdsotest list-apis >"$work/apis" 2>&1
contains "/usr/bin/vdsotest list-apis lists the APIs" "$work/apis" "clock-gettime-monotonic"
/usr/bin/vdsokit info >"$work/info" 2>&1
status=$?
if [ $status -eq 0 ] || [ $status -eq 4 ]; then
	ok "/usr/bin/vdsokit info runs (exit $status)"
else
	not_ok "/usr/bin/vdsokit info runs" "exit $status" "$(head -n 5 "$work/info")"
fi
check "man finds the installed page" env MANPATH=/usr/share/man man -w vdsotest
dpkg -L vdsokit | sort >"$work/files"
check "dpkg --purge removes it" dpkg --purge vdsokit
left=$(while read -r f; do [ -e "$f" ] && [ ! -d "$f" ] && echo "$f"; done <"$work/files")
if [ -z "$left" ] && ! dpkg-query -W vdsokit >/dev/null 2>&1; then
	ok "nothing of the package is left"
else
	not_ok "nothing of the package is left" "$left"
fi
trap - EXIT
exec 8>&-

# Cross: the same package for another architecture, where its compiler is.
for a in i386 arm64; do
	cc=${arch_cross[${arch_of_debian[$a]}]}gcc
	if [ "$a" = "$arch" ]; then
		continue
	elif ! need "$cc"; then
		skip "dpkg-buildpackage -a$a builds the $a package" "$cc is not installed"
		continue
	elif ! dpkg-query -W -f='${Status}' "libc6:$a" 2>/dev/null | grep -q ' installed$'; then
		# dpkg-shlibdeps reads the Depends off libc6:ARCH's own symbols file.
		skip "dpkg-buildpackage -a$a builds the $a package" \
			"libc6:$a is not installed (dpkg --add-architecture $a; apt-get install libc6:$a)"
		continue
	fi
	d=$work/$a/vdsokit_${version}_$a.deb
	if build "$a" && [ -f "$d" ]; then
		ok "dpkg-buildpackage -a$a builds the $a package"
	else
		not_ok "dpkg-buildpackage -a$a builds the $a package" "$(tail -n 15 "$work/$a/build.log")"
		continue
	fi
	dpkg-deb -x "$d" "$work/$a/root"
	bin=$work/$a/root/usr/bin/vdsokit
	want=$(case $a in i386) echo 'Intel 80386' ;; arm64) echo AArch64 ;; esac)
	check "its vdsokit is an ELF for $want" grep -q "Machine: *$want" <(readelf -h "$bin" 2>&1)
	dep=$(dpkg-deb -f "$d" Depends)
	if [[ $dep == *"libc6 ("* && $dep != *-cross* && $dep != *libc6-i386* ]]; then
		ok "it depends on $a's own libc6 ($dep)"
	else
		not_ok "it depends on $a's own libc6" "Depends: $dep"
	fi
done
rm -rf "$work"
