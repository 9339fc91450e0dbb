# What tests/cases/i386.sh and i386_serial.sh share: the i386 builds,
# linked dynamically against the cross toolchain's own loader so that
# --impl works without multilib, once as built and once with 64-bit
# time_t (-D_TIME_BITS=64), where libc's clock calls are the time64 ones;
# and the cases they rerun on each. VDSOKIT_I386_BUILDS and
# VDSOKIT_I386_CASES narrow them, for a developer who reruns a change's
# cases alone (the guest takes 25 minutes for all).
i386_loader=/usr/${arch_cross[i386]%-}/lib
i386_builds=${VDSOKIT_I386_BUILDS:-"i386-dyn i386-time64"}
i386_all=${VDSOKIT_I386_CASES:-"cli live images regress malformed bad_input verify verify_impl abi fallback bench timens compare vsyscall"}
# The builds differ in -D_TIME_BITS=64 only, which changes libc's clock
# calls (to their time64 entries) and nothing that vdsokit calls itself
# (the vDSO's entries, its syscalls): i386-time64 reruns the cases that
# call libc's clock, and the others would run the same code twice.
i386_libc_clock="verify abi fallback timens"

# i386_ready DESC: whether the cross compiler and loader are here; a
# SKIP for DESC naming the package where not.
i386_ready() {
	need_cross i386 "$1" || return 1
	if [ ! -x "$i386_loader/ld-linux.so.2" ]; then
		skip "$1" "no i386 loader at $i386_loader (Debian package libc6-i386-cross)"
		return 1
	fi
}

# i386_build NAME: builds it into $O/v/NAME (a no-op where the other case
# built it), one result line.
i386_build() {
	local extra=
	[ "$1" = i386-time64 ] && extra="-D_TIME_BITS=64 -D_FILE_OFFSET_BITS=64"
	if variant "v/$1" CROSS_COMPILE="${arch_cross[i386]}" CFLAGS="-O2 -g $extra" \
		LDFLAGS="-Wl,--dynamic-linker=$i386_loader/ld-linux.so.2 -Wl,-rpath=$i386_loader"; then
		ok "the $1 build ($extra)"
	else
		not_ok "the $1 build" "$(tail -n 5 "$TMP/variant-v-$1.log")"
		return 1
	fi
}

# i386_cases NAME all|parallel|serial: the reruns on NAME's build
# (natively and in i386.sh's guest alike), or those of them whose case
# file says it measures time ("# serial:", which tests/run.sh runs
# alone), or the others.
i386_cases() {
	local c serial out='' cases=$i386_all
	[ "$1" != i386-time64 ] || cases=${VDSOKIT_I386_CASES:-$i386_libc_clock}
	for c in $cases; do
		serial=no
		grep -q '^# serial:' "$TOP/tests/cases/$c.sh" && serial=yes
		case $2:$serial in all:* | serial:yes | parallel:no) out+="$c " ;; esac
	done
	echo "$out"
}

# i386_rerun NAME CASE...: the cases here on NAME's build, each line
# named for it.
i386_rerun() {
	local name=$1 dir=$O/v/$1 c
	shift
	for c in "$@"; do
		O=$dir VK=$dir/vdsokit bash "$TOP/tests/cases/$c.sh" 2>&1 |
			sed -E "s/^(not )?ok - /&$name: /"
	done
}
