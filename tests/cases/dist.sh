# make dist: the release tarball holds a static vdsokit per architecture,
# each of which runs with no library (foreign ones under qemu-user) and
# says its version and architecture; its SHA256SUMS check.
. "$TOP/tests/lib.sh"
unset MAKEFLAGS MFLAGS MAKELEVEL

# Each architecture of make cross: its name in --version's build line (its
# ABI), its compiler here as the Makefile has it, and its qemu-user where
# that compiler is a cross one.
missing=
for a in "${cross_arches[@]}"; do
	need "$(arch_prefix "$a")gcc" || missing="$missing $(arch_prefix "$a")gcc"
done
if [ -n "$missing" ]; then
	skip "make dist builds the release tarball" "no cross compiler:$missing"
	exit 0
fi

version=$(awk -F'[()]' 'NR == 1 { print $2 }' "$TOP/debian/changelog")
# Its own folder of $TMP, which the cases share.
work=$TMP/dist
mkdir -p "$work"
tarball=$O/vdsokit-$version.tar.gz

# make dist builds into $O/cross/ARCH and $O/musl, which builds.sh's
# variants share (with cross_args, and CC=musl-gcc STATIC=1); make
# cannot tell objects built with other flags apart, so its commands and
# theirs, as make -n prints them for an empty directory, must match.
# made_in DIR LOG: LOG's commands that build in $work/n/DIR, but for the
# arches table (made for real by the first make -n of a directory) and
# make cross's own line, which names every directory.
made_in() {
	grep -F "$work/n/$1/" "$2" | grep -vE '/arches/arches( |$)|arches\.(sh|mk)|^make '
}
make -n --no-print-directory -C "$TOP" O="$work/n" dist >"$work/dist.n" 2>&1
for d in musl "${cross_arches[@]/#/cross/}"; do
	if [ "$d" != musl ]; then
		read -ra args <<<"$(cross_args "${d#cross/}")"
	elif need musl-gcc; then
		args=(CC=musl-gcc STATIC=1)
	else
		continue
	fi
	make -n --no-print-directory -C "$TOP" O="$work/n/$d" "${args[@]}" "$work/n/$d/vdsokit" >"$work/variant.n" 2>&1
	made_in "$d" "$work/dist.n" >"$work/dist.cmds"
	made_in "$d" "$work/variant.n" >"$work/variant.cmds"
	if [ -s "$work/dist.cmds" ] && cmp -s "$work/dist.cmds" "$work/variant.cmds"; then
		ok "make dist builds $d as the variant with ${args[*]} does"
	else
		not_ok "make dist builds $d as the variant with ${args[*]} does" \
			"$(diff "$work/dist.cmds" "$work/variant.cmds" | head -n 6)"
	fi
done

# Each under its own directory's lock, which builds.sh's variants take:
# make dist's own sub-makes then find them built.
for a in "${cross_arches[@]}"; do
	make_cross "$a" >>"$work/make-dist.log" 2>&1
done
if need musl-gcc; then
	(unset SANITIZE; make_locked -C "$TOP" -j"$(nproc 2>/dev/null || echo 2)" O="$O/musl" CC=musl-gcc STATIC=1 "$O/musl/vdsokit") \
		>>"$work/make-dist.log" 2>&1
fi
# make dist holds the lock of each directory it reads too, where a
# variant may be writing its test programs' .d files, which make reads.
locks=(flock "$O/.make.lock")
for d in musl "${cross_arches[@]/#/cross/}"; do
	mkdir -p "$O/$d" && locks+=(flock "$O/$d/.make.lock")
done
if "${locks[@]}" make -C "$TOP" O="$O" dist >>"$work/make-dist.log" 2>&1 && [ -f "$tarball" ]; then
	ok "make dist builds vdsokit-$version.tar.gz"
else
	not_ok "make dist builds vdsokit-$version.tar.gz" "$(tail -n 10 "$work/make-dist.log")"
	exit 0
fi
mkdir "$work/unpacked"
tar -C "$work/unpacked" -xzf "$tarball"
dir=$work/unpacked/vdsokit-$version
check "its SHA256SUMS check" sh -c "cd '$dir' && sha256sum --quiet -c SHA256SUMS"
check "it holds the man page" test -f "$dir/vdsokit.1"
check "the man page names the version" grep -q "\"vdsokit $version\"" "$dir/vdsokit.1"

for a in "${cross_arches[@]}"; do
	abi=${arch_abi[$a]} qemu=${arch_qemu_user[$a]}
	bin=$dir/$a/vdsokit
	if ! readelf -h "$bin" >/dev/null 2>&1 || readelf -l "$bin" | grep -q 'program interpreter'; then
		not_ok "$a: vdsokit is a static executable" "$(readelf -l "$bin" 2>&1 | head -n 8)"
		continue
	fi
	ok "$a: vdsokit is a static executable"
	check "$a: vdsotest is a link to it" test "$(readlink "$dir/$a/vdsotest")" = vdsokit
	run=("$bin")
	if [ -n "$(arch_prefix "$a")" ]; then
		if ! need "$qemu"; then
			skip "$a: it runs and says its version and architecture" "$qemu is not installed"
			continue
		fi
		run=("$qemu" "$bin")
	fi
	"${run[@]}" --version >"$work/version" 2>&1
	contains "$a: it says its version" "$work/version" "^vdsokit $version$"
	contains "$a: and its architecture, static" "$work/version" "^build: $abi, .*, static$"
	"${run[@]}" info >"$work/info" 2>&1 </dev/null
	status=$?
	# qemu-user maps no vDSO for some architectures: 4, said so.
	if [ $status -eq 0 ] || { [ $status -eq 4 ] && grep -q 'vDSO' "$work/info"; }; then
		ok "$a: vdsokit info runs (exit $status)"
	else
		not_ok "$a: vdsokit info runs" "exit $status" "$(head -n 5 "$work/info")"
	fi
done
rm -rf "$work"
