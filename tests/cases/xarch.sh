# make check-xarch's gate (tests/xarch/run.sh) and its kernel fetch
# (tests/xarch/fetch.sh), run on stand-ins that boot nothing: apt-get,
# apt-cache and dpkg-deb that serve a fake kernel package, a make that
# makes an empty binary, qemu and cross compilers that are only there,
# and a vdsokit whose vm writes the results a good boot would. PATH holds
# only them and the few tools the scripts use, so that what is absent is
# the test's choice, not the host's. A target that did not boot fails the
# gate and is named in its last lines; only what this host lacks is a
# skip, and only for a target that was not asked for.
. "$TOP/tests/lib.sh"

bin=$TMP/bin
mkdir -p "$bin"
for t in bash cat cp cut date dirname basename grep head ln ls mkdir mktemp mv \
	readlink realpath rm rmdir sed sleep sort tail tar touch tr wc awk sha256sum seq timeout strings \
	uname; do
	ln -s "$(command -v "$t")" "$bin/$t" || { not_ok "the tool $t for the stand-ins is on PATH"; exit 0; }
done

# apt-get -c CONF -q update|download PKG. update holds the apt state's
# lists lock as apt does, and fails as apt does while another holds it;
# it fails for the arch $FAKE_APT_FAIL. With $FAKE_APT_SYNC, update
# creates SYNC/holding and holds its lock until SYNC/release appears.
cat >"$bin/apt-get" <<'EOF'
#!/usr/bin/env bash
conf=$2 cmd=$4
state=$(sed -n 's/^Dir::State "\(.*\)";$/\1/p' "$conf")
arch=$(sed -n 's/^APT::Architecture "\(.*\)";$/\1/p' "$conf")
case $cmd in
update)
	mkdir "$state/lists/fake-lock" 2>/dev/null ||
		{ echo "E: Unable to lock directory $state/lists/"; exit 100; }
	if [ "${FAKE_APT_FAIL:-}" = "$arch" ]; then
		rmdir "$state/lists/fake-lock"
		echo "E: Unable to lock directory $state/lists/"
		exit 100
	fi
	if [ -n "${FAKE_APT_SYNC:-}" ]; then
		touch "$FAKE_APT_SYNC/holding"
		for ((i = 0; i < 1200; i++)); do
			[ ! -e "$FAKE_APT_SYNC/release" ] || break
			sleep 0.1
		done
	fi
	rmdir "$state/lists/fake-lock" ;;
download)
	mkdir -p "pkg-$5/boot"
	echo "a kernel" >"pkg-$5/boot/vmlinuz-6.1.0-fake-$5"
	tar -C "pkg-$5" -cf "${5}_1_$arch.deb" ./boot && rm -r "pkg-$5" ;;
*) exit 100 ;;
esac
EOF
# flock, which leaves a mark in $FAKE_APT_SYNC each time it is run.
cat >"$bin/flock" <<EOF
#!/usr/bin/env bash
[ -z "\${FAKE_APT_SYNC:-}" ] || touch "\$FAKE_APT_SYNC/flock.\$\$"
exec $(command -v flock) "\$@"
EOF
printf '#!/usr/bin/env bash\n' >"$bin/apt-cache"
printf '#!/usr/bin/env bash\n[ "$1" = --fsys-tarfile ] && cat "$2"\n' >"$bin/dpkg-deb"
# make ... OUTPUT: the binary run.sh asks for.
printf '#!/usr/bin/env bash\nmkdir -p "$(dirname "${!#}")" && touch "${!#}"\n' >"$bin/make"
# Each booted arch's qemu and compiler (core/base/arches.def's, as run.sh
# names them); loongarch64's qemu is left out, so that its absence can be
# tested and then its stand-in put in.
tools=(gcc)
for a in "${arches[@]}"; do
	[ -n "${arch_qemu[$a]:-}" ] && [ "$a" != loongarch64 ] || continue
	tools+=("${arch_qemu[$a]}" "$(arch_prefix "$a")gcc")
done
for t in "${tools[@]}"; do
	printf '#!/usr/bin/env bash\nexit 1\n' >"$bin/$t"
