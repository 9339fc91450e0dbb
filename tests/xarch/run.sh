#!/usr/bin/env bash
# make check-xarch: for each target, cross-build vdsokit statically with
# tests/xarch/init.c as /init, boot one of Debian's own kernels on it under
# qemu-system (software emulation; KVM for x86 where a probe boot proves
# that it works), and read back from the serial console
# what each vdsokit command printed and how it exited. Prints one table,
# target x command, and exits 1 if any command failed or any boot broke.
#
# Environment: VDSOKIT_XARCH_CACHE (kernels; see fetch.sh),
# VDSOKIT_XARCH_TARGETS (a subset, e.g. "arm64 riscv64"),
# VDSOKIT_XARCH_JOBS (boots at a time, default 2).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2

MAKE=${MAKE:-make}
# The sub-makes take only the options given here, not the caller's.
unset MAKEFLAGS MFLAGS MAKELEVEL
out=build/xarch
res=$out/results
jobs=${VDSOKIT_XARCH_JOBS:-2}
# init.c gives its commands 450 s at most; a boot gets that and a margin.
boot_timeout=480
commands=(info verify abi fallback timens bench)

# Where clock_gettime(CLOCK_MONOTONIC) must run on the vDSO path: x86
# boots with tsc, which the vDSO reads, and with hpet, which it cannot
# read, so that fallback must name the syscall and the reason.
# target  build  suite  arch  kernel package  qemu  console  clock  clocksource  machine...
table='
arm64          arm64   bookworm arm64   linux-image-cloud-arm64 qemu-system-aarch64 ttyAMA0 userspace - -M virt -cpu max,pauth-impdef=on
armhf-on-arm64 armhf   bookworm arm64   linux-image-cloud-arm64 qemu-system-aarch64 ttyAMA0 userspace - -M virt -cpu max,pauth-impdef=on
armhf          armhf   bookworm armhf   linux-image-armmp-lpae  qemu-system-arm     ttyAMA0 userspace - -M virt -cpu cortex-a15
ppc64le        ppc64le bookworm ppc64el linux-image-powerpc64le qemu-system-ppc64   hvc0    userspace - -M pseries,x-vof=on -vga none
s390x          s390x   bookworm s390x   linux-image-s390x       qemu-system-s390x   ttysclp0 userspace - -M s390-ccw-virtio -cpu max
riscv64        riscv64 trixie   riscv64 linux-image-riscv64     qemu-system-riscv64 ttyS0   userspace - -M virt -bios default
x86_64         x86_64  bookworm amd64   linux-image-cloud-amd64 qemu-system-x86_64  ttyS0   userspace tsc -M pc
x86_64-hpet    x86_64  bookworm amd64   linux-image-cloud-amd64 qemu-system-x86_64  ttyS0   syscall hpet -M pc
i386-on-x86_64 i386    bookworm amd64   linux-image-cloud-amd64 qemu-system-x86_64  ttyS0   userspace tsc -M pc
i386           i386    bookworm i386    linux-image-686-pae     qemu-system-i386    ttyS0   userspace tsc -M pc
'

declare -A cross=(
	[arm64]=aarch64-linux-gnu- [armhf]=arm-linux-gnueabihf- [ppc64le]=powerpc64le-linux-gnu-
	[s390x]=s390x-linux-gnu- [riscv64]=riscv64-linux-gnu- [x86_64]='' [i386]=i686-linux-gnu-
)
# The Debian package that provides each tool, for the skip reason.
declare -A provider=(
	[qemu-system-aarch64]=qemu-system-arm [qemu-system-arm]=qemu-system-arm
	[qemu-system-ppc64]=qemu-system-ppc [qemu-system-s390x]=qemu-system-misc
	[qemu-system-riscv64]=qemu-system-misc
	[qemu-system-x86_64]=qemu-system-x86 [qemu-system-i386]=qemu-system-x86
	[gcc]=gcc [i686-linux-gnu-gcc]='gcc-i686-linux-gnu libc6-dev-i386-cross'
	[aarch64-linux-gnu-gcc]='gcc-aarch64-linux-gnu libc6-dev-arm64-cross'
	[arm-linux-gnueabihf-gcc]='gcc-arm-linux-gnueabihf libc6-dev-armhf-cross'
	[powerpc64le-linux-gnu-gcc]='gcc-powerpc64le-linux-gnu libc6-dev-ppc64el-cross'
	[s390x-linux-gnu-gcc]='gcc-s390x-linux-gnu libc6-dev-s390x-cross'
	[riscv64-linux-gnu-gcc]='gcc-riscv64-linux-gnu libc6-dev-riscv64-cross'
)

