#!/usr/bin/env bash
# make check-xarch: for each target, build vdsokit statically for its
# userspace and run it with `vdsokit vm` on one of Debian's own kernels
# under qemu-system (software emulation; KVM for x86 where a probe boot
# proves that it works): info, verify, abi, fallback, timens and bench in
# one boot, each command's output kept in build/xarch/results/TARGET.
# Prints one table, target x command, and exits 1 if any command failed,
# any target did not boot (its kernel not fetched, its build or its boot
# failed), or clock_gettime ran elsewhere than the target expects; its
# last lines name each target that failed or was skipped, and why.
#
# A target is skipped only for what this host lacks (a qemu, a cross
# compiler, apt to fetch its kernel) and only if it was not asked for:
# named in VDSOKIT_XARCH_TARGETS, or any of the default set under
# CI=true, where .ci/run has installed every package or failed.
#
# Environment: VK (the host's vdsokit, default build/vdsokit),
# VDSOKIT_XARCH_CACHE (kernels; see fetch.sh), VDSOKIT_XARCH_TARGETS (a
# subset, e.g. "arm64 riscv64"), VDSOKIT_XARCH_JOBS (boots at a time,
# default 2), VDSOKIT_XARCH_OUT (builds and results, default build/xarch).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2

MAKE=${MAKE:-make}
# The sub-makes take only the options given here, not the caller's.
unset MAKEFLAGS MFLAGS MAKELEVEL
out=${VDSOKIT_XARCH_OUT:-build/xarch}
res=$out/results
jobs=${VDSOKIT_XARCH_JOBS:-2}
VK=$(realpath "${VK:-build/vdsokit}")
# Each command's limit in the guest: about four times what the slowest
# target took; a boot gets them all and a margin. vm counts both in
# qemu's running, not the clock, so a loaded host does not cut them short.
command_timeout=150
boot_timeout=960
# A board where every call is a syscall that reads an emulated timer
# (the Cortex-A9's sp804): its bench took over 150 s on a loaded host.
declare -A command_timeout_of=([armhf-vexpress-a9]=450)
commands=(info verify abi fallback timens bench)
# Short budgets: under emulation the figures mean little and the whole
# run must stay within minutes. --max-fails 0 lets verify count every
# failure. x86_64's vsyscall page is a path where the kernel maps it (a
# SKIP with the reason elsewhere): xonly on x86_64, emulate on -hpet.
vm_commands=(
	-- info -- verify --format ktap -d 0.2 --max-fails 0 --paths vdso,libc,vsyscall
	-- abi --format ktap
	-- fallback --format ktap -- timens --format ktap -d 0.2
	-- bench --format ktap -d 0.02
)