done
# vdsokit info --image and list-apis --image: loongarch64's ABI and
# every API exported, but getrandom absent with FAKE_IMAGE_ABSENT.
# vdsokit vm ... --output DIR ...: each command passed, clock_gettime
# where the target expects it (the syscall for hpet and on the
# Cortex-A9). The KVM probe (--accel kvm) fails: x86 runs under TCG.
cat >"$bin/vdsokit" <<'EOF'
#!/usr/bin/env bash
args=" $* "
case $1 in
info)
	printf 'vDSO:          %s\n  ABI:         loongarch64: __vdso_* symbols at version LINUX_5.10\n' "$3"
	printf '  Linux note:  6.12.0-fake\n'
	exit 0 ;;
list-apis)
	echo "API   function   clock symbol   libc   syscall   vDSO"
	echo "getcpu  getcpu  -  __vdso_getcpu  sched_getcpu  getcpu(168)  exported"
	echo "getrandom  getrandom  -  __vdso_getrandom  getrandom  getrandom(278)  ${FAKE_IMAGE_ABSENT:-exported}"
	printf '\n2 APIs for the loongarch64 ABI; vDSO: %s\n' "$3"
	exit 0 ;;
inspect)
	# The host's inspect on an image (--format ktap --image FILE): every
	# check passed; FAKE_INSPECT plants a failed check (fail), a build
	# without inspect (missing), a run cut short (short).
	echo "$5" >>"$FAKE_INSPECTED"
	[ "${FAKE_INSPECT:-}" != missing ] || { echo "vdsokit inspect: this vdsokit was built without inspect" >&2; exit 4; }
	printf '# %s: x86_64, disassembled as x86_64-linux-gnu\n1..9\n' "$5"
	for i in 1 2 3 4 5 6 7 8 9; do
		if [ $i = 6 ] && [ "${FAKE_INSPECT:-}" = fail ]; then
			printf 'not ok 6 eh-frame-hdr\n# PT_GNU_EH_FRAME is empty (fake)\n'
		elif [ $i != 9 ] || [ "${FAKE_INSPECT:-}" != short ]; then
			echo "ok $i check-$i"
		fi
	done
	[ "${FAKE_INSPECT:-}" != fail ] || exit 1
	exit 0 ;;
esac
[ "${args/--accel kvm/}" = "$args" ] || exit 7
while [ "$1" != --output ]; do shift; done
d=$2
mkdir -p "$d"
# The commands given, each passed (FAKE_FAIL names one that failed).
echo "$args" >"$d/args"
for c in info verify abi fallback timens bench; do
	[ "${args/ -- $c /}" != "$args" ] || continue
	if [ "${FAKE_FAIL:-}" = $c ]; then
		echo 1 >"$d/$c.status"
		echo "not ok 1 fake" >"$d/$c.log"
	else
		echo 0 >"$d/$c.status"
		echo "ok 1 fake" >"$d/$c.log"
	fi
done
echo "kernel:   Linux 6.1.0-fake #1 SMP" >"$d/info.log"
# dump - writes the live vDSO; FAKE_DUMP_FAIL: it could not.
if [ -n "${FAKE_DUMP_FAIL:-}" ]; then
	echo 2 >"$d/dump.status"
	echo "vdsokit dump: -: Broken pipe" >"$d/dump.log"
else
	echo 0 >"$d/dump.status"
	echo "the live vDSO of $d" >"$d/dump.log"
fi
# A boot with vsyscall=MODE maps the page, but with FAKE_NO_VSYSCALL.
mode=$(grep -o 'vsyscall=[a-z]*' <<<"$args")
if [ -n "$mode" ] && [ -z "${FAKE_NO_VSYSCALL:-}" ]; then
	echo "vsyscall:      ${mode#vsyscall=}: [vsyscall] (fake)" >>"$d/info.log"
	printf 'ok %d %s vsyscall realtime\n' 2 gettimeofday 3 time 4 getcpu >>"$d/verify.log"
fi
if [ "${args/clocksource=hpet/}" != "$args" ]; then
	printf 'ok 1 clock-gettime-monotonic vdso fallback\n# falls back to the syscall: the clocksource is not vDSO-capable\n'