declare -A build_of suite_of arch_of pkg_of qemu_of console_of clock_of clocksource_of machine_of
targets=()
while read -r name build suite arch pkg qemu console clock clocksource machine; do
	[ -n "$name" ] || continue
	targets+=("$name")
	build_of[$name]=$build suite_of[$name]=$suite arch_of[$name]=$arch pkg_of[$name]=$pkg
	qemu_of[$name]=$qemu console_of[$name]=$console clock_of[$name]=$clock
	clocksource_of[$name]=$clocksource machine_of[$name]=$machine
done <<<"$table"
if [ -n "${VDSOKIT_XARCH_TARGETS:-}" ]; then
	for t in $VDSOKIT_XARCH_TARGETS; do
		[ -n "${build_of[$t]:-}" ] || { echo "check-xarch: unknown target $t (known: ${targets[*]})" >&2; exit 2; }
	done
	read -r -a targets <<<"$VDSOKIT_XARCH_TARGETS"
fi

# Run "$@" in the background, at most $jobs at once.
limited() {
	while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
		wait -n
	done
	"$@" &
}

kernel_key() { echo "${suite_of[$1]} ${arch_of[$1]} ${pkg_of[$1]}"; }
kernel_dir() { echo "$out/kernels/${suite_of[$1]}-${arch_of[$1]}-${pkg_of[$1]}"; }

fetch() { # SUITE ARCH PKG: the kernel's /boot, linked under $out/kernels
	local dir=$out/kernels/$1-$2-$3 boot
	if boot=$(tests/xarch/fetch.sh "$1" "$2" "$3" 2>"$dir.err"); then
		ln -sfn "$boot" "$dir"
		rm -f "$dir.err"
	fi
}

build() { # BUILD: vdsokit and /init, packed into an initramfs
	local b=$1
	mkdir -p "$out/$b"
	rm -f "$out/$b/build.err"
	if ! $MAKE -s -j"$jobs" O="$out/$b" CROSS_COMPILE="${cross[$b]}" STATIC=1 \
		xarch-initramfs >"$out/$b/build.log" 2>&1; then
		echo "build failed: see $out/$b/build.log" >"$out/$b/build.err"
	fi
}

is_x86() { case ${qemu_of[$1]} in qemu-system-x86_64 | qemu-system-i386) ;; *) return 1 ;; esac; }

# An x86 guest may run under the host's KVM, but a /dev/kvm that opens
# is no proof: a nested, paravirtual KVM hangs a stock guest in its real
# mode setup. KVM is used only if a probe boot of TARGET's kernel reaches
# /init within 30 s. Writes $out/accel: "kvm" or "tcg" and the reason.
probe_kvm() { # TARGET
	local t=$1 log=$out/kvm-probe.log pid i kernel verdict
	kernel=$(ls "$(kernel_dir "$t")"/vmlinu[xz]-* 2>/dev/null | head -n 1)
	if [ ! -r /dev/kvm ] || [ ! -w /dev/kvm ]; then
		verdict="tcg: no /dev/kvm to use"
	else
		"${qemu_of[$t]}" -M pc -accel kvm -cpu host -smp 1 -m 512M -display none \
			-monitor none -serial stdio -nic none -no-reboot -kernel "$kernel" \
			-initrd "$out/${build_of[$t]}/initramfs.cpio" \
			-append "console=ttyS0 panic=-1 quiet" </dev/null >"$log" 2>&1 &
		pid=$!
		for ((i = 0; i < 30; i++)); do
			grep -q 'vdsokit-xarch: kernel' "$log" && break
			kill -0 $pid 2>/dev/null || break
			sleep 1
		done
		if grep -q 'vdsokit-xarch: kernel' "$log"; then
			verdict="kvm: a probe boot reached /init in $i s"
		elif kill -0 $pid 2>/dev/null; then
			verdict="tcg: a KVM probe boot did not reach /init in $i s (log: $log)"
		else
			verdict="tcg: qemu -accel kvm failed: $(grep -v '^$' "$log" | tail -n 1 | tr -d '\r')"
		fi
		kill $pid 2>/dev/null
		wait $pid 2>/dev/null
	fi
	echo "$verdict" >"$out/accel.tmp" && mv "$out/accel.tmp" "$out/accel"
}