# Where clock_gettime(CLOCK_MONOTONIC) must run on the vDSO path: x86
# boots with tsc (vm's default), which the vDSO reads, and with hpet,
# which it cannot read, so that fallback must name the syscall and why.
# A board is vm's --machine, --qemu-cpu and --dtb (a file of the kernel
# package's dtbs/), "-" for the arch's own: a Cortex-A9 has no generic
# timer, so arm's kernel nulls out its vDSO's entries. MIPS boots Malta
# (the board of Debian's malta kernels), mipsel also with a 34Kf core (MT)
# instead of qemu's default 24Kf. Suite "kbuild": a kernel built from
# Debian's linux-source by tests/kbuild/build.sh --arch ARCH, where
# Debian ships none (tinyconfig and contrib/vm-ARCH.config); its package
# column names a patch of tests/kbuild to build with, or "-". Build "-":
# no vdsokit for the guest, the target's vDSO is checked from file only
# (image_only, below).
# target  build  suite  arch  kernel package  its qemu  clock  board  kernel args
table='
arm64             arm64    bookworm arm64    linux-image-cloud-arm64 qemu-system-aarch64  userspace -  -
armhf-on-arm64    armhf    bookworm arm64    linux-image-cloud-arm64 qemu-system-aarch64  userspace -  -
armhf             armhf    bookworm armhf    linux-image-armmp-lpae  qemu-system-arm      userspace -  -
armhf-vexpress-a9 armhf    bookworm armhf    linux-image-armmp       qemu-system-arm      syscall   vexpress-a9:cortex-a9:vexpress-v2p-ca9.dtb -
ppc64le           ppc64le  bookworm ppc64el  linux-image-powerpc64le qemu-system-ppc64    userspace -  -
s390x             s390x    bookworm s390x    linux-image-s390x       qemu-system-s390x    userspace -  -
riscv64           riscv64  trixie   riscv64  linux-image-riscv64     qemu-system-riscv64  userspace -  -
mipsel            mipsel   bookworm mipsel   linux-image-4kc-malta   qemu-system-mipsel   userspace -  -
mipsel-34kf       mipsel   bookworm mipsel   linux-image-4kc-malta   qemu-system-mipsel   userspace malta:34Kf: -
mips64el          mips64el bookworm mips64el linux-image-5kc-malta   qemu-system-mips64el userspace -  -
mipsel-on-mips64el mipsel  bookworm mips64el linux-image-5kc-malta   qemu-system-mips64el userspace -  -
mips64el-n32      mipsn32  bookworm mips64el linux-image-5kc-malta   qemu-system-mips64el userspace -  -
x86_64            x86_64   bookworm amd64    linux-image-cloud-amd64 qemu-system-x86_64   userspace -  vsyscall=xonly
x86_64-hpet       x86_64   bookworm amd64    linux-image-cloud-amd64 qemu-system-x86_64   syscall   -  clocksource=hpet vsyscall=emulate
x86_64-sid        x86_64   sid      amd64    linux-image-cloud-amd64 qemu-system-x86_64   userspace -  -
i386-on-x86_64    i386     bookworm amd64    linux-image-cloud-amd64 qemu-system-x86_64   userspace -  -
i386              i386     bookworm i386     linux-image-686-pae     qemu-system-i386     userspace -  -
x32               x32      bookworm amd64    linux-image-amd64       qemu-system-x86_64   userspace -  syscall.x32=y
powerpc           powerpc  kbuild   powerpc  -                       qemu-system-ppc      userspace -  -
ppc64             ppc64    kbuild   ppc64    -                       qemu-system-ppc64    userspace -  -
powerpc-notime32  powerpc  kbuild   powerpc  no-compat-32bit-time    qemu-system-ppc      userspace -  -
sparc64           sparc64  kbuild   sparc64  -                       qemu-system-sparc64  userspace -  -
loongarch64       -        kbuild   loongarch64 -                    qemu-system-loongarch64 userspace - -
'

