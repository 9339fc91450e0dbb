#!/usr/bin/env bash
# Build inspect's planted images (tests/cases/inspect.sh): a clean x86_64
# image that passes every check, one image per planted defect, and an arm64
# pair that differs by one isb. Each is plant.c (or arm64-isb.S) built as
# a vDSO is, -nostdlib -shared, with the one flag or macro that plants it.
#
# Usage: tests/inspect/build.sh OUTDIR
# Needs $O/arches.sh (O defaulting to build; make check-build writes it),
# for each arch's compiler.
# Prints "SKIP NAME: reason" for each image it cannot build (no compiler);
# exits 1 if an installed compiler fails.
set -u

out=${1:?usage: build.sh OUTDIR}
src=$(cd "$(dirname "$0")" && pwd)
arches_sh=${O:-$src/../../build}/arches.sh
# shellcheck source=/dev/null # generated
. "$arches_sh" || { echo "build.sh: no $arches_sh (make check-build)" >&2; exit 1; }
mkdir -p "$out" || exit 1
# shellcheck disable=SC2054 # -Wl,a,b is one word
base=(-O2 -fPIC -fno-builtin -fno-stack-protector -shared -nostdlib
	-Wl,-soname=linux-vdso.so.1 -Wl,--hash-style=both -Wl,--version-script="$src/vdso.map"
	-Wl,-z,noexecstack)
status=0

# image NAME CC ARGS...: $out/NAME.so from CC with base's flags and ARGS.
image() {
	local name=$1 cc=$2
	shift 2
	if ! command -v "$cc" >/dev/null 2>&1; then
		echo "SKIP $name: $cc is not installed"
		return
	fi
	if ! "$cc" "${base[@]}" "$@" -o "$out/$name.so" 2>"$out/$name.log"; then
		echo "build.sh: $name: $cc failed: $(tail -n 3 "$out/$name.log")" >&2
		status=1
	fi
}

# x86_64's images, by the host's gcc on an x86_64 host. gcc may default
# to -fcf-protection; the images have none of it unless they ask (ibt).
x86=gcc
[[ $(gcc -dumpmachine 2>/dev/null) == x86_64-* ]] || x86=${arch_cross[x86_64]}gcc
host() {
	local name=$1
	shift
	image "$name" "$x86" -fcf-protection=none "$@"
}

c=$src/plant.c
host clean -fasynchronous-unwind-tables "$c"
host ibt -fasynchronous-unwind-tables -fcf-protection=full -Wl,-z,ibt "$c"
# The kernel's x86 vDSO flags: an indirect jump becomes an inline retpoline.
host retpoline -fasynchronous-unwind-tables -fjump-tables -mindirect-branch=thunk-inline \
	-mindirect-branch-register -DPLANT_SWITCH "$c"
host stack-check -fasynchronous-unwind-tables -fstack-check -DPLANT_FRAME "$c"
host no-unwind -fno-asynchronous-unwind-tables -fno-unwind-tables "$c"
host no-eh-frame-hdr -fasynchronous-unwind-tables -Wl,--no-eh-frame-hdr "$c"
host fptrs -fasynchronous-unwind-tables -DPLANT_FPTRS "$c"
host undefined -fasynchronous-unwind-tables -DPLANT_UNDEF "$c"
host execstack -fasynchronous-unwind-tables -Wl,-z,execstack "$c"
# One segment, read, write and execute (ld warns of it, into the log).
host wx -fasynchronous-unwind-tables -Wl,-N "$c"
# A claim of IBT whose functions have no endbr64.
host ibt-no-pad -fasynchronous-unwind-tables -Wl,-z,ibt "$c"
# i386's compat vDSO promises FDEs only for its assembly entries: C
# entries without one pass, a __kernel_vsyscall without one fails.
image i386-c-no-fde "${arch_cross[i386]}gcc" -fno-asynchronous-unwind-tables "$c" "$src/i386-vsyscall.S"
image i386-no-vsyscall-fde "${arch_cross[i386]}gcc" -fno-asynchronous-unwind-tables -DNO_CFI "$c" \
	"$src/i386-vsyscall.S"
image arm64-two-isb "${arch_cross[arm64]}gcc" "$src/arm64-isb.S"
image arm64-one-isb "${arch_cross[arm64]}gcc" -DONE_ISB "$src/arm64-isb.S"
# Each other arch's indirect-branch instructions: plant.c clean passes
# no-indirect-branches, its table of function pointers fails it. By the
# images' name, then the arch whose compiler builds them.
for t in riscv64:riscv64 ppc64le:ppc64le ppc:powerpc s390x:s390x mipsel:mipsel \
	 mips64el:mips64el armhf:armhf; do
	image "${t%%:*}-clean" "${arch_cross[${t#*:}]}gcc" "$c"
	image "${t%%:*}-fptrs" "${arch_cross[${t#*:}]}gcc" -DPLANT_FPTRS "$c"
done
exit $status
