# long: the x86_64 guest that runs the reruns where IA-32 emulation is
# off boots under TCG for about 25 minutes.
# The suite again on the i386 build, natively where the kernel has IA-32
# emulation on and in an x86_64 guest where it is off: the 32-bit ABI,
# its time32 and time64 entries, its own vDSO (linux-gate.so.1), on both
# builds of tests/i386_lib.sh. The cases that measure time rerun natively in
# i386_serial.sh, alone as they must; the guest runs them here, beside
# nothing of its own.
. "$TOP/tests/lib.sh"
. "$TOP/tests/i386_lib.sh"
i386_ready "the suite on i386" || exit 0

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
			echo '	export TMP=$(mktemp -d); case_start=$SECONDS'
			echo "	(cd \"\$TMP\" && bash \"\$TOP/tests/cases/\$c.sh\" 2>&1) | sed -E 's/^(not )?ok - /&$name: /'"
			echo "	echo \"# $name: \$c took \$((SECONDS - case_start)) s in the guest\""
			echo 'done'
		done
	} >"$script"
	for p in "$TOP"/*; do
		[ "$p" = "$TOP/build" ] || paths+=("$p")
	done
	for name in "$@"; do paths+=("$O/v/$name"); done
	"$TOP/tests/tools/guest.sh" "$kernel" "$guest_limit" "$script" "${paths[@]}" "$i386_loader" \
		2>"$TMP/guest.err"
	status=$?
	case $status in
	0) ok "the suite on $* ran in an x86_64 guest with IA-32 emulation ($(basename "$kernel"))" ;;
	3) unreached "the suite in an x86_64 guest" "$(tail -n 1 "$TMP/guest.err")" ;;
	*) not_ok "the suite on $* in an x86_64 guest" "exit $status" "$(tail -n 8 "$TMP/guest.err")" ;;
	esac
}

# guest_cases NAME: what the guest reruns on NAME's build: i386_cases's
# (on i386-time64 those that call libc's clock: about 8 of 25 min), but
# for images (it compiles them, and the guest has no compilers).
guest_cases() {
	i386_cases "$1" all | sed 's/\<images //'
}

# unreached DESC WHY: what this host lacks to boot the guest; under CI,
# where .ci/run installed everything and check-xarch fetched the kernel,
# a failure, as the i386 paths would go untested.
unreached() {
	if [ "${CI:-}" = true ]; then not_ok "$1" "$2"; else skip "$1" "$2"; fi
}

# Each boot's limit, in seconds: what the reruns of both builds took
# under TCG at a load of 13 (34 min), and a margin: CI has 90 in all.
guest_limit=${VDSOKIT_I386_GUEST_LIMIT:-2700}
guest=()
for name in $i386_builds; do
	i386_build "$name" || continue
	dir=$O/v/$name
	if ! runs_here "$dir/vdsokit"; then
		guest+=("$name")
		continue
	fi
	# shellcheck disable=SC2046 # one word per case
	i386_rerun "$name" $(i386_cases "$name" parallel)
done
[ ${#guest[@]} = 0 ] || in_guest "${guest[@]}"
