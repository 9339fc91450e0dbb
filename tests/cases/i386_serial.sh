# serial: the reruns on i386 of the cases that measure time (verify's
# threads, bench, compare; on i386-time64 those of them that call libc's
# clock: tests/i386_lib.sh), natively where the kernel runs i386 binaries;
# where it does not, i386.sh runs them in its x86_64 guest.
. "$TOP/tests/lib.sh"
. "$TOP/tests/i386_lib.sh"
i386_ready "the timing cases on i386" || exit 0

for name in $i386_builds; do
	i386_build "$name" || continue
	if ! runs_here "$O/v/$name/vdsokit"; then
		skip "the timing cases on $name" "$NO_I386: i386.sh ran them in an x86_64 guest"
		continue
	fi
	# shellcheck disable=SC2046 # one word per case
	i386_rerun "$name" $(i386_cases "$name" serial)
done