# Targets that run only when named in VDSOKIT_XARCH_TARGETS, not in the
# set CI gates on, each for its reason.
declare -A named_only=(
	# Whatever the archive holds that day: a fresh clone would test
	# another kernel than the last.
	[x86_64-sid]=moving
	# qemu gives each of the 34Kf's VPEs a Count of its own, set when its
	# host thread ran the kernel's write: verify's cross-thread order
	# fails by the host's scheduling delay (tests/xarch/FINDINGS.md, 13).
	[mipsel-34kf]=qemu-count-skew
	# Issue 38's ABIs, opt-in (make check-xarch-all): x32 needs the
	# generic amd64 kernel (cloud-amd64 has no CONFIG_X86_X32_ABI), which
	# Debian builds with X86_X32_DISABLED: syscall.x32=y turns it on.
	[x32]=issue-38 [mips64el-n32]=issue-38
	# Kernels built from source: the first build of each takes tens of
	# minutes on two cores.
	[powerpc]=issue-38 [ppc64]=issue-38 [powerpc-notime32]=issue-38 [sparc64]=issue-38
	[loongarch64]=issue-38
)
# Targets that are not booted, each for its reason: their kernel's vDSO
# images pass info --image and list-apis --image (image_only_row).
declare -A image_only=(
	[loongarch64]="qemu 7.2 enters a loongarch kernel with no firmware, and hands it no command line, initramfs, device tree or EFI tables (tests/xarch/FINDINGS.md, 16); and Debian 12 has no loongarch libc, nor has the kernel's nolibc the pthreads, libm, dlopen or setjmp vdsokit needs"
)
declare -A cross=(
	[arm64]=aarch64-linux-gnu- [armhf]=arm-linux-gnueabihf- [ppc64le]=powerpc64le-linux-gnu-
	[s390x]=s390x-linux-gnu- [riscv64]=riscv64-linux-gnu- [x86_64]='' [i386]=i686-linux-gnu-
	[mipsel]=mipsel-linux-gnu- [mips64el]=mips64el-linux-gnuabi64-
	[x32]=x86_64-linux-gnux32- [mipsn32]=mips64el-linux-gnuabi64-
	[powerpc]=powerpc-linux-gnu- [ppc64]=powerpc64-linux-gnu- [sparc64]=sparc64-linux-gnu-
)
# Builds whose compiler takes an ABI option: bookworm has no
# gcc-mips64el-linux-gnuabin32, but the n64 compiler builds n32.
declare -A abi_flag=([mipsn32]=-mabi=n32)
# The Debian package that provides each tool, for the skip reason.
declare -A provider=(
	[qemu-system-aarch64]=qemu-system-arm [qemu-system-arm]=qemu-system-arm
	[qemu-system-ppc]=qemu-system-ppc [qemu-system-ppc64]=qemu-system-ppc
	[qemu-system-s390x]=qemu-system-misc [qemu-system-sparc64]=qemu-system-sparc
	[qemu-system-riscv64]=qemu-system-misc [qemu-system-loongarch64]=qemu-system-misc
	[qemu-system-mipsel]=qemu-system-mips [qemu-system-mips64el]=qemu-system-mips
	[qemu-system-x86_64]=qemu-system-x86 [qemu-system-i386]=qemu-system-x86
	[gcc]=gcc [i686-linux-gnu-gcc]='gcc-i686-linux-gnu libc6-dev-i386-cross'
	[aarch64-linux-gnu-gcc]='gcc-aarch64-linux-gnu libc6-dev-arm64-cross'
	[arm-linux-gnueabihf-gcc]='gcc-arm-linux-gnueabihf libc6-dev-armhf-cross'
	[powerpc64le-linux-gnu-gcc]='gcc-powerpc64le-linux-gnu libc6-dev-ppc64el-cross'
	[s390x-linux-gnu-gcc]='gcc-s390x-linux-gnu libc6-dev-s390x-cross'
	[riscv64-linux-gnu-gcc]='gcc-riscv64-linux-gnu libc6-dev-riscv64-cross'
	[mipsel-linux-gnu-gcc]='gcc-mipsel-linux-gnu libc6-dev-mipsel-cross'
	[mips64el-linux-gnuabi64-gcc]='gcc-mips64el-linux-gnuabi64 libc6-dev-mips64el-cross'
	[x86_64-linux-gnux32-gcc]='gcc-x86-64-linux-gnux32 libc6-dev-x32-cross'
	[powerpc-linux-gnu-gcc]='gcc-powerpc-linux-gnu libc6-dev-powerpc-cross'
	[powerpc64-linux-gnu-gcc]='gcc-powerpc64-linux-gnu libc6-dev-ppc64-cross'
	[sparc64-linux-gnu-gcc]='gcc-sparc64-linux-gnu libc6-dev-sparc64-cross'
)
# The libraries a static link of each build needs beside its compiler.
declare -A libc_provider=(
	[x32]=libc6-dev-x32-cross
	[mipsn32]='libc6-dev-mipsn32-mips64el-cross libn32gcc-12-dev-mips64el-cross'
)

declare -A build_of suite_of arch_of pkg_of qemu_of clock_of board_of append_of
targets=()
while read -r name build suite arch pkg qemu clock board append; do
	[ -n "$name" ] || continue
	targets+=("$name")
	build_of[$name]=$build suite_of[$name]=$suite arch_of[$name]=$arch pkg_of[$name]=$pkg
	qemu_of[$name]=$qemu clock_of[$name]=$clock board_of[$name]=${board#-}
	append_of[$name]=${append#-}
done <<<"$table"
if [ -n "${VDSOKIT_XARCH_TARGETS:-}" ]; then
	for t in $VDSOKIT_XARCH_TARGETS; do
		[ -n "${build_of[$t]:-}" ] || { echo "check-xarch: unknown target $t (known: ${targets[*]})" >&2; exit 2; }
	done
	read -r -a targets <<<"$VDSOKIT_XARCH_TARGETS"
	asked=1
elif [ -n "${VDSOKIT_XARCH_ALL:-}" ]; then
	# make check-xarch-all: every target; one the host lacks a tool for is skipped.
	asked=
else
	asked=
	[ "${CI:-}" != true ] || asked=1
	for i in "${!targets[@]}"; do
		[ -z "${named_only[${targets[$i]}]:-}" ] || unset "targets[$i]"
	done
	targets=("${targets[@]}")
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

# SUITE ARCH PKG: the kernel's /boot (or the directory of its build),
# linked under $out/kernels; else why not in DIR.err, and DIR.absent
# where a tool to fetch or build it is missing.
fetch() {
	local dir=$out/kernels/$1-$2-$3 boot rc t0=$SECONDS
	if [ "$1" = kbuild ]; then
		local patch=()
		[ "$3" = - ] || patch=("tests/kbuild/$3.patch")
		boot=$(tests/kbuild/build.sh --arch "$2" "${patch[@]}" 2>"$dir.err") && boot=$(dirname "$boot")
	else
		boot=$(tests/xarch/fetch.sh "$1" "$2" "$3" 2>"$dir.err")
	fi
	rc=$?
	echo $((SECONDS - t0)) >"$dir.seconds"
	if [ $rc = 0 ] && ln -sfn "$boot" "$dir"; then
		rm -f "$dir.err"
		return
	fi
	[ $rc != 3 ] || touch "$dir.absent"
	[ -s "$dir.err" ] || echo "the kernel's fetch or build exited $rc" >"$dir.err"
}

cc_of() { echo "${cross[$1]}gcc${abi_flag[$1]:+ ${abi_flag[$1]}}"; }

build() { # BUILD: a static vdsokit for that userspace
	local b=$1 args=()
	mkdir -p "$out/$b"
	rm -f "$out/$b/build.err"
	[ -z "${abi_flag[$b]:-}" ] || args=(CC="$(cc_of "$b")")
	# Debian's libc6-dev-x32-cross has a libm.a script naming the host's
	# /usr/lib/x86_64-linux-gnux32/libm-*.a, which only libc6-dev-x32
	# installs: link the archive beside the script instead.
	if [ "$b" = x32 ]; then
		mkdir -p "$out/$b/libm"
		ln -sfn "$(dirname "$(x86_64-linux-gnux32-gcc -print-file-name=libm.a)")"/libm-*.a \
			"$out/$b/libm/libm.a"
		args+=(LDFLAGS="-L$(realpath "$out/$b/libm")")
	fi
	if ! $MAKE -s -j"$jobs" O="$out/$b" CROSS_COMPILE="${cross[$b]}" STATIC=1 "${args[@]}" \
		"$out/$b/vdsokit" >"$out/$b/build.log" 2>&1; then
		echo "build failed: see $out/$b/build.log" >"$out/$b/build.err"
	fi
}

is_x86() { case ${qemu_of[$1]} in qemu-system-x86_64 | qemu-system-i386) ;; *) return 1 ;; esac; }