# qemu's accelerator and CPU, and the kernel's clocksource, for an x86
# TARGET: tsc needs an invariant TSC (+invtsc) and the kernel's trust.
x86_args() { # TARGET: sets cpu and append
	local accel
	while [ ! -e "$out/accel" ]; do sleep 1; done
	accel=$(cut -d: -f1 "$out/accel")
	cpu=(-accel "$accel" -cpu "$([ "$accel" = kvm ] && echo host || echo max)")
	case ${clocksource_of[$1]} in
	tsc) cpu[3]+=,+invtsc append+=" tsc=reliable clocksource=tsc" ;;
	-) ;;
	*) append+=" clocksource=${clocksource_of[$1]}" ;;
	esac
}

boot() { # TARGET: the serial console goes to $res/TARGET/console.log
	local t=$1 kernel rc cpu=() append="console=${console_of[$1]} panic=-1 quiet"
	local dir=$res/$t
	kernel=$(ls "$(kernel_dir "$t")"/vmlinu[xz]-* 2>/dev/null | head -n 1)
	! is_x86 "$t" || x86_args "$t"
	# -nic none: with no network, qemu looks for no option ROM.
	# panic=-1 and -no-reboot: a panic ends qemu instead of hanging it.
	timeout -k 10 "$boot_timeout" "${qemu_of[$t]}" ${machine_of[$t]} "${cpu[@]}" -smp 2 -m 1G \
		-display none -monitor none -serial stdio -nic none -no-reboot \
		-kernel "$kernel" -initrd "$out/${build_of[$t]}/initramfs.cpio" \
		-append "$append" </dev/null >"$dir/console.raw" 2>&1
	rc=$?
	tr -d '\r' <"$dir/console.raw" >"$dir/console.log" && rm -f "$dir/console.raw"
	[ $rc -ne 124 ] || echo "boot timed out after $boot_timeout s" >"$dir/boot.err"
	[ $rc -eq 124 ] || [ $rc -eq 0 ] || echo "qemu exited with status $rc" >"$dir/boot.err"
}

# Why a target cannot run here, or nothing: a missing tool is a skip,
# as in make check, with the package that provides it.
missing() {
	local t=$1 tool
	for tool in "${qemu_of[$t]}" "${cross[${build_of[$t]}]}gcc" cpio; do
		command -v "$tool" >/dev/null && continue
		echo "no $tool (package ${provider[$tool]:-$tool})"
		return
	done
}

start=$(date +%s)
rm -rf "$res" "$out/kernels"
mkdir -p "$out/kernels"
declare -A skip builds kernels
for t in "${targets[@]}"; do
	skip[$t]=$(missing "$t")
	mkdir -p "$res/$t"
	[ -z "${skip[$t]}" ] || continue
	builds[${build_of[$t]}]=1
	kernels[$(kernel_key "$t")]=1
done

echo "check-xarch: fetching kernels and building ${!builds[*]}"
# Downloads wait on the network, builds on the CPUs: both at once.
for k in "${!kernels[@]}"; do
	read -r suite arch pkg <<<"$k"
	fetch "$suite" "$arch" "$pkg" &
done
for b in "${!builds[@]}"; do
	build "$b"
done
wait

rm -f "$out/accel"
for t in "${targets[@]}"; do
	if [ -z "${skip[$t]}" ] && is_x86 "$t" && [ ! -e "$(kernel_dir "$t").err" ] &&
		[ ! -e "$out/${build_of[$t]}/build.err" ]; then
		# Its stderr would carry only the shell's word on how qemu ended.
		probe_kvm "$t" 2>/dev/null &
		break
	fi
done
for t in "${targets[@]}"; do
	[ -z "${skip[$t]}" ] || continue
	if [ -e "$(kernel_dir "$t").err" ]; then
		skip[$t]="kernel not fetched: $(tail -n 1 "$(kernel_dir "$t").err")"
	elif [ -e "$out/${build_of[$t]}/build.err" ]; then
		cp "$out/${build_of[$t]}/build.err" "$res/$t/boot.err"
	else
		echo "check-xarch: booting $t"
		limited boot "$t"
	fi
done
wait

# The lines one command printed between its markers, and its end marker.
section() { sed -n "/^vdsokit-xarch: begin $2\$/,/^vdsokit-xarch: end $2 /p" "$res/$1/console.log"; }

