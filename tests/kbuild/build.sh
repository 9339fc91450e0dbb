#!/usr/bin/env bash
# build.sh [--arch ARCH] [PATCH]: print the path of a kernel image for
# ARCH (x86_64 unless given: a bzImage) built from Debian's linux-source
# with `make tinyconfig` plus the arch's fragment (contrib/vm.config, or
# contrib/vm-ARCH.config), with PATCH applied if given, building it on
# first use. The build's vDSO images (vdso*.so*) are copied beside it,
# for `info --image` where qemu cannot boot the kernel. A source that does
# not build for ARCH as Debian ships it is fixed by tests/kbuild/fix-ARCH.patch
# first (each patch says why).
#
# Each build is cached under $cache/kbuild/KEY, KEY a hash of the source
# tarball, the fragment, the fix and the patch, and the image appears
# there last.
# A patched build is made in the unpatched one's tree, so only what the
# patch touches is compiled again. Builds run at nice 10 with
# $VDSOKIT_KBUILD_JOBS (2) jobs: the first takes about 35 minutes on two
# busy cores, a patched one a few.
#
# Exit status: 0, 1 (the build failed), 2 (bad arguments), 3 (a tool or
# cross compiler is missing: the message names its package).
# Environment: VDSOKIT_XARCH_CACHE (as fetch.sh), VDSOKIT_KBUILD_SOURCE
# (default /usr/src/linux-source-6.12.tar.xz).
set -euo pipefail

usage() { echo "usage: $0 [--arch x86_64|powerpc|ppc64|sparc64|loongarch64] [PATCH]" >&2; exit 2; }
arch=x86_64
if [ "${1:-}" = --arch ]; then
	[ $# -ge 2 ] || usage
	arch=$2
	shift 2
fi
[ $# -le 1 ] || usage
here=$(cd "$(dirname "$0")" && pwd)
# arch: the kernel's ARCH, the cross compiler's prefix and its Debian
# package (or LLVM's version suffix: clang builds every arch), the make
# target and the image it leaves.
llvm=''
case $arch in
x86_64) karch=x86_64 cross='' pkg=gcc target=bzImage image=arch/x86/boot/bzImage ;;
powerpc) karch=powerpc cross=powerpc-linux-gnu- pkg=gcc-powerpc-linux-gnu target=vmlinux image=vmlinux ;;
ppc64) karch=powerpc cross=powerpc64-linux-gnu- pkg=gcc-powerpc64-linux-gnu target=vmlinux image=vmlinux ;;
sparc64) karch=sparc cross=sparc64-linux-gnu- pkg=gcc-sparc64-linux-gnu target=vmlinux image=vmlinux ;;
loongarch64) karch=loongarch cross='' llvm=-19 target=vmlinux image=vmlinux ;;
*) usage ;;
esac
name=${image##*/}
fragment=$here/../../contrib/vm.config
[ "$arch" = x86_64 ] || fragment=$here/../../contrib/vm-$arch.config
fix=$here/fix-$arch.patch
[ -e "$fix" ] || fix=
patch=${1:+$(realpath "$1")}
source=${VDSOKIT_KBUILD_SOURCE:-/usr/src/linux-source-6.12.tar.xz}
cache=${VDSOKIT_XARCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/vdsokit-xarch}/kbuild
jobs=${VDSOKIT_KBUILD_JOBS:-2}
kmake() { make ARCH=$karch CROSS_COMPILE=$cross ${llvm:+LLVM=$llvm} "$@"; }

[ -r "$source" ] || { echo "$0: $source missing (package linux-source-6.12)" >&2; exit 3; }
compilers="gcc ${cross:+${cross}gcc}"
[ -z "$llvm" ] || compilers="clang$llvm ld.lld$llvm llvm-ar$llvm"
for tool in make $compilers flex bison bc tar xz flock ${fix:+patch}; do
	command -v "$tool" >/dev/null && continue
	case $tool in
	"${cross}gcc") ;;
	clang-*) pkg=$tool ;;
	ld.lld-*) pkg=lld${tool#ld.lld} ;;
	llvm-*) pkg=llvm$llvm ;;
	xz) pkg=xz-utils ;;
	flock) pkg=util-linux ;;
	*) pkg=$tool ;;
	esac
	echo "$0: $tool is needed to build a kernel (package $pkg)" >&2
	exit 3