kernel_of() { ls "$(kernel_dir "$1")"/vmlinu[xz]* 2>/dev/null | head -n 1; }

# An x86 guest may run under the host's KVM, but a /dev/kvm that opens
# is no proof: a nested, paravirtual KVM hangs a stock guest in its real
# mode setup. KVM is used only if vm under KVM runs info on TARGET's
# kernel within 40 s. Writes $out/accel: "kvm" or "tcg" and the reason.
probe_kvm() { # TARGET
	local t=$1 verdict
	if [ ! -r /dev/kvm ] || [ ! -w /dev/kvm ]; then
		verdict="tcg: no /dev/kvm to use"
	elif "$VK" vm --kernel "$(kernel_of "$t")" --binary "$out/${build_of[$t]}/vdsokit" \
		--accel kvm --timeout 40 --output "$out/kvm-probe" -- info 2>"$out/kvm-probe.err"; then
		verdict="kvm: a probe boot under KVM ran info"
	else
		verdict="tcg: a probe boot under KVM failed: $(tail -n 1 "$out/kvm-probe.err")"
	fi
	echo "$verdict" >"$out/accel.tmp" && mv "$out/accel.tmp" "$out/accel"
}

boot() { # TARGET: vm keeps each command's output and the console in $res/TARGET
	local t=$1 accel=tcg rc args=() machine cpu dtb start=$SECONDS
	if is_x86 "$t"; then
		while [ ! -e "$out/accel" ]; do sleep 1; done
		accel=$(cut -d: -f1 "$out/accel")
	fi
	[ -z "${append_of[$t]}" ] || args=(--append "${append_of[$t]}")
	if [ -n "${board_of[$t]}" ]; then
		IFS=: read -r machine cpu dtb <<<"${board_of[$t]}"
		args+=(--machine "$machine")
		[ -z "$cpu" ] || args+=(--qemu-cpu "$cpu")
		[ -z "$dtb" ] || args+=(--dtb "$(kernel_dir "$t")/dtbs/$dtb")
	fi
	"$VK" vm --kernel "$(kernel_of "$t")" --binary "$out/${build_of[$t]}/vdsokit" \
		--accel "$accel" --smp 2 --memory 1024 --timeout "$boot_timeout" \
		--command-timeout "${command_timeout_of[$t]:-$command_timeout}" --output "$res/$t" "${args[@]}" \
		"${vm_commands[@]}" >"$res/$t/vm.out" 2>"$res/$t/vm.err"
	rc=$?
	echo $((SECONDS - start)) >"$res/$t/seconds"
	case $rc in
	5 | 6 | 7 | 9) echo "vm: $(tail -n 1 "$res/$t/vm.err")" >"$res/$t/boot.err" ;;
	# The console lost output: whatever the logs say, the target failed.
	8) echo "LOST: vm: $(tail -n 1 "$res/$t/vm.err")" >"$res/$t/boot.err" ;;
	*) [ -e "$res/$t/info.status" ] || echo "vm exited $rc: $(tail -n 1 "$res/$t/vm.err")" >"$res/$t/boot.err" ;;
	esac
}

