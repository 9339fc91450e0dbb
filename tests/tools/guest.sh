#!/usr/bin/env bash
# guest.sh KERNEL SECONDS SCRIPT PATH...: run SCRIPT with bash in an
# x86_64 guest of KERNEL under qemu (TCG), where this host cannot run
# what SCRIPT runs (i386 binaries, on a kernel with IA-32 emulation off),
# and print its output. The guest's root is an initramfs of this host's
# own shell tools (bash, coreutils, grep, sed, util-linux...) with the
# libraries ldd names, and each PATH (a file or a directory) at its own
# absolute path, so SCRIPT sees the tree as the host does.
#
# SCRIPT's output travels on the guest's second serial port, which the
# kernel's console does not share, and ends with a line saying how many
# lines came before it and SCRIPT's status: a guest that died or lost
# output is told apart from a script that failed.
#
# Exit status: SCRIPT's own; 2 bad arguments; 3 a tool it needs is
# missing here (qemu-system-x86_64, cpio); 5 the guest did not finish
# within SECONDS or its output was cut short.
set -uo pipefail

[ $# -ge 3 ] || { echo "usage: $0 KERNEL SECONDS SCRIPT [PATH...]" >&2; exit 2; }
kernel=$1 seconds=$2 script=$3
shift 3
for tool in qemu-system-x86_64 cpio ldd timeout; do
	command -v "$tool" >/dev/null || { echo "$0: $tool is not installed" >&2; exit 3; }
done
[ -r "$kernel" ] || { echo "$0: cannot read the kernel $kernel" >&2; exit 2; }
[ -r "$script" ] || { echo "$0: cannot read the script $script" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/vdsokit-guest.XXXXXX") || exit 2
qemu_pid=
cleanup() {
	[ -n "$qemu_pid" ] && kill "$qemu_pid" 2>/dev/null
	[ -n "${GUEST_KEEP:-}" ] && echo "kept $work" >&2 || rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
root=$work/root
mkdir -p "$root"/{proc,sys,dev,tmp,run,etc,root}

# The tools the test cases call; one a host lacks is left out, and the
# case that needs it SKIPs as it would on such a host.
tools="bash sh env cat cp mv rm ln mkdir rmdir ls chmod touch stat readlink realpath dirname
	basename head tail wc tr cut sort uniq seq printf echo test expr sleep date dd od cmp diff
	grep sed awk find xargs timeout mktemp nproc uname id kill true false yes tee truncate
	unshare nsenter setsid taskset prlimit flock ps pkill pgrep mkfifo sync stty mount umount tac
	fold comm join paste split md5sum sha256sum base64 hexdump file nice readelf setpriv
	getconf"
add() {
	local f=$1
	[ -e "$f" ] || return 0
	mkdir -p "$root$(dirname "$f")"
	cp -a "$f" "$root$f" 2>/dev/null
	# A link's target too, one link at a time (awk is a link to
	# /etc/alternatives/awk, a link to mawk).
	if [ -L "$f" ]; then
		local t
		t=$(readlink "$f")
		[ "${t#/}" != "$t" ] || t=$(dirname "$f")/$t
		add "$t"
	fi
	return 0
}
# Debian's /bin, /lib and /lib64 are links into /usr: first, so that
# what is copied below goes where they lead.
for l in /bin /sbin /lib /lib64; do
	[ -L "$l" ] || continue
	cp -a "$l" "$root$l"
	mkdir -p "$root/$(readlink "$l")"
done
for t in $tools; do
	p=$(command -v "$t") || continue
	[ "${p#/}" != "$p" ] || continue # a shell builtin
	add "$p"
	ldd "$p" 2>/dev/null | grep -oE '/[^ ]+' | while read -r lib; do add "$lib"; done
done
for p in "$@"; do
	mkdir -p "$root$(dirname "$p")"
	cp -a "$p" "$root$p" || exit 2
done
cp "$script" "$root/guest-script"
echo "root:x:0:0:root:/root:/bin/bash" >"$root/etc/passwd"
echo "root:x:0:" >"$root/etc/group"
cat >"$root/init" <<'EOF'
#!/bin/bash
export PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin HOME=/root
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mount -t tmpfs tmp /tmp
mkdir -p /dev/shm && mount -t tmpfs shm /dev/shm
stty -F /dev/ttyS1 raw -echo
bash /guest-script >/tmp/out 2>&1 </dev/null
status=$?
{ cat /tmp/out; echo "# guest: $(wc -l </tmp/out) lines, status $status"; } >/dev/ttyS1
sync
echo o >/proc/sysrq-trigger
EOF
chmod +x "$root/init"
(cd "$root" && find . | cpio -o -H newc --quiet) >"$work/initrd" || exit 2

# tsc, so that the guest's vDSO reads its clock as on real hardware
# (under TCG the guest would pick hpet, which the vDSO cannot read).
timeout -k 5 "$seconds" qemu-system-x86_64 -M pc -accel tcg -cpu max,+invtsc -smp 2 -m 2048 \
	-nographic -no-reboot -kernel "$kernel" -initrd "$work/initrd" \
	-append "console=ttyS0 quiet panic=-1 tsc=reliable clocksource=tsc rdinit=/init" \
	-serial "file:$work/console" -serial "file:$work/out" -monitor none \
	</dev/null >"$work/qemu.log" 2>&1 &
qemu_pid=$!
wait "$qemu_pid"
qemu_status=$?
qemu_pid=
tr -d '\r' <"$work/out" >"$work/out.txt"
last=$(tail -n 1 "$work/out.txt")
if [[ $last =~ ^\#\ guest:\ ([0-9]+)\ lines,\ status\ ([0-9]+)$ ]] &&
	[ "$(($(wc -l <"$work/out.txt") - 1))" = "${BASH_REMATCH[1]}" ]; then
	head -n -1 "$work/out.txt"
	exit "${BASH_REMATCH[2]}"
fi
cat "$work/out.txt"
if [ "$qemu_status" = 124 ] || [ "$qemu_status" = 137 ]; then
	echo "$0: the guest did not finish within $seconds s" >&2
else
	echo "$0: the guest's output was cut short (qemu exited $qemu_status)" >&2
fi
echo "$0: the end of its console:" >&2
tail -n 5 "$work/console" "$work/qemu.log" >&2
exit 5