# One cell, in $result: the command's result, then its KTAP tests as
# passed/failed/skipped.
cell() { # TARGET COMMAND
	local t=$1 c=$2 log=$res/$1/$2.log end status pass fail skipped counts=''
	section "$t" "$c" | sed '1d;$d' >"$log"
	end=$(section "$t" "$c" | tail -n 1)
	status=$(sed -n 's/^vdsokit-xarch: end [a-z]* status \([a-z0-9-]*\).*/\1/p' <<<"$end")
	pass=$(grep -Ev '# (SKIP|skip)' "$log" | grep -c '^ok ')
	skipped=$(grep -Ec '^ok .*# (SKIP|skip)' "$log")
	fail=$(grep -c '^not ok ' "$log")
	[ $((pass + fail + skipped)) -eq 0 ] || counts=" $pass/$fail/$skipped"
	case $status in
	0) result="pass$counts" ;;
	1) result="FAIL$counts" ;;
	4) result="skip$counts" ;;
	'') result="NO-RESULT" ;;
	*) result="FAIL:$status" ;;
	esac
}

# Where fallback saw clock_gettime(CLOCK_MONOTONIC) run on the vDSO path,
# in $result: as the table expects ("userspace", or "syscall" for the
# clocksource the vDSO cannot read, with that reason), or FAIL.
clock_cell() { # TARGET
	local t=$1 how want=${clock_of[$1]}
	how=$(grep -A1 -E '^ok [0-9]+ clock-gettime-monotonic vdso fallback$' "$res/$t/fallback.log" 2>/dev/null |
		sed -n 's/^# //p')
	case $how in
	userspace) result=userspace ;;
	'falls back to '*'clocksource is not vDSO-capable') result=syscall ;;
	'') result=NO-RESULT ;;
	*) result="FAIL:$how" ;;
	esac
	[ "$result" = "$want" ] || [ "${result%%:*}" = FAIL ] || result="FAIL:$result"
	[ "$result" != syscall ] || notes+=("$t clock_gettime(CLOCK_MONOTONIC) on the vDSO: $how")
}

summary() {
	local failed=0 t c log release syms notes=() accel=''
	[ ! -e "$out/accel" ] || accel=$(cat "$out/accel")
	printf '%-15s %-24s' target kernel
	printf ' %-16s' "${commands[@]/%bench/bench(emulated)}" clock-vdso
	printf '\n'
	for t in "${targets[@]}"; do
		if [ -n "${skip[$t]}" ]; then
			printf '%-15s %-24s skip: %s\n' "$t" - "${skip[$t]}"
			continue
		fi
		log=$res/$t/console.log
		release=$(sed -n 's/^vdsokit-xarch: kernel \([^ ]*\) .*/\1/p' "$log" 2>/dev/null)
		printf '%-15s %-24s' "$t" "${release:-?}"
		for c in "${commands[@]}"; do
			result=NO-BOOT
			[ -z "$release" ] || cell "$t" "$c"
			printf ' %-16s' "$result"
			case $result in
			pass*) ;;
			skip*) notes+=("$t $c skipped: $(grep -Ev '^(ok |KTAP|1\.\.)' "$res/$t/$c.log" | head -n 1)") ;;
			*) failed=1 ;;
			esac
		done
		result=NO-BOOT
		[ -z "$release" ] || clock_cell "$t"
		printf ' %-16s\n' "$result"
		[ "${result%%:*}" != FAIL ] && [ "$result" != NO-BOOT ] && [ "$result" != NO-RESULT ] || failed=1
		[ ! -e "$res/$t/boot.err" ] || notes+=("$t: $(cat "$res/$t/boot.err")")
		[ -z "$release" ] || grep -q '^vdsokit-xarch: done$' "$log" ||
			notes+=("$t: /init did not finish; the end of $log:" "$(tail -n 5 "$log")")
		notes+=("$t kernel: $(cat "$(kernel_dir "$t")/package" 2>/dev/null)")
		syms=$(sed -n '/^symbols/,/^$/p' "$res/$t/info.log" 2>/dev/null |
			awk '$4 == "FUNC" || $4 == "NOTYPE" { sub(/@.*/, "", $6); print $6 }' | tr '\n' ' ')
		[ -z "$syms" ] || notes+=("$t vDSO: $syms")
	done
	echo
	echo "Cells: the command's result, then its KTAP tests passed/failed/skipped."
	echo "clock-vdso: where clock_gettime(CLOCK_MONOTONIC) ran on the vDSO path, as fallback proved."
	echo "bench ran under software emulation (x86 under KVM where the accelerator says so):"
	echo "its figures are not hardware figures."
	[ -z "$accel" ] || echo "x86 accelerator: $accel"
	printf '%s\n' "${notes[@]}"
	return $failed
}

mkdir -p "$res"
summary >"$res/summary.txt"
status=$?
echo
cat "$res/summary.txt"
echo "Logs: $res/TARGET/console.log and TARGET/COMMAND.log; $(($(date +%s) - start)) s"
exit $status