# A target that is not booted is tried once for the record: qemu runs its
# kernel for up to a minute of the host's time, its console in
# $res/TARGET/console.log. A kernel that dies before it has a console
# shows nothing there, so its own log is read from the guest's memory
# (__log_buf, saved by the monitor's pmemsave every 5 s) into
# kernel-log.txt, and the attempt ends once the kernel has panicked. The
# loongarch kernel runs in a direct-mapped window: its physical address is
# the low 48 bits of the virtual one.
try_boot() { # TARGET
	local t=$1 kernel dir=$res/$1 buf tool
	kernel=$(kernel_of "$t")
	for tool in "${qemu_of[$t]}" nm strings; do
		command -v "$tool" >/dev/null && continue
		echo "not tried: no $tool (package ${provider[$tool]:-binutils})" >"$dir/kernel-log.txt"
		return
	done
	buf=$(nm "$kernel" 2>/dev/null | awk '$3 == "__log_buf" { print $1 }')
	[ -n "$buf" ] || { echo "not tried: no __log_buf in $kernel" >"$dir/kernel-log.txt"; return; }
	buf=$(printf '%#x' $((0x$buf & 0xffffffffffff)))
	{
		for _ in $(seq 12); do
			sleep 5
			echo "pmemsave $buf 131072 \"$dir/log_buf\""
			sleep 1
			! grep -qa 'end Kernel panic' "$dir/log_buf" 2>/dev/null || break
		done
		echo quit
	} | timeout 90 "${qemu_of[$t]}" -M virt -m 1G -display none -no-reboot \
		-serial "file:$dir/console.log" -monitor stdio -kernel "$kernel" >"$dir/qemu.log" 2>&1
	if [ -s "$dir/log_buf" ]; then
		strings -n 4 "$dir/log_buf" >"$dir/kernel-log.txt"
	else
		echo "nothing read from its memory: qemu said $(tail -n 1 "$dir/qemu.log" | tr -d '\r')" \
			>"$dir/kernel-log.txt"
	fi
	rm -f "$dir/log_buf"
}

# What this host lacks to run a target, or nothing: the tool and the
# package that provides it.
missing() {
	local t=$1 tool
	# The kernel build's own tools: build.sh names them (exit 3).
	[ -z "${image_only[$t]:-}" ] || return 0
	for tool in "${qemu_of[$t]}" "${cross[${build_of[$t]}]}gcc"; do
		command -v "$tool" >/dev/null && continue
		echo "no $tool (package ${provider[$tool]:-$tool})"
		return
	done
	[ -n "${libc_provider[${build_of[$t]}]:-}" ] || return 0
	# shellcheck disable=SC2046 # the compiler and its ABI option
	echo 'int main(void) { return 0; }' | $(cc_of "${build_of[$t]}") -static -x c - -o /dev/null 2>/dev/null ||
		echo "no static libc for $(cc_of "${build_of[$t]}") (package ${libc_provider[${build_of[$t]}]})"
}

start=$(date +%s)
rm -rf "$res" "$out/kernels"
mkdir -p "$out/kernels"
declare -A skip builds kernels
# Why a target did not boot goes to $res/TARGET/boot.err, which fails
# it; a skip is only for a tool this host lacks, never for our own error.
for t in "${targets[@]}"; do
	mkdir -p "$res/$t"
	skip[$t]=$(missing "$t")
	if [ -z "${skip[$t]}" ]; then
		[ -n "${image_only[$t]:-}" ] || builds[${build_of[$t]}]=1
		kernels[$(kernel_key "$t")]=1
	elif [ -n "$asked" ]; then
		echo "${skip[$t]}, and the target was asked for" >"$res/$t/boot.err"
		skip[$t]=
	fi
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

bootable() { [ -z "${skip[$1]}" ] && [ ! -e "$res/$1/boot.err" ]; }
for t in "${targets[@]}"; do
	bootable "$t" || continue
	k=$(kernel_dir "$t")
	if [ -e "$k.absent" ] && [ -z "$asked" ]; then
		skip[$t]=$(tail -n 1 "$k.err")
	elif [ -e "$k.err" ]; then
		echo "kernel not fetched: $(tail -n 1 "$k.err")" >"$res/$t/boot.err"
	elif [ -e "$out/${build_of[$t]}/build.err" ]; then
		cp "$out/${build_of[$t]}/build.err" "$res/$t/boot.err"
	fi
