#!/usr/bin/env bash
# make check-kbuild: the kernel developer's loop on kernels built from
# source. Builds (build.sh, cached) Debian's linux-source for x86_64 with
# `make tinyconfig` and contrib/vm.config as A, and B, the same with
# tai-to-syscall.patch; then, under `vdsokit vm --accel tcg`:
#   1. A boots and runs `all` to its end, no command of it a SKIP for
#      want of a kernel option;
#   2. the A/B of A and B exits 1 and names each call the patch moved to
#      the syscall, clock_gettime(CLOCK_TAI) and clock_getres(CLOCK_TAI),
#      in one line that says userspace and syscall, and nothing else.
# Each check's output is kept in build/kbuild. Exits 1 if a check failed.
#
# Environment: VK (the host's vdsokit, default build/vdsokit), and
# build.sh's.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2

MAKE=${MAKE:-make}
unset MAKEFLAGS MFLAGS MAKELEVEL
out=build/kbuild
VK=$(realpath "${VK:-build/vdsokit}")
failed=0

ok() { echo "ok - $*"; }
not_ok() {
	echo "not ok - $1"
	shift
	# Every line "#   "-prefixed: a shown log's "ok" lines are no passes.
	printf '%s\n' "$@" | sed 's/^/#   /'
	failed=1
}

mkdir -p "$out"
if ! $MAKE -s -j2 O="$out/x86_64" STATIC=1 "$out/x86_64/vdsokit" >"$out/build.log" 2>&1; then
	not_ok "a static vdsokit for the guest" "see $out/build.log"
	exit 1
fi
start=$SECONDS
a=$(tests/kbuild/build.sh) || { not_ok "kernel A builds"; exit 1; }
b=$(tests/kbuild/build.sh tests/kbuild/tai-to-syscall.patch) || { not_ok "kernel B builds"; exit 1; }
ok "kernels A ($a) and B built or cached: $((SECONDS - start)) s"

vm() { "$VK" vm --accel tcg --binary "$out/x86_64/vdsokit" "$@"; }

# 1. all on A. Its status is its commands' worst: 1 where the kernel has
# a finding, which is all's result, not a failure of the kernel's boot.
start=$SECONDS
rm -rf "$out/all"
vm --kernel "$a" --timeout 1800 --output "$out/all" -- all >/dev/null 2>"$out/all.err"
rc=$?
status=$(cat "$out/all/all.status" 2>/dev/null)
if [ $rc -le 1 ] && [ "$status" = "$rc" ]; then
	ok "A boots and runs all to its end (exit $rc): $((SECONDS - start)) s"
else
	not_ok "A boots and runs all to its end" "exit $rc: $(tail -n 3 "$out/all.err")"
fi
# A kernel option missing shows as a command that could not run at all.
skipped=$(grep -E '^[a-z]+ +SKIP ' "$out/all/all.log")
if [ -z "$skipped" ]; then
	ok "no command of all is a SKIP on a kernel of contrib/vm.config"
else
	not_ok "no command of all is a SKIP on a kernel of contrib/vm.config" "$skipped"
fi

# 2. A against B. A regression in kind is a failure, under TCG too.
start=$SECONDS
vm --kernel "$a" --kernel "$b" --rounds 1 --timeout 900 --output "$out/ab" >"$out/ab.out" 2>"$out/ab.err"
rc=$?
if [ $rc = 1 ]; then
	ok "the A/B exits 1: B sends calls A served in userspace to the syscall ($((SECONDS - start)) s)"
else
	not_ok "the A/B exits 1: B sends calls A served in userspace to the syscall" \
		"exit $rc ($out/ab.out, $out/ab.err)"
fi
for call in 'clock_gettime\(CLOCK_TAI\)' 'clock_getres\(CLOCK_TAI\)'; do
	lines=$(grep -E "$call" "$out/ab.out")
	if [ "$(grep -c . <<<"$lines")" = 1 ] && grep -q userspace <<<"$lines" &&
		grep -q syscall <<<"$lines"; then
		ok "the A/B names ${call//\\/} in one line, userspace and syscall"
	else
		not_ok "the A/B names ${call//\\/} in one line, userspace and syscall" \
			"${lines:-no line names it}"
	fi
done
if grep -qE '^differences in kind: 2\b' "$out/ab.out"; then
	ok "the A/B names no other difference"
else
	not_ok "the A/B names no other difference" "$(head -n 20 "$out/ab.out")"
fi
exit $failed
