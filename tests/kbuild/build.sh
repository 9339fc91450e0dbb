#!/usr/bin/env bash
# build.sh [PATCH]: print the path of an x86_64 bzImage built from
# Debian's linux-source (make tinyconfig plus contrib/vm.config), with
# PATCH applied if given, building it on first use.
#
# Each build is cached under $cache/kbuild/KEY, KEY a hash of the source
# tarball, the fragment and the patch, and bzImage appears there last. A
# patched build is made in the unpatched one's tree, so only what the
# patch touches is compiled again. Builds run at nice 10 with
# $VDSOKIT_KBUILD_JOBS (2) jobs: the first takes about 35 minutes on two
# busy cores, a patched one a few.
#
# Environment: VDSOKIT_XARCH_CACHE (as fetch.sh), VDSOKIT_KBUILD_SOURCE
# (default /usr/src/linux-source-6.12.tar.xz).
set -euo pipefail

[ $# -le 1 ] || { echo "usage: $0 [PATCH]" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
fragment=$here/../../contrib/vm.config
patch=${1:+$(realpath "$1")}
source=${VDSOKIT_KBUILD_SOURCE:-/usr/src/linux-source-6.12.tar.xz}
cache=${VDSOKIT_XARCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/vdsokit-xarch}/kbuild
jobs=${VDSOKIT_KBUILD_JOBS:-2}

[ -r "$source" ] || { echo "$0: $source missing (package linux-source-6.12)" >&2; exit 1; }
for tool in make gcc flex bison bc tar xz flock; do
	command -v $tool >/dev/null || { echo "$0: $tool is needed to build a kernel" >&2; exit 1; }
done

key_of() { cat "$@" | sha256sum | cut -c1-16; }
base=$(key_of <(sha256sum <"$source") "$fragment")
key=$base
[ -z "$patch" ] || key=$(key_of <(echo "$base") "$patch")
out=$cache/$key
if [ -f "$out/bzImage" ]; then
	echo "$out/bzImage"
	exit 0
fi

# One build of a key at a time: a second make in the tree would undo the
# first's files (another check-kbuild, or this one's base build below).
mkdir -p "$out"
exec 9>"$out.lock"
flock 9
if [ -f "$out/bzImage" ]; then
	echo "$out/bzImage"
	exit 0
fi

log=$out/build.log
fail() {
	echo "$0: $1 (log: $log):" >&2
	tail -n 20 "$log" >&2
	exit 1
}
make_image() { # TREE: bzImage built in TREE, copied to $out
	(cd "$1" && nice -n 10 make ARCH=x86_64 -j"$jobs" bzImage) >>"$log" 2>&1 &&
		cp "$1/arch/x86/boot/bzImage" "$out/bzImage.part"
}

# A patched build is made in the unpatched tree, under its lock, and the
# patch taken out after: a copy of the tree would rebuild everything, as
# objtool, built by absolute paths, would be new. A patch an interrupted
# build left in is taken out first.
if [ -n "$patch" ]; then
	"$0" >/dev/null
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
	[ $built = 0 ] || fail "make bzImage failed"
	mv "$out/bzImage.part" "$out/bzImage"
	echo "$out/bzImage"
	exit 0
fi

# A tree left by an interrupted build is finished by make, not redone.
if [ ! -d "$out/linux" ]; then
	echo "$0: unpacking $source" >&2
	mkdir -p "$out/linux.part"
	tar -xJf "$source" -C "$out/linux.part" --strip-components=1
	cd "$out/linux.part"
	{ make ARCH=x86_64 tinyconfig &&
	  scripts/kconfig/merge_config.sh -m .config "$fragment" &&
	  make ARCH=x86_64 olddefconfig; } >"$log" 2>&1 || fail "configuring failed"
	# An option the kernel dropped (an unmet dependency) is the
	# fragment's bug, not a kernel to test.
	while IFS= read -r line; do
		grep -qxF "$line" .config || fail "contrib/vm.config: $line did not stick (a dependency missing?)"
	done < <(grep '^CONFIG_' "$fragment")
	mv "$out/linux.part" "$out/linux"
fi
echo "$0: building $out (make -j$jobs at nice 10)" >&2
make_image "$out/linux" || fail "make bzImage failed"
mv "$out/bzImage.part" "$out/bzImage"
echo "$out/bzImage"