elif [ "${args/vexpress-a9/}" != "$args" ]; then
	echo "nameless function symbols: entries nulled out (fake)" >>"$d/info.log"
	echo 'ok 1 clock-gettime-monotonic vdso fallback # SKIP the vDSO does not export it'
else
	printf 'ok 1 clock-gettime-monotonic vdso fallback\n# userspace\n'
fi >"$d/fallback.log"
# A kernel without seccomp filters (sparc's): fallback skips, saying why.
if [ -n "${FAKE_NO_SECCOMP_FILTER:-}" ]; then
	echo 4 >"$d/fallback.status"
	echo 'vdsokit fallback: the kernel has no seccomp filters (CONFIG_SECCOMP_FILTER)' >"$d/fallback.log"
fi
EOF
chmod +x "$bin"/*

# gate NAME [VAR=VALUE...]: run.sh on the stand-ins with an empty cache,
# its output in $TMP/NAME.out, its last lines (from its verdict) in
# $TMP/NAME.last, its status in $gate.
gate() {
	local name=$1
	shift
	rm -rf "$TMP/cache" "$TMP/xarch"
	: >"$TMP/inspected"
	env -i PATH="$bin" HOME="$TMP" VK="$bin/vdsokit" VDSOKIT_XARCH_CACHE="$TMP/cache" FAKE_INSPECTED="$TMP/inspected" \
		VDSOKIT_XARCH_OUT="$TMP/xarch" VDSOKIT_ARCHES="$O/arches.sh" "$@" \
		bash "$TOP/tests/xarch/run.sh" >"$TMP/$name.out" 2>&1
	gate=$?
	sed -n '/^check-xarch: [0-9]* targets passed/,$p' "$TMP/$name.out" >"$TMP/$name.last"
}
# is DESC WANT: the last gate's status is WANT.
is() {
	if [ "$gate" = "$2" ]; then ok "$1"; else not_ok "$1" "exit $gate, expected $2" "$(tail -n 20 "$TMP/$name.out")"; fi
}

name=good
gate good
is "every default target booted and passed: the gate exits 0" 0
contains "its last line says so" "$TMP/good.last" '^check-xarch: 14 targets passed, 0 failed, 0 skipped$'

# The CI run of issue 34: armhf's kernels never fetched, the gate passed.
name=nofetch
# A boot that asks for the vsyscall page must have checked it.
gate novsyscall VDSOKIT_XARCH_TARGETS=x86_64 FAKE_NO_VSYSCALL=1
is "an x86_64 boot whose vsyscall page went unchecked fails the gate" 1
contains "and says so" "$TMP/novsyscall.last" \
	'^FAILED x86_64: vsyscall: no gettimeofday vsyscall rule passed; .*info says vsyscall: nothing, not xonly$'

# Without seccomp filters, where clock_gettime runs cannot be measured:
# the clock-vdso cell is a skip with fallback's reason, not a failure.
name=noseccomp
gate noseccomp VDSOKIT_XARCH_TARGETS=arm64 FAKE_NO_SECCOMP_FILTER=1
is "a kernel without seccomp filters: fallback and clock-vdso skip, the gate exits 0" 0
contains "the cells say skip" "$TMP/noseccomp.out" '^arm64 .* skip +pass 1/0/0 +pass 1/0/0 +pass 9/0/0 +skip *$'
contains "fallback's note says why" "$TMP/noseccomp.out" \
	'^arm64 fallback skipped: the kernel has no seccomp filters \(CONFIG_SECCOMP_FILTER\)$'
contains "and a note names the option" "$TMP/noseccomp.out" \
	'arm64 clock_gettime\(CLOCK_MONOTONIC\) on the vDSO: not measured: the kernel has no seccomp filters \(CONFIG_SECCOMP_FILTER\)'

# A target that boots for abi on the compat vDSO's futex unlock: only
# info, dump and that abi run, the others' cells are "-", not failures.
name=only
gate only VDSOKIT_XARCH_TARGETS=i386-on-x86_64-sid
is "a target that boots for some commands passes when they do" 0
contains "its row has a cell for each of them, - for the others" "$TMP/only.out" \
	'^i386-on-x86_64-sid +6\.1\.0-fake +pass +- +pass 1/0/0 +- +- +- +pass 9/0/0 +- *$'
contains "its guest runs abi on the 32-bit futex unlock alone, and no verify" \
	"$TMP/xarch/results/i386-on-x86_64-sid/args" \
	'^ .*-- info -- dump - -- abi --format ktap futex-robust-list32-try-unlock $'
gate onlyfail VDSOKIT_XARCH_TARGETS=i386-on-x86_64-sid FAKE_FAIL=abi
is "its abi's failure fails the gate" 1
contains "and names it" "$TMP/onlyfail.last" '^FAILED i386-on-x86_64-sid: abi FAIL 0/1/0$'

gate nofetch FAKE_APT_FAIL=armhf
is "a kernel not fetched fails the gate" 1
contains "the verdict counts both armhf targets failed" "$TMP/nofetch.last" \
	'^check-xarch: 12 targets passed, 2 failed, 0 skipped$'
contains "and names armhf with apt's error" "$TMP/nofetch.last" \
	'^FAILED armhf: did not boot: kernel not fetched: E: Unable to lock directory .*/apt/bookworm-armhf/state/lists/$'
