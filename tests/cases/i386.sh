# The suite again on the i386 build, natively where the kernel has IA-32
# emulation on and in an x86_64 guest where it is off: the 32-bit ABI,
# its time32 and time64 entries, its own vDSO (linux-gate.so.1). It is linked dynamically against the cross
# toolchain's own loader, so that --impl works without multilib, once as
# built and once with 64-bit time_t (-D_TIME_BITS=64), where libc's
# clock calls are the time64 ones.
. "$TOP/tests/lib.sh"

cases="cli live images regress malformed bad_input verify verify_impl abi fallback bench timens compare vsyscall"
loader=/usr/i686-linux-gnu/lib
if ! need i686-linux-gnu-gcc; then
	skip "the suite on i386" "i686-linux-gnu-gcc is not installed (Debian package gcc-i686-linux-gnu)"
	exit 0
fi
if [ ! -x "$loader/ld-linux.so.2" ]; then
	skip "the suite on i386" "no i386 loader at $loader (Debian package libc6-i386-cross)"
	exit 0
fi

# in_guest NAME...: the reruns of each NAME's build in an x86_64 guest
# whose kernel has IA-32 emulation (the kernel check-xarch's
# i386-on-x86_64 target boots, from its cache), for a host whose kernel
# refuses i386 binaries: every machine tests the i386 paths. One boot
# runs them all; a guest that died or lost output fails.
in_guest() {
	local kdir kernel name script=$TMP/guest.sh status paths=()
	if ! kdir=$("$TOP/tests/xarch/fetch.sh" bookworm amd64 linux-image-cloud-amd64 2>"$TMP/fetch.err"); then
		unreached "the suite in an x86_64 guest" "its kernel could not be fetched: $(tail -n 1 "$TMP/fetch.err")"
		return
	fi
	kernel=$(ls "$kdir"/vmlinuz-* | head -n 1)
	{
		echo "export TOP='$TOP'"
		for name in "$@"; do
			echo "export O='$O/v/$name' VK='$O/v/$name/vdsokit'"
			echo "for c in $(guest_cases "$name"); do"
			echo '	export TMP=$(mktemp -d)'
			echo "	(cd \"\$TMP\" && bash \"\$TOP/tests/cases/\$c.sh\" 2>&1) | sed -E 's/^(not )?ok - /&$name: /'"
			echo 'done'
		done
	} >"$script"
	for p in "$TOP"/*; do
		[ "$p" = "$TOP/build" ] || paths+=("$p")
	done
	for name in "$@"; do paths+=("$O/v/$name"); done
	"$TOP/tests/tools/guest.sh" "$kernel" "$guest_limit" "$script" "${paths[@]}" "$loader" 2>"$TMP/guest.err"
	status=$?
	case $status in
	0) ok "the suite on $* ran in an x86_64 guest with IA-32 emulation ($(basename "$kernel"))" ;;
	3) unreached "the suite in an x86_64 guest" "$(tail -n 1 "$TMP/guest.err")" ;;
	*) not_ok "the suite on $* in an x86_64 guest" "exit $status" "$(tail -n 8 "$TMP/guest.err")" ;;
	esac
}

# guest_cases NAME: what the guest reruns on NAME's build, within CI's
# time: all but images (it compiles them, and the guest has no
# compilers) on i386-dyn; on i386-time64, whose builds differ in libc's
# clock calls only, the cases that call libc's (about 8 of 25 min).
guest_cases() {
	case $1 in
	i386-dyn) echo "${cases/images /}" ;;
	*) echo "verify abi fallback timens" ;;
	esac
}

# unreached DESC WHY: what this host lacks to boot the guest; under CI,
# where .ci/run installed everything and check-xarch fetched the kernel,
# a failure, as the i386 paths would go untested.
unreached() {
	if [ "${CI:-}" = true ]; then not_ok "$1" "$2"; else skip "$1" "$2"; fi
}

# Each boot's limit, in seconds: about twice what the reruns of both
# builds took under TCG beside other work.
guest_limit=${VDSOKIT_I386_GUEST_LIMIT:-3600}
guest=()
for v in i386-dyn:"" i386-time64:"-D_TIME_BITS=64 -D_FILE_OFFSET_BITS=64"; do
	name=${v%%:*} extra=${v#*:}
	if ! variant "$name" CROSS_COMPILE=i686-linux-gnu- CFLAGS="-O2 -g $extra" \
		LDFLAGS="-Wl,--dynamic-linker=$loader/ld-linux.so.2 -Wl,-rpath=$loader"; then
		not_ok "the $name build" "$(tail -n 5 "$TMP/variant-$name.log")"
		continue
	fi
	ok "the $name build ($extra)"
	dir=$O/v/$name
	if ! runs_here "$dir/vdsokit"; then
		guest+=("$name")
		continue
	fi
	for c in $cases; do
		O=$dir VK=$dir/vdsokit bash "$TOP/tests/cases/$c.sh" 2>&1 |
			sed -E "s/^(not )?ok - /&$name: /"
	done
done
[ ${#guest[@]} = 0 ] || in_guest "${guest[@]}"