done

rm -rf "$out/accel" "$out/kvm-probe"
for t in "${targets[@]}"; do
	if bootable "$t" && is_x86 "$t"; then
		probe_kvm "$t" &
		break
	fi
done
for t in "${targets[@]}"; do
	bootable "$t" || continue
	if [ -n "${image_only[$t]:-}" ]; then
		echo "check-xarch: trying $t's kernel, for the record"
		limited try_boot "$t"
	else
		echo "check-xarch: booting $t"
		limited boot "$t"
	fi
done
wait

# One cell, in $result: the command's result, then its KTAP tests as
# passed/failed/skipped.
cell() { # TARGET COMMAND
	local log=$res/$1/$2.log status pass fail skipped counts=''
	status=$(cat "$res/$1/$2.status" 2>/dev/null)
	pass=$(grep -Ev '# (SKIP|skip)' "$log" 2>/dev/null | grep -c '^ok ')
	skipped=$(grep -Ec '^ok .*# (SKIP|skip)' "$log" 2>/dev/null)
	fail=$(grep -c '^not ok ' "$log" 2>/dev/null)
	[ $((pass + fail + skipped)) -eq 0 ] || counts=" $pass/$fail/$skipped"
	case $status in
	0) result="pass$counts" ;;
	1) result="FAIL$counts" ;;
	4) result="skip$counts" ;;
	124) result="TIMEOUT" ;;
	'') result="NO-RESULT" ;;
	*) result="FAIL:$status" ;;
	esac
}

# Where fallback saw clock_gettime(CLOCK_MONOTONIC) run on the vDSO path,
# in $result: as the table expects ("userspace", or "syscall" for the
# clocksource the vDSO cannot read, with that reason, or for an entry
# the kernel nulled out, as arm's does without its timer), or FAIL.
clock_cell() { # TARGET
	local t=$1 how want=${clock_of[$1]}
	# fallback skipped (a kernel without seccomp filters, sparc's): not
	# measured, which is a skip with fallback's reason, not a result.
	if [ "$(cat "$res/$t/fallback.status" 2>/dev/null)" = 4 ]; then
		result=skip
		how=$(sed -n 's/^vdsokit fallback: //p' "$res/$t/fallback.log" | tail -n 1)
		notes+=("$t clock_gettime(CLOCK_MONOTONIC) on the vDSO: not measured: ${how:-fallback skipped}")
		return
	fi
	# The test's reason: its SKIP's, or the diagnostic line after it.
	how=$(grep -m 1 -A1 -E '^ok [0-9]+ clock-gettime-monotonic vdso fallback( # SKIP .*)?$' \
		"$res/$t/fallback.log" 2>/dev/null | sed -n '1s/^ok .* # SKIP //p; 1d; s/^# //p' | head -n 1)
	case $how in
	userspace) result=userspace ;;
	'falls back to '*'clocksource is not vDSO-capable') result=syscall ;;
	'the vDSO does not export it')
		if grep -q 'nameless function symbols: entries nulled out' "$res/$t/info.log"; then
			result=syscall how="$how: info: $(grep -o 'entries nulled out.*' "$res/$t/info.log" | tr -d ')')"
		else
			result="FAIL:$how"
		fi ;;
	'') result=NO-RESULT ;;
	*) result="FAIL:$how" ;;
	esac
	[ "$result" = "$want" ] || [ "${result%%:*}" = FAIL ] || result="FAIL:$result"
	[ "$result" != syscall ] || notes+=("$t clock_gettime(CLOCK_MONOTONIC) on the vDSO: $how")
}

# A kernel built here left its vDSO images: list-apis --image must find
# every API of vdsokit's table for the ABI exported there, or the table
# and the arch's source disagree. In $result: empty, or why not.
image_check() { # TARGET
	local img apis bad
	result=
	[ "${suite_of[$1]}" = kbuild ] || return 0
	for img in "$(kernel_dir "$1")"/vdso*.so*; do
		[ -e "$img" ] || { result="no vDSO image in $(kernel_dir "$1")"; return; }
		apis=$("$VK" list-apis --image "$img" 2>&1) || { result="list-apis --image $img: $apis"; return; }
		bad=$(awk 'NR > 1 && NF > 3 && $1 !~ /^[0-9]+$/ && $NF != "exported" { print $1 }' <<<"$apis" | tr '\n' ' ')
		[ -z "$bad" ] || { result="list-apis --image ${img##*/}: not exported: $bad"; return; }
		notes+=("$1 image ${img##*/}: $(tail -n 1 <<<"$apis" | sed 's/;.*//'), each exported")
	done
}