contains "and armhf-vexpress-a9" "$TMP/nofetch.last" '^FAILED armhf-vexpress-a9: did not boot: kernel not fetched: E: '
check "the table has no skip row for them" bash -c "! grep -E '^armhf.* skip: ' '$TMP/nofetch.out'"

# A qemu this host lacks is a skip where the target was not asked for.
mv "$bin/qemu-system-mips64el" "$TMP/qemu-system-mips64el"
name=noqemu
gate noqemu
is "a qemu this host lacks, the target not asked for: the gate exits 0" 0
contains "the verdict counts two skipped" "$TMP/noqemu.last" '^check-xarch: 12 targets passed, 0 failed, 2 skipped$'
contains "and names each with the package" "$TMP/noqemu.last" \
	'^skipped mips64el: no qemu-system-mips64el \(package qemu-system-mips\)$'
contains "both" "$TMP/noqemu.last" '^skipped mipsel-on-mips64el: no qemu-system-mips64el'
name=noqemu-ci
gate noqemu-ci CI=true
is "under CI=true the default set is asked for: the same fails" 1
contains "naming the target and why" "$TMP/noqemu-ci.last" \
	'^FAILED mips64el: did not boot: no qemu-system-mips64el \(package qemu-system-mips\), and the target was asked for$'
name=noqemu-named
gate noqemu-named VDSOKIT_XARCH_TARGETS="arm64 mips64el"
is "a target named in VDSOKIT_XARCH_TARGETS is asked for: the same fails" 1
contains "the named target's verdict" "$TMP/noqemu-named.last" '^check-xarch: 1 targets passed, 1 failed, 0 skipped$'
mv "$TMP/qemu-system-mips64el" "$bin/qemu-system-mips64el"

# A tool fetch.sh needs, absent: its own status (3) tells run.sh so.
mv "$bin/dpkg-deb" "$TMP/dpkg-deb"
name=nodpkg
gate nodpkg
is "no dpkg-deb to fetch kernels, nothing asked for: every target a skip" 0
contains "naming the tool and its package" "$TMP/nodpkg.last" \
	'^skipped arm64: tests/xarch/fetch.sh: dpkg-deb is needed to fetch kernels \(package dpkg\)$'
name=nodpkg-named
gate nodpkg-named VDSOKIT_XARCH_TARGETS=arm64
is "and asked for, a failure" 1
contains "named" "$TMP/nodpkg-named.last" '^FAILED arm64: did not boot: kernel not fetched: .*dpkg-deb is needed'
mv "$TMP/dpkg-deb" "$bin/dpkg-deb"

# A kernel built from source (suite kbuild): tests/kbuild/build.sh's
# status 3, for what this host lacks to build it, is a skip where the
# target was not asked for, a failure where it was, both with its reason.
name=kbuild-all
gate kbuild-all VDSOKIT_XARCH_ALL=1 VDSOKIT_KBUILD_SOURCE=/nonexistent/linux.tar.xz
contains "make check-xarch-all: powerpc skipped, build.sh's reason given" "$TMP/kbuild-all.last" \
	'^skipped powerpc: tests/kbuild/build.sh: /nonexistent/linux.tar.xz missing \(package linux-source-6.12\)$'