done

key_of() { cat "$@" | sha256sum | cut -c1-16; }
base=$(key_of <(sha256sum <"$source") "$fragment" ${fix:+"$fix"})
key=$base
[ -z "$patch" ] || key=$(key_of <(echo "$base") "$patch")
out=$cache/$key
if [ -f "$out/$name" ]; then
	echo "$out/$name"
	exit 0
fi

# One build of a key at a time: a second make in the tree would undo the
# first's files (another check-kbuild, or this one's base build below).
mkdir -p "$out"
exec 9>"$out.lock"
flock 9
if [ -f "$out/$name" ]; then
	echo "$out/$name"
	exit 0
fi

log=$out/build.log
fail() {
	echo "$0: $1 (log: $log):" >&2
	tail -n 20 "$log" >&2
	exit 1
}
make_image() { # TREE: the image built in TREE, copied to $out with its vDSOs
	(cd "$1" && nice -n 10 make ARCH=$karch CROSS_COMPILE="$cross" ${llvm:+LLVM=$llvm} -j"$jobs" "$target") >>"$log" 2>&1 &&
		find "$1/arch/${karch/x86_64/x86}" -name 'vdso*.so*' -exec cp {} "$out/" \; &&
		cp "$1/$image" "$out/$name.part"
}

# A patched build is made in the unpatched tree, under its lock, and the
# patch taken out after: a copy of the tree would rebuild everything, as
# objtool, built by absolute paths, would be new. A patch an interrupted
# build left in is taken out first.
if [ -n "$patch" ]; then
	"$0" --arch "$arch" >/dev/null
	tree=$cache/$base/linux
	exec 8>"$cache/$base.lock"
	flock 8
	if [ -f "$tree.patched" ]; then
		patch -R -d "$tree" -p1 <"$(cat "$tree.patched")" >"$log" 2>&1 || fail "cannot take out $(cat "$tree.patched")"
	fi
	echo "$patch" >"$tree.patched"
	patch -d "$tree" -p1 <"$patch" >"$log" 2>&1 || fail "$patch does not apply"
	echo "$0: building $out in $tree (make -j$jobs at nice 10)" >&2
	make_image "$tree"
	built=$?
	patch -R -d "$tree" -p1 <"$patch" >>"$log" 2>&1 && rm "$tree.patched"
	[ $built = 0 ] || fail "make $target failed"
	echo "${source##*/}, make tinyconfig, ${fragment##*/} and ${patch##*/}" >"$out/package"
	mv "$out/$name.part" "$out/$name"
	echo "$out/$name"
	exit 0
fi

# A tree left by an interrupted build is finished by make, not redone.
if [ ! -d "$out/linux" ]; then
	echo "$0: unpacking $source" >&2
	mkdir -p "$out/linux.part"
	tar -xJf "$source" -C "$out/linux.part" --strip-components=1
	cd "$out/linux.part"
	[ -z "$fix" ] || patch -p1 <"$fix" >"$log" 2>&1 || fail "${fix##*/} did not apply"
	{ kmake tinyconfig &&
	  ARCH=$karch CROSS_COMPILE=$cross scripts/kconfig/merge_config.sh -m .config "$fragment" &&
	  kmake olddefconfig; } >>"$log" 2>&1 || fail "configuring failed"
	# An option the kernel dropped (an unmet dependency) is the
	# fragment's bug, not a kernel to test.
	while IFS= read -r line; do
		grep -qxF "$line" .config || fail "contrib/${fragment##*/}: $line did not stick (a dependency missing?)"
	done < <(grep '^CONFIG_' "$fragment")
	mv "$out/linux.part" "$out/linux"
fi
echo "$0: building $out (make -j$jobs at nice 10)" >&2
echo "${source##*/}${fix:+ with ${fix##*/}}, make tinyconfig and ${fragment##*/}" >"$out/package"
make_image "$out/linux" || fail "make $target failed"
mv "$out/$name.part" "$out/$name"
echo "$out/$name"