# How long TARGET's kernel took to fetch or build, cached or not: shared
# by the targets that boot it, and run beside the others'.
kernel_seconds() { # TARGET
	local f
	f=$(kernel_dir "$1").seconds
	[ ! -e "$f" ] || echo " (fetched or built in $(cat "$f") s)"
}

# A target that is not booted: its row, its kernel's release as the
# images' Linux note says, and info --image of each image, which must
# name the ABI of vdsokit's table (image_check does the rest).
image_only_row() { # TARGET
	local t=$1 img release='' bad=()
	if [ -e "$res/$t/boot.err" ]; then
		printf '%-18s %-24s image-only: %s\n' "$t" - "$(cat "$res/$t/boot.err")"
		failures+=("FAILED $t: not checked: $(cat "$res/$t/boot.err")")
		return
	fi
	for img in "$(kernel_dir "$t")"/vdso*.so*; do
		if ! "$VK" info --image "$img" >>"$res/$t/info-image.log" 2>&1; then
			bad+=("info --image ${img##*/} failed")
		elif ! grep -q "^  ABI: *${arch_of[$t]}: " "$res/$t/info-image.log"; then
			bad+=("info --image ${img##*/}: no ${arch_of[$t]} ABI")
		fi
	done
	release=$(sed -n 's/^  Linux note: *//p' "$res/$t/info-image.log" | head -n 1)
	printf '%-18s %-24s' "$t" "${release:-?}"
	printf ' %-16s' "${commands[@]/*/image-only}" -
	printf '\n'
	image_check "$t"
	[ -z "$result" ] || bad+=("image: $result")
	notes+=("$t not booted: ${image_only[$t]}")
	notes+=("$t tried: console $(wc -c <"$res/$t/console.log" 2>/dev/null || echo 0) bytes; the kernel's log ends: $(tail -n 1 "$res/$t/kernel-log.txt" 2>/dev/null) ($res/$t/kernel-log.txt)")
	notes+=("$t kernel: $(cat "$(kernel_dir "$t")/package" 2>/dev/null)$(kernel_seconds "$t"); info --image: $res/$t/info-image.log")
	[ ${#bad[@]} -eq 0 ] || failures+=("FAILED $t: $(printf '%s; ' "${bad[@]}" | sed 's/; $//')")
}

# A target booted with vsyscall=MODE must have had its page checked: in
# $result, empty, or which of verify's vsyscall rows did not pass, and
# info's mode where it is not MODE.
vsyscall_check() { # TARGET
	local want f mode
	result=
	want=$(grep -o 'vsyscall=[a-z]*' <<<"${append_of[$1]}") || return 0
	want=${want#vsyscall=}
	for f in gettimeofday time getcpu; do
		grep -Eq "^ok [0-9]+ $f vsyscall [a-z-]+$" "$res/$1/verify.log" 2>/dev/null ||
			result+="no $f vsyscall rule passed; "
	done
	mode=$(sed -n 's/^vsyscall: *\([a-z]*\).*/\1/p' "$res/$1/info.log" 2>/dev/null)
	[ "$mode" = "$want" ] || result+="info says vsyscall: ${mode:-nothing}, not $want"
	result=${result%; }
}

# A kernel built without the time32 syscalls: no command may have been
# killed for it (a 32-bit glibc aborts where it cannot wait for a thread),
# and verify must have named the option in a SKIP. In $result: empty, or
# what was seen instead.
time32_check() { # TARGET
	result=
	[ "${pkg_of[$1]}" = no-compat-32bit-time ] || return 0
	! grep -l 'SIGABRT' "$res/$1"/*.log >/dev/null 2>&1 ||
		result+="killed by SIGABRT in $(grep -l 'SIGABRT' "$res/$1"/*.log | xargs -n 1 basename | tr '\n' ' '); "
	grep -Eq '^ok .* # SKIP .*CONFIG_COMPAT_32BIT_TIME is off' "$res/$1/verify.log" 2>/dev/null ||
		result+="verify named no CONFIG_COMPAT_32BIT_TIME in a SKIP"
	result=${result%; }
}

# The table, its notes, and last the verdict: how many targets passed,
# failed and were skipped, and a line for each that failed or was skipped.
summary() {
	local t c log release syms bad notes=() failures=() skips=() accel=''
	[ ! -e "$out/accel" ] || accel=$(cat "$out/accel")
	printf '%-18s %-24s' target kernel
	printf ' %-16s' "${commands[@]/%bench/bench(emulated)}" clock-vdso
	printf '\n'
	for t in "${targets[@]}"; do
		if [ -n "${skip[$t]}" ]; then
			printf '%-18s %-24s skip: %s\n' "$t" - "${skip[$t]}"
			skips+=("skipped $t: ${skip[$t]}")
			continue
		fi
		if [ -n "${image_only[$t]:-}" ]; then
			image_only_row "$t"
			continue
		fi
		release=$(sed -n 's/^kernel: *Linux \([^ ]*\) .*/\1/p' "$res/$t/info.log" 2>/dev/null)
		printf '%-18s %-24s' "$t" "${release:-?}"
		bad=()
		for c in "${commands[@]}"; do
			result=NO-BOOT
			[ -z "$release" ] || cell "$t" "$c"
			printf ' %-16s' "$result"
			case $result in
			pass*) ;;
			# Why: a KTAP SKIP's reason, or what the command said before it exited 4.
			skip*) notes+=("$t $c skipped: $(grep -m 1 -o 'SKIP.*' "$res/$t/$c.log" ||
				sed -n "s/^vdsokit $c: //p" "$res/$t/$c.log" | tail -n 1)") ;;
			*) bad+=("$c $result") ;;
			esac
		done
		result=NO-BOOT
		[ -z "$release" ] || clock_cell "$t"
		printf ' %-16s\n' "$result"
		[ "${result%%:*}" != FAIL ] && [ "$result" != NO-BOOT ] && [ "$result" != NO-RESULT ] ||
			bad+=("clock-vdso $result")
		image_check "$t"
		[ -z "$result" ] || bad+=("image: $result")
		vsyscall_check "$t"
		[ -z "$result" ] || bad+=("vsyscall: $result")
		time32_check "$t"
		[ -z "$result" ] || bad+=("time32: $result")
		[ ! -e "$res/$t/boot.err" ] || notes+=("$t: $(cat "$res/$t/boot.err")")
		! grep -q '^LOST: ' "$res/$t/boot.err" 2>/dev/null || bad+=("$(cat "$res/$t/boot.err")")
		if [ -z "$release" ]; then
			bad=("did not boot: $(cat "$res/$t/boot.err" 2>/dev/null || echo "no kernel release in $res/$t/info.log")")
		fi
		[ ${#bad[@]} -eq 0 ] || failures+=("FAILED $t: $(printf '%s; ' "${bad[@]}" | sed 's/; $//')")
		for c in "${commands[@]}"; do
			[ -z "$release" ] || [ -e "$res/$t/$c.status" ] ||
				{ notes+=("$t: the guest ran no $c; the end of $res/$t/console.log:" "$(tail -n 5 "$res/$t/console.log")"); break; }
		done
		[ ! -e "$res/$t/seconds" ] ||
			notes+=("$t kernel: $(cat "$(kernel_dir "$t")/package" 2>/dev/null)$(kernel_seconds "$t"); boot and commands: $(cat "$res/$t/seconds") s")
		syms=$(sed -n '/^symbols/,/^$/p' "$res/$t/info.log" 2>/dev/null |
			awk '$4 == "FUNC" || $4 == "NOTYPE" { sub(/@.*/, "", $6); if ($6 != "") print $6 }' | tr '\n' ' ')
		[ -z "$syms" ] || notes+=("$t vDSO: $syms")
	done
	echo
	echo "Cells: the command's result, then its KTAP tests passed/failed/skipped."
	echo "clock-vdso: where clock_gettime(CLOCK_MONOTONIC) ran on the vDSO path, as fallback proved."
	echo "bench ran under software emulation (x86 under KVM where the accelerator says so):"
	echo "its figures are not hardware figures."
	[ -z "$accel" ] || echo "x86 accelerator: $accel"
	printf '%s\n' "${notes[@]}"
	echo "Logs: $res/TARGET/console.log and TARGET/COMMAND.log; $(($(date +%s) - start)) s"
	echo "check-xarch: $((${#targets[@]} - ${#failures[@]} - ${#skips[@]})) targets passed," \
		"${#failures[@]} failed, ${#skips[@]} skipped"
	printf '%s\n' "${failures[@]}" "${skips[@]}" | sed '/^$/d'
	[ ${#failures[@]} -eq 0 ]
}

mkdir -p "$res"
summary >"$res/summary.txt"
status=$?
echo
cat "$res/summary.txt"
exit $status