contains "and ppc64" "$TMP/kbuild-all.last" '^skipped ppc64: tests/kbuild/build.sh: /nonexistent/'
contains "and sparc64" "$TMP/kbuild-all.last" '^skipped sparc64: tests/kbuild/build.sh: /nonexistent/'
contains "and loongarch64" "$TMP/kbuild-all.last" '^skipped loongarch64: tests/kbuild/build.sh: /nonexistent/'
name=kbuild-named
gate kbuild-named VDSOKIT_XARCH_TARGETS=powerpc VDSOKIT_KBUILD_SOURCE=/nonexistent/linux.tar.xz
is "asked for, a kernel that cannot be built fails the gate" 1
contains "naming build.sh's reason" "$TMP/kbuild-named.last" \
	'^FAILED powerpc: did not boot: kernel not fetched: tests/kbuild/build.sh: /nonexistent/linux.tar.xz missing'

# A target checked from file only (loongarch64: qemu 7.2 cannot boot
# it): build.sh names LLVM's package where a tool is missing; with its
# kernel in the cache, its vDSO images pass or fail the gate on what
# info --image and list-apis --image say, and nothing is booted.
echo "a kernel source" >"$TMP/linux.tar.xz"
name=loong-noclang
gate loong-noclang VDSOKIT_XARCH_TARGETS=loongarch64 VDSOKIT_KBUILD_SOURCE="$TMP/linux.tar.xz"
is "loongarch64 asked for, without clang-19: the gate fails" 1
contains "naming build.sh's reason and the package" "$TMP/loong-noclang.last" \
	'^FAILED loongarch64: not checked: kernel not fetched: tests/kbuild/build.sh: clang-19 is needed to build a kernel \(package clang-19\)$'
# Each of LLVM's tools build.sh needs, absent in turn, named with its package.
for t in clang-19:clang-19 ld.lld-19:lld-19 llvm-ar-19:llvm-19; do
	IFS=: read -r tool pkg <<<"$t"
	expect_status 3 "build.sh --arch loongarch64 without $tool exits 3" env -i PATH="$bin" \
		VDSOKIT_XARCH_CACHE="$TMP/cache" VDSOKIT_KBUILD_SOURCE="$TMP/linux.tar.xz" \
		bash "$TOP/tests/kbuild/build.sh" --arch loongarch64
	contains "naming $tool's package, $pkg" "$TMP/err" "$tool is needed to build a kernel \\(package $pkg\\)\$"
	printf '#!/usr/bin/env bash\nexit 1\n' >"$bin/$tool" && chmod +x "$bin/$tool"
done
for t in flex bison bc xz; do
	printf '#!/usr/bin/env bash\nexit 1\n' >"$bin/$t" && chmod +x "$bin/$t"
done
# gate_loong NAME VAR=VALUE...: the gate on loongarch64, its kernel and
# vDSO images (vdso.so, vdso.so.dbg) already in build.sh's cache.
gate_loong() {
	local key c=$TMP/loong-cache
	key=$( (sha256sum <"$TMP/linux.tar.xz"; cat "$TOP/contrib/vm-loongarch64.config") | sha256sum | cut -c1-16)
	rm -rf "$c" && mkdir -p "$c/kbuild/$key" && touch "$c/kbuild/$key/"{vmlinux,vdso.so,vdso.so.dbg}
	gate "$@" VDSOKIT_XARCH_CACHE="$c" VDSOKIT_XARCH_TARGETS=loongarch64 VDSOKIT_KBUILD_SOURCE="$TMP/linux.tar.xz"
}
name=loong
gate_loong loong
is "loongarch64's images export every API: the gate passes" 0
contains "its verdict" "$TMP/loong.last" '^check-xarch: 1 targets passed, 0 failed, 0 skipped$'
contains "its row: the images' release, no command run" "$TMP/loong.out" \
	'^loongarch64 +6\.12\.0-fake +(image-only +){6}pass 18/0/0 +- *$'
