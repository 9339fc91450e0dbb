# The suite again on the i386 build, which runs natively where the kernel
# has IA-32 emulation on: the 32-bit ABI, its time32 and time64 entries, its own
# vDSO (linux-gate.so.1). It is linked dynamically against the cross
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
		skip "the suite on $name" "$NO_I386"
		continue
	fi
	for c in $cases; do
		O=$dir VK=$dir/vdsokit bash "$TOP/tests/cases/$c.sh" 2>&1 |
			sed -E "s/^(not )?ok - /&$name: /"
	done
done
