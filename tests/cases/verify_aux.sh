# verify's aux clocks (ids 16-23, CONFIG_POSIX_AUX_CLOCKS): a SKIP that
# names what is missing where vdsokit cannot enable one, and where it can,
# the clock enabled, stepped, slewed and left disabled again, a planted
# library that ignores the steps caught (tests/impl/bug-aux-stale.c) and
# the pass-through passing.
. "$TOP/tests/lib.sh"

IMPL=$O/tests/impl
AUX=/sys/kernel/time/aux_clocks

# rule FILE PATH RULE: the KTAP result of RULE on PATH for clock 23.
rule() {
	grep -E "^(not )?ok [0-9]+ clock-gettime-id:23 $2 $3( |\$)" "$1"
}

# Where the kernel may be asked: absent, not writable, or writable.
if [ ! -d "$AUX" ]; then
	aux=absent
elif [ -w "$AUX/7/aux_clock_enable" ] && [ "$(id -u)" = 0 ]; then
	aux=writable
else
	aux=refused
fi

out=$TMP/host.ktap
expect_status 0 "verify clock-gettime-id:23 exits 0 on the host's paths" \
	"$VK" verify -d 0.2 --paths vdso,libc,syscall --format ktap clock-gettime-id:23
cp "$TMP/out" "$out"
case $aux in
absent)
	contains "without $AUX, aux-enable is a SKIP naming CONFIG_POSIX_AUX_CLOCKS" "$out" \
		'^ok [0-9]+ clock-gettime-id:23 vdso aux-enable # SKIP no /sys/kernel/time/aux_clocks: .*CONFIG_POSIX_AUX_CLOCKS'
	;;
refused)
	contains "an aux clock vdsokit may not enable is a SKIP naming CAP_SYS_TIME" "$out" \
		'^ok [0-9]+ clock-gettime-id:23 vdso aux-enable # SKIP .*root and CAP_SYS_TIME'
	;;
writable)
	for p in vdso libc syscall; do
		n=$(rule "$out" $p 'aux-(enable|ordered|monotonic|step|slew|disable)' | grep -vc '# SKIP')
		if [ "$n" = 6 ] && ! rule "$out" $p 'aux-[a-z]+' | grep -q '^not ok'; then
			ok "the six aux rules pass on $p"
		else
			not_ok "the six aux rules pass on $p" "$(rule "$out" $p 'aux-[a-z]+')"
		fi
	done
	;;
esac
if [ "$aux" = writable ] && [ "$(cat "$AUX/7/aux_clock_enable")" != 0 ]; then
	not_ok "clock 23 is disabled again after verify" "$AUX/7/aux_clock_enable: $(cat "$AUX/7/aux_clock_enable")"
elif [ "$aux" = writable ]; then
	ok "clock 23 is disabled again after verify"
fi
"$VK" verify -d 0.05 --paths vdso --format json clock-gettime-id:23 2>&1 | tr -d '\n' >"$TMP/host.json"
contains "JSON carries aux-enable" "$TMP/host.json" '"check": *"aux-enable", *"status": *"(pass|skip)"'

# A kernel with aux clocks that refuses the write, as to a user: a SKIP
# that says what it takes, and no failure.
so=$IMPL/preload-aux-no-cap.so
if preloaded 0 "verify exits 0 where aux_clock_enable cannot be written" "$so" \
	verify -d 0.05 --paths vdso --format ktap clock-gettime-id:23; then
	contains "aux-enable's SKIP names root and CAP_SYS_TIME" "$TMP/out" \
		'^ok [0-9]+ clock-gettime-id:23 vdso aux-enable # SKIP cannot enable clock 23 \(Permission denied\): it takes root and CAP_SYS_TIME$'
fi

# The planted library and the pass-through, where an aux clock moves.
why=
if is_static "$VK"; then
	why="vdsokit is statically linked: no dlopen(), so no --impl"
elif [ ! -f "$IMPL/bug-aux-stale.so" ]; then
	why="$IMPL/bug-aux-stale.so is not built (make check-build)"
elif [ "$aux" = absent ]; then
	why="the kernel has no aux clocks ($AUX: CONFIG_POSIX_AUX_CLOCKS, Linux 6.17+)"
elif [ "$aux" = refused ]; then
	why="$AUX/7/aux_clock_enable cannot be written here (root and CAP_SYS_TIME)"
fi
for lib in bug-aux-stale passthrough; do
	desc="$lib: aux-ordered $([ $lib = passthrough ] && echo passes || echo fails)"
	if [ -n "$why" ]; then
		skip "$desc" "$why"
		continue
	fi
	"$VK" verify --impl "$IMPL/$lib.so" --paths impl -d 0.2 --format ktap clock-gettime-id:23 \
		>"$TMP/$lib.ktap" 2>&1
	if [ $lib = passthrough ]; then
		! rule "$TMP/$lib.ktap" impl 'aux-[a-z]+' | grep -q '^not ok' &&
			rule "$TMP/$lib.ktap" impl aux-ordered | grep -q '^ok' && ok "$desc" ||
			not_ok "$desc" "$(rule "$TMP/$lib.ktap" impl 'aux-[a-z]+')"
	else
		rule "$TMP/$lib.ktap" impl aux-ordered | grep -q '^not ok' && ok "$desc" ||
			not_ok "$desc" "$(rule "$TMP/$lib.ktap" impl 'aux-[a-z]+')"
	fi
done

# A path that crashes while the clock is enabled leaves it disabled: a
# process of verify's own writes the 0 (preload-aux-fake makes each
# aux_clock_enable a file of ours, so that this runs on any kernel).
so=$IMPL/preload-aux-fake.so
export VK_AUX_FAKE=$TMP/aux
mkdir -p "$VK_AUX_FAKE"
for i in 0 1 2 3 4 5 6 7; do echo 0 >"$VK_AUX_FAKE/$i"; done
if preloaded 1 "a path that crashes with clock 23 enabled fails survives" "$so" \
	verify --impl "$IMPL/crash-aux.so" --paths impl -d 0.1 --format ktap clock-gettime-id:23; then
	contains "the crash is named" "$TMP/out" '^not ok [0-9]+ clock_gettime impl survives$'
	contains "clock 23 is disabled again after the crash" "$VK_AUX_FAKE/7" '^0$'
fi
for i in 0 1 2 3 4 5 6 7; do echo 0 >"$VK_AUX_FAKE/$i"; done
if preloaded 1 "where the reads fail, aux-step fails and no rule passes silently" "$so" \
	verify --paths vdso -d 0.05 --format ktap clock-gettime-id:23; then
	contains "aux-enable passes: the clock was enabled" "$TMP/out" '^ok [0-9]+ clock-gettime-id:23 vdso aux-enable$'
	contains "aux-monotonic that read nothing is a SKIP" "$TMP/out" \
		'^ok [0-9]+ clock-gettime-id:23 vdso aux-monotonic # SKIP no read of clock 23 succeeded$'
	contains "clock 23 is disabled again after the run" "$VK_AUX_FAKE/7" '^0$'
fi
unset VK_AUX_FAKE
