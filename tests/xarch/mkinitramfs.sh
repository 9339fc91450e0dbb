#!/bin/sh
# mkinitramfs.sh OUT INIT VDSOKIT: an uncompressed newc initramfs, which
# every kernel unpacks, holding /init, /vdsokit and the mount points.
set -eu
[ $# -eq 3 ] || { echo "usage: $0 OUT INIT VDSOKIT" >&2; exit 2; }
command -v cpio >/dev/null || { echo "$0: cpio is needed (package cpio)" >&2; exit 1; }
stage=$1.d
rm -rf "$stage"
mkdir -p "$stage/dev" "$stage/proc" "$stage/sys"
cp "$2" "$stage/init"
cp "$3" "$stage/vdsokit"
# Owned by root whoever builds it; sorted, so the same inputs give the same bytes.
(cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) >"$1.tmp"
mv "$1.tmp" "$1"
rm -rf "$stage"