check "inspect read both of its images" grep -qx ".*/vdso\.so\.dbg" "$TMP/inspected"
contains "a note says why it is not booted" "$TMP/loong.out" '^loongarch64 not booted: qemu 7\.2 enters '
contains "and what each image exports" "$TMP/loong.out" '^loongarch64 image vdso\.so\.dbg: 2 APIs for the loongarch64 ABI, each exported$'
check "nothing is booted" bash -c "! grep -q 'booting loongarch64' '$TMP/loong.out'"
contains "nor tried without its qemu, which is named" "$TMP/loong.out" \
	'^loongarch64 tried: console 0 bytes; the kernel.s log ends: not tried: no qemu-system-loongarch64 \(package qemu-system-misc\) '
# The try: a qemu that saves a kernel log that ends in a panic where the
# monitor's pmemsave asks, and records the address; nm gives __log_buf at
# loongarch's direct-mapped 0x9000000000000000 + its physical address.
cat >"$bin/qemu-system-loongarch64" <<EOF
#!/usr/bin/env bash
while read -r cmd addr size file; do
	[ "\$cmd" = pmemsave ] || exit 0
	echo "\$addr \$size" >>"$TMP/pmemsave"
	f=\${file#\"} && f=\${f%\"}
	printf 'Linux version 6.12.0-fake\0Kernel panic - not syncing: fake\0---[ end Kernel panic - not syncing: fake ]---\0' >"\$f"
done
EOF
printf '#!/usr/bin/env bash\necho "90000000006e4ef8 b __log_buf"\n' >"$bin/nm"
chmod +x "$bin/qemu-system-loongarch64" "$bin/nm"
rm -f "$TMP/pmemsave"
name=loong-try
gate_loong loong-try
is "a kernel tried for the record does not change the verdict" 0
contains "the note ends with the panic read from its memory" "$TMP/loong-try.out" \
	'^loongarch64 tried: console 0 bytes; the kernel.s log ends: ---\[ end Kernel panic - not syncing: fake \]--- '
contains "read at its physical address, the low 48 bits" "$TMP/pmemsave" '^0x6e4ef8 131072$'
contains "its whole log kept" "$TMP/xarch/results/loongarch64/kernel-log.txt" '^Linux version 6\.12\.0-fake$'
# A qemu that cannot run it: the note says what qemu said.
printf '#!/usr/bin/env bash\necho "qemu-system-loongarch64: unsupported machine type" >&2\nexit 1\n' \
	>"$bin/qemu-system-loongarch64"
name=loong-noqemu
gate_loong loong-noqemu
is "a kernel qemu could not run is no verdict either" 0
contains "the note says what qemu said" "$TMP/loong-noqemu.out" \
	'^loongarch64 tried: console 0 bytes; the kernel.s log ends: nothing read from its memory: qemu said qemu-system-loongarch64: unsupported machine type '
rm -f "$bin/qemu-system-loongarch64" "$bin/nm"
name=loong-absent
gate_loong loong-absent FAKE_IMAGE_ABSENT=absent
is "an API of vdsokit's table absent from the image fails the gate" 1
contains "naming it" "$TMP/loong-absent.last" \
	'^FAILED loongarch64: image: list-apis --image vdso\.so: not exported: getrandom $'

name=loong-inspect
gate_loong loong-inspect FAKE_INSPECT=fail
is "a check inspect fails in loongarch64's images is a finding: the gate passes" 0
contains "its cell says finding" "$TMP/loong-inspect.out" '^loongarch64 +6\.12\.0-fake +(image-only +){6}finding 16/2/0 +- *$'
contains "and the verdict's last lines name it" "$TMP/loong-inspect.last" '^finding: loongarch64 inspect: vdso\.so: eh-frame-hdr: '

# inspect on the host, on each booted target's live vDSO as the guest's
# dump wrote it: a failed check of a whole run is the kernel's finding,
# named, and the target passes (doc/xarch.md); a run that could not be
# had (no live image, a run cut short, a vdsokit without inspect where
# the target was asked for) fails it; only a target not asked for may
# lack it, named in the verdict.
name=inspect-good
gate inspect-good VDSOKIT_XARCH_TARGETS=x86_64
is "inspect passed on x86_64's live vDSO: the gate passes" 0
contains "its cell" "$TMP/inspect-good.out" '^x86_64 .* pass 9/0/0 +userspace *$'
check "the image inspected is the one dump wrote" grep -qx ".*/results/x86_64/vdso-live\.so" "$TMP/inspected"
name=inspect-fail
gate inspect-fail VDSOKIT_XARCH_TARGETS=x86_64 FAKE_INSPECT=fail
is "a check inspect fails is a finding: the gate passes" 0
contains "its cell says finding" "$TMP/inspect-fail.out" '^x86_64 .* finding 8/1/0 +userspace *$'
contains "the verdict's last lines name it" "$TMP/inspect-fail.last" \
	'^finding: x86_64 inspect: vdso-live\.so: eh-frame-hdr: PT_GNU_EH_FRAME is empty \(fake\)$'
contains "and a note the check and why" "$TMP/inspect-fail.out" \
	'^x86_64 inspect: vdso-live\.so: eh-frame-hdr: PT_GNU_EH_FRAME is empty \(fake\)$'
name=inspect-short
gate inspect-short VDSOKIT_XARCH_TARGETS=x86_64 FAKE_INSPECT=short
is "an inspect run that reported 8 of its 9 checks fails the gate" 1
contains "as vdsokit's error" "$TMP/inspect-short.last" '^FAILED x86_64: inspect FAIL:3$'
name=inspect-nodump
gate inspect-nodump VDSOKIT_XARCH_TARGETS=x86_64 FAKE_DUMP_FAIL=1
is "no live image from the guest fails the gate" 1
contains "so named" "$TMP/inspect-nodump.out" "^x86_64 inspect: no live image: dump's status is 2$"
name=inspect-missing
gate inspect-missing VDSOKIT_XARCH_TARGETS=x86_64 FAKE_INSPECT=missing
is "a vdsokit without inspect, the target asked for: the gate fails" 1
contains "naming why" "$TMP/inspect-missing.last" '^FAILED x86_64: inspect: .* was built without inspect '
name=inspect-missing-default
gate inspect-missing-default FAKE_INSPECT=missing
is "nothing asked for: the gate passes without inspect" 0
contains "but its last line says so" "$TMP/inspect-missing-default.last" \
	'^skipped inspect on arm64 .* i386: .* was built without inspect$'

# A holds apt's lock; B, started then, must wait for it rather than fail
# as apt fails (the race that lost armhf's kernels). B is waited for
# until it exits (it failed) or runs flock after A's (it waits on it).
rm -rf "$TMP/cache" "$TMP/sync" && mkdir -p "$TMP/sync"
fetch() { # PACKAGE: fetch.sh's output in $TMP/PACKAGE.out and .err
	env -i PATH="$bin" HOME="$TMP" VDSOKIT_XARCH_CACHE="$TMP/cache" FAKE_APT_SYNC="$TMP/sync" \
		"$TOP/tests/xarch/fetch.sh" bookworm armhf "$1" >"$TMP/$1.out" 2>"$TMP/$1.err"
}
fetch linux-image-armmp-lpae &
a=$!
for ((i = 0; i < 1200; i++)); do
	[ ! -e "$TMP/sync/holding" ] || break
	sleep 0.1
done
fetch linux-image-armmp &
b=$!
for ((i = 0; i < 1200; i++)); do
	kill -0 "$b" 2>/dev/null || break
	set -- "$TMP"/sync/flock.*
	[ $# -lt 2 ] || break
	sleep 0.1
done
touch "$TMP/sync/release"
wait "$a"
sa=$?
wait "$b"
sb=$?
check "the first fetch of bookworm/armhf got its kernel" test "$sa" = 0 -a -s "$TMP/linux-image-armmp-lpae.out"
if [ "$sb" = 0 ] && [ -s "$TMP/linux-image-armmp.out" ]; then
	ok "the second, started while the first held apt's lock, got its kernel too"
else
	not_ok "the second, started while the first held apt's lock, got its kernel too" \
		"exit $sb: $(cat "$TMP/linux-image-armmp.err")"
fi
for p in linux-image-armmp-lpae linux-image-armmp; do
	check "$p's image is in the directory fetch.sh printed" \
		test -s "$(cat "$TMP/$p.out")/vmlinuz-6.1.0-fake-$p"
done
