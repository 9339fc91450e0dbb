# Every build the project promises: clang, static, musl, i386 (run here
# natively), and cross builds for other architectures, which run under
# qemu-user, where there is no vDSO: they must say so cleanly (exit 4).
. "$TOP/tests/lib.sh"

# build NAME MAKE-ARGS...: builds vdsokit and its test programs into
# $O/${dir_of[NAME]}: the directory of make cross (cross/ARCH) or make
# dist (musl) where ARGS are its flags, which dist.sh checks, so that
# each is compiled once; v/NAME for the others.
declare -A dir_of
build() {
	local name=$1 dir
	shift
	if [ "$name" = static ] && [ "$*" = STATIC=1 ]; then
		dir=$(static_dir)
	elif [ "$name" = musl ] && [ "$*" = "CC=musl-gcc STATIC=1" ]; then
		dir=musl
	elif [[ " ${cross_arches[*]} " = *" $name "* ]] && [ "$*" = "$(cross_args "$name")" ]; then
		dir=cross/$name
	else
		dir=v/$name
	fi
	dir_of[$name]=$dir
	if variant "$dir" "$@"; then
		ok "the $name build ($*) compiles warning-free"
	else
		not_ok "the $name build ($*) compiles warning-free" "$(tail -n 5 "$TMP/variant-${dir//\//-}.log")"
		return 1
	fi
}

# native NAME: the build runs here and finds its own vDSO's functions.
native() {
	local bin="$O/${dir_of[$1]}"
	expect_status 0 "the $1 build runs info" "$bin/vdsokit" info
	# Kept: the checks below (and the caller's) overwrite $TMP/out.
	cp "$TMP/out" "$TMP/info-$1.txt"
	contains "the $1 build finds clock_gettime" "$TMP/info-$1.txt" '^  clock_gettime +__vdso_clock_gettime@@LINUX_2\.6( |$)'
	if "$bin/tests/live" >"$TMP/live-$1.txt"; then
		ok "the $1 build passes the live reader test"
	else
		not_ok "the $1 build passes the live reader test" "$(grep '^not ok' "$TMP/live-$1.txt")"
	fi
	# A static build has no libLLVM: inspect says it is left out (status 4).
	if is_static "$bin/vdsokit"; then
		expect_status 4 "the $1 build's inspect exits 4" "$bin/vdsokit" inspect
		contains "the $1 build says inspect is left out" "$TMP/err" 'built without inspect'
	fi
}

if need clang; then
	build clang CC=clang && native clang
else
	skip "the clang build" "clang is not installed"
fi
build static STATIC=1 && native static
if need musl-gcc; then
	build musl CC=musl-gcc STATIC=1 && native musl
else
	skip "the musl build" "musl-gcc is not installed (Debian package musl-tools)"
fi
if need_cross i386 "the i386 build"; then
	if ! build i386 CROSS_COMPILE="${arch_cross[i386]}" STATIC=1; then
		:
	elif ! runs_here "$O/${dir_of[i386]}/vdsokit"; then
		skip "the i386 build runs here" "$NO_I386"
	else
		native i386
		contains "the i386 build finds clock_gettime64" "$TMP/info-i386.txt" \
			'^  clock_gettime64 +__vdso_clock_gettime64@@LINUX_2\.6( |$)'
		contains "the i386 vDSO is linux-gate.so.1" "$TMP/info-i386.txt" '^  soname: +linux-gate\.so\.1$'
	fi
fi

# Foreign builds: qemu-user maps no vDSO, so info must report its absence.
for name in arm64 armhf s390x ppc64le powerpc sparc64; do
	need_cross "$name" "the $name build" || continue
	build "$name" CROSS_COMPILE="${arch_cross[$name]}" STATIC=1 || continue
	qemu=${arch_qemu_user[$name]}
	if ! need "$qemu"; then
		skip "the $name build under qemu-user" "$qemu is not installed (Debian package qemu-user)"
		continue
	fi
	expect_status 4 "the $name build under qemu-user reports no vDSO (exit 4)" "$qemu" "$O/${dir_of[$name]}/vdsokit" info
	contains "the $name build says why" "$TMP/err" 'no vDSO \(AT_SYSINFO_EHDR is 0\)'
	contains "the $name build still describes the system" "$TMP/out" '^vDSO: +none: '
	# sparc64's timeval has an int tv_usec (glibc's and the kernel's):
	# read as a long, libc's gettimeofday was never normalized.
	[ "$name" = sparc64 ] || continue
	expect_status 0 "the sparc64 build's libc gettimeofday passes verify under qemu-user" \
		"$qemu" "$O/${dir_of[$name]}/vdsokit" verify --paths libc -d 0.05 gettimeofday
done
