#!/usr/bin/env bash
# make check-lava: run contrib/lava's test definition under a real LAVA
# dispatcher (lava-run, Debian's lava-dispatcher, no server) on a qemu job:
# Debian's x86_64 kernel (fetched as check-xarch fetches it), a busybox
# ramdisk holding the static vdsokit, TCG. LAVA appends its overlay to the
# ramdisk, boots it, and runs the definition from a git repository made
# of this tree's contrib/lava. Then compare.py checks that the results LAVA
# recorded equal what vdsokit printed in the same run.
#
# A second job plants a guest that never gives its shell: lava-run must
# end it at the job's boot timeout, non-zero, saying so.
#
# tests/lava/run.sh --record KTAP FILE instead runs the job with a
# stand-in for vdsokit that prints KTAP and exits 1, and writes the results
# and console lines of lava-run's output to FILE: the recorded output
# that tests/cases/lava_record.sh checks compare.py with.
#
# Prints what it checked and exits 0 when all holds, 1 otherwise. A tool
# this host lacks (lava-run, qemu, busybox-static, cpio, git, python3's
# yaml, root for lava-run) is a SKIP with its reason, exit 0, except under
# CI=true, where .ci/run has installed them: there it is a failure.
#
# Environment: MAKE, O (the build directory, default build; the work is in
# $O/lava), VDSOKIT_XARCH_CACHE (kernels; see tests/xarch/fetch.sh).
set -uo pipefail
record_ktap='' record_out=''
if [ "${1:-}" = --record ]; then
	if [ $# != 3 ] || [ ! -f "$2" ]; then
		echo "usage: $0 [--record KTAP FILE]" >&2
		exit 2
	fi
	record_ktap=$(realpath "$2") record_out=$(realpath -m "$3")
elif [ $# != 0 ]; then
	echo "usage: $0 [--record KTAP FILE]" >&2
	exit 2
fi
cd "$(dirname "$0")/../.." || exit 2

MAKE=${MAKE:-make}
unset MAKEFLAGS MFLAGS MAKELEVEL
O=$(realpath -m "${O:-build}")
work=$O/lava
# The job's limits, in seconds. The test took 314 s here at a load of 2
# (vdsokit all 84 s, then about 0.12 s per lava-test-case call under TCG):
# six times that leaves room for a loaded CI machine.
boot_timeout=300
test_timeout=1800
job_timeout=$((120 + boot_timeout + test_timeout + 120))
# The planted guest's: it never boots, so only the wait is at stake.
dead_boot_timeout=60

skip() {
	if [ "${CI:-}" = true ]; then
		echo "check-lava: FAIL: $1 (under CI=true .ci/run installs it)"
		exit 1
	fi
	echo "check-lava: SKIP: $1"
	exit 0
}

for tool in lava-run:lava-dispatcher qemu-system-x86_64:qemu-system-x86 cpio:cpio git:git \
	python3:python3; do
	command -v "${tool%:*}" >/dev/null ||
		skip "${tool%:*} is not installed (Debian's package ${tool#*:}): a farm's tool, not vdsokit's"
done
python3 -c 'import yaml' 2>/dev/null || skip "python3's yaml module is not installed (python3-yaml)"
busybox=/bin/busybox
if [ ! -x "$busybox" ] || LC_ALL=C readelf -lW "$busybox" 2>/dev/null | grep -q ' INTERP '; then
	skip "no static busybox at $busybox for the ramdisk (Debian's package busybox-static)"
fi
[ "$(id -u)" = 0 ] || skip "lava-run runs jobs as root only, and this is uid $(id -u)"

mkdir -p "$O" || exit 1
boot=$(tests/xarch/fetch.sh bookworm amd64 linux-image-cloud-amd64 2>"$work.fetch.err")
fetched=$?
if [ "$fetched" != 0 ]; then
	[ "$fetched" = 3 ] && skip "Debian's kernel cannot be fetched here: $(tail -n 1 "$work.fetch.err")"
	echo "check-lava: FAIL: Debian's x86_64 kernel could not be fetched:"
	tail -n 3 "$work.fetch.err"
	exit 1
fi
kernel=$(find "$boot" -maxdepth 1 -name "vmlinuz-*" | head -n 1)
if ! $MAKE O="$O" cross ARCH=x86_64 >"$work.build.log" 2>&1; then
	echo "check-lava: FAIL: make cross ARCH=x86_64:"
	tail -n 5 "$work.build.log"
	exit 1
fi
rm -f "$work.fetch.err" "$work.build.log"

rm -rf "$work" && mkdir -p "$work" || exit 1

# ramdisk DIR INIT: DIR.cpio, a newc archive of busybox, the static
# vdsokit and INIT as /init (and with --record, the stand-in). The
# kernel's own built-in archive gives /dev/console.
ramdisk() {
	local root=$1
	mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,root} &&
	cp "$busybox" "$root/bin/busybox" &&
	cp "$O/cross/x86_64/vdsokit" "$root/usr/bin/vdsokit" &&
	cp "$2" "$root/init" && chmod 755 "$root/init" || return 1
	if [ -n "$record_ktap" ]; then
		cp "$record_ktap" "$root/stand-in.ktap" &&
		printf '#!/bin/sh\ncat /stand-in.ktap\nexit 1\n' >"$root/usr/bin/vdsokit-stand-in" &&
		chmod 755 "$root/usr/bin/vdsokit-stand-in" || return 1
	fi
	(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet >"$root.cpio")
}

# The test definition as a farm takes it: a git repository, here one
# commit of this tree's contrib/lava as it is now.
repo=$work/repo
mkdir -p "$repo/contrib" && cp -R contrib/lava "$repo/contrib/" &&
	git -C "$repo" init -q &&
	git -C "$repo" add -A &&
	GIT_AUTHOR_NAME=check-lava GIT_AUTHOR_EMAIL=check-lava@invalid \
	GIT_COMMITTER_NAME=check-lava GIT_COMMITTER_EMAIL=check-lava@invalid \
		git -C "$repo" commit -q -m "contrib/lava for check-lava" || exit 1

# job NAME RAMDISK BOOT-TIMEOUT: NAME.yaml and NAME-device.yaml from the
# templates.
job() {
	sed -e "s|@KERNEL@|$kernel|" -e "s|@RAMDISK@|$2|" -e "s|@REPOSITORY@|$repo|" \
		-e "s|@VDSOKIT@|/usr/bin/vdsokit${record_ktap:+-stand-in}|" -e "s|@BOOT_TIMEOUT@|$3|" \
		-e "s|@TEST_TIMEOUT@|$test_timeout|" -e "s|@JOB_TIMEOUT@|$job_timeout|" \
		tests/lava/job.yaml >"$work/$1.yaml" &&
	cp tests/lava/device.yaml "$work/$1-device.yaml"
}

# lava NAME: runs job NAME with lava-run, its output in NAME.log and
# NAME-output/; sets $status and $took. lava-run keeps its scratch in
# /var/lib/lava/dispatcher/tmp/ID: an ID of this process's keeps two runs
# apart. timeout(1) only bounds lava-run itself, should it ever hang.
lava() {
	local start=$SECONDS
	timeout -k 30 $((job_timeout + 120)) lava-run --job-id "$$$2" \
		--output-dir "$work/$1-output" --device "$work/$1-device.yaml" \
		"$work/$1.yaml" >"$work/$1.log" 2>&1
	status=$?
	took=$((SECONDS - start))
}

failed=0
fail() { echo "check-lava: FAIL: $*"; failed=1; }

ramdisk "$work/ramdisk" tests/lava/init || exit 1
job vdsokit "$work/ramdisk.cpio" "$boot_timeout" || exit 1
echo "check-lava: lava-run on $(basename "$kernel"), TCG; the log: $work/vdsokit.log"
lava vdsokit 1
echo "check-lava: lava-run took $took s, exit $status"
[ "$status" = 0 ] || fail "lava-run exited $status: $(grep -o '"error_msg": "[^"]*"' "$work/vdsokit.log" | tail -n 1)"
if ! tests/lava/compare.py "$work/vdsokit.log"; then
	fail "LAVA's record is not vdsokit's"
fi
if [ -n "$record_ktap" ]; then
	[ "$failed" = 0 ] || exit 1
	grep -E '"lvl": "(results|target)"' "$work/vdsokit.log" |
		sed -n '/<LAVA_SIGNAL_STARTRUN /,$p' >"$record_out" || exit 1
	echo "check-lava: recorded $record_out"
	exit 0
fi

# A guest that never gives its shell: its /init only waits.
printf '#!/bin/busybox sh\nexec /bin/busybox sleep 100000\n' >"$work/never.init"
ramdisk "$work/never" "$work/never.init" || exit 1
job never "$work/never.cpio" "$dead_boot_timeout" || exit 1
lava never 2
why=$(grep -o '"error_msg": "[^"]*"' "$work/never.log" | tail -n 1)
echo "check-lava: a guest that never boots: lava-run exit $status after $took s: $why"
if [ "$status" = 0 ] || [ "$status" -ge 124 ]; then
	fail "lava-run did not end the guest that never boots by itself (exit $status)"
# Which of the boot's timers fires first varies: "wait for prompt timed
# out", "login-action timed out after 57 seconds".
elif ! grep -q 'timed out' <<<"$why" ||
	! grep -q '"case": "boot-image-retry", .*"result": "fail"' "$work/never.log"; then
	fail "lava-run's error does not say the boot timed out: ${why:-none}"
fi

[ "$failed" = 0 ] && echo "check-lava: ok"
exit "$failed"
