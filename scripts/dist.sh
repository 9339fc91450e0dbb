#!/usr/bin/env bash
# make dist: one tarball of a release, with a static vdsokit for every
# architecture `make cross` knows, for farms that drop it into an
# initramfs or a root filesystem. Usage: dist.sh VERSION BUILD-DIR ARCH...
# where BUILD-DIR/cross/ARCH/vdsokit are built already, and for x86_64
# BUILD-DIR/musl/vdsokit may be (the smaller of the two is taken).
set -euo pipefail
version=$1 build=$2
shift 2
top=$(cd "$(dirname "$0")/.." && pwd)
name=vdsokit-$version
stage=$build/dist/$name
rm -rf "$stage"
mkdir -p "$stage"

# smaller A B: whichever file is smaller.
smaller() {
	if [ -f "$2" ] && [ "$(stat -c %s "$2")" -lt "$(stat -c %s "$1")" ]; then echo "$2"; else echo "$1"; fi
}

for arch in "$@"; do
	bin=$build/cross/$arch/vdsokit
	[ "$arch" != x86_64 ] || bin=$(smaller "$bin" "$build/musl/vdsokit")
	mkdir "$stage/$arch"
	install -m 755 "$bin" "$stage/$arch/vdsokit"
	for l in vdsotest vdsotest-all vdsotest-bench; do
		ln -s vdsokit "$stage/$arch/$l"
	done
done
sed '1s/"vdsokit [^"]*"/"vdsokit '"$version"'"/' "$top/doc/vdsokit.1" >"$stage/vdsokit.1"
cp "$top/README.md" "$stage/"
(cd "$stage" && find . -type f ! -name SHA256SUMS | LC_ALL=C sort | sed 's,^\./,,' |
	xargs sha256sum >SHA256SUMS)

# The same bytes for the same tree: sorted names, no owners, one date.
date=$(awk -F'  ' '/^ -- / { print $2; exit }' "$top/debian/changelog")
tar -C "$build/dist" --sort=name --owner=0 --group=0 --numeric-owner \
	--mtime="$date" -cf - "$name" | gzip -9n >"$build/$name.tar.gz"
echo "$build/$name.tar.gz"
