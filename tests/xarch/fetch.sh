#!/usr/bin/env bash
# fetch.sh SUITE ARCH PACKAGE: print the directory holding /boot of the
# kernel package PACKAGE (a metapackage is resolved to the image it
# depends on) from Debian SUITE for ARCH, with its device trees in dtbs/,
# downloading it on first use.
#
# apt runs on a private configuration under the cache directory (its own
# sources list, state, cache and architecture), so the system's apt
# sources and foreign architectures stay as they are. One apt state
# serves each suite and arch: fetches of it take turns on its lock, as
# apt refuses a second one at once ("E: Unable to lock directory").
#
# Exit status: 0, 1 when the fetch failed, 2 for bad arguments, 3 when a
# tool it needs is not installed here (make check-xarch's skip).
set -euo pipefail

[ $# -eq 3 ] || { echo "usage: $0 SUITE ARCH PACKAGE" >&2; exit 2; }
suite=$1 arch=$2 pkg=$3
cache=${VDSOKIT_XARCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/vdsokit-xarch}
out=$cache/kernels/$suite-$arch-$pkg
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
mirror=${VDSOKIT_XARCH_MIRROR:-http://deb.debian.org/debian}

# A kernel fetched once is reused: the boot/ directory appears last.
if [ -d "$out/boot" ]; then
	echo "$out/boot"
	exit 0
fi
for tool in apt-get:apt apt-cache:apt dpkg-deb:dpkg flock:util-linux; do
	command -v "${tool%:*}" >/dev/null ||
		{ echo "$0: ${tool%:*} is needed to fetch kernels (package ${tool#*:})" >&2; exit 3; }
done
[ -r "$keyring" ] || { echo "$0: $keyring missing (package debian-archive-keyring)" >&2; exit 3; }

apt=$cache/apt/$suite-$arch
mkdir -p "$cache/apt"
exec 9>"$apt.lock"
flock 9
# The fetch that held the lock may have fetched this very package.
if [ -d "$out/boot" ]; then
	echo "$out/boot"
	exit 0
fi
mkdir -p "$apt/etc/sources.list.d" "$apt/etc/preferences.d" "$apt/etc/apt.conf.d" \
	"$apt/state/lists/partial" "$apt/cache/archives/partial" "$out"
touch "$apt/state/status"
echo "deb [signed-by=$keyring] $mirror $suite main" >"$apt/etc/sources.list"
# -c is read after the system's apt.conf.d, so a proxy set there still
# applies; every path and the architecture are overridden here.
cat >"$apt/apt.conf" <<CONF
Dir::State "$apt/state";
Dir::State::status "$apt/state/status";
Dir::Cache "$apt/cache";
Dir::Cache::pkgcache "$apt/cache/pkgcache.bin";
Dir::Cache::srcpkgcache "$apt/cache/srcpkgcache.bin";
Dir::Etc "$apt/etc";
Dir::Etc::sourcelist "$apt/etc/sources.list";
Dir::Etc::sourceparts "$apt/etc/sources.list.d";
Dir::Etc::preferences "$apt/etc/preferences";
Dir::Etc::preferencesparts "$apt/etc/preferences.d";
Dir::Etc::parts "$apt/etc/apt.conf.d";
APT::Architecture "$arch";
APT::Architectures { "$arch"; };
Acquire::Languages "none";
APT::Sandbox::User "root";
CONF

log=$apt/log
if ! apt-get -c "$apt/apt.conf" -q update >"$log" 2>&1; then
	echo "$0: apt-get update for $suite/$arch failed (log: $log):" >&2
	tail -n 5 "$log" >&2
	exit 1
fi
# download PKG: the newest .deb of PKG, in the current directory.
download() {
	if ! apt-get -c "$apt/apt.conf" -q download "$1" >>"$log" 2>&1; then
		echo "$0: apt-get download $1 ($suite/$arch) failed (log: $log):" >&2
		tail -n 5 "$log" >&2
		exit 1
	fi
	ls -t "$1"_*.deb | head -n 1
}

# extract DEB DIR: the kernel image, its config and System.map, and the
# device trees, into DIR with the layout of a /boot: vmlinu[xz]-VERSION,
# dtbs/... Debian's packages keep them in /boot and /usr/lib/linux-image-*
# (bookworm, trixie), or since 7.x the image in /usr/lib/modules/VERSION/
# (linux-binary-*).
extract() {
	local deb=$1 dir=$2 f
	dpkg-deb --fsys-tarfile "$deb" | tar -t |
		grep -E '^\./(boot/.|usr/lib/modules/[^/]+/vmlinu[xz]$|usr/lib/linux-image-[^/]+/.*\.dtb$)' \
			>"$dir.list" || { rm "$dir.list"; return 0; }
	dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$dir" -T "$dir.list"
	rm "$dir.list"
	mkdir -p "$dir/boot"
	for f in "$dir"/usr/lib/modules/*/vmlinu[xz]; do
		[ ! -e "$f" ] || mv "$f" "$dir/boot/$(basename "$f")-$(basename "$(dirname "$f")")"
	done
	for f in "$dir"/usr/lib/linux-image-*; do
		[ ! -d "$f" ] || { mkdir -p "$dir/boot/dtbs" && cp -r "$f"/. "$dir/boot/dtbs/"; }
	done
	rm -rf "${dir:?}/usr"
}

# The flavour's metapackage depends on the versioned image package, which
# since 7.x depends on the linux-binary-* package that holds the image.
real=$pkg
dep=$(apt-cache -c "$apt/apt.conf" depends "$pkg" 2>>"$log" |
	sed -n 's/^ *Depends: \(linux-image-[0-9][^ ]*\).*/\1/p' | head -n 1)
[ -z "$dep" ] || real=$dep
binary=$(apt-cache -c "$apt/apt.conf" depends "$real" 2>>"$log" |
	sed -n 's/^ *Depends: \(linux-binary-[0-9][^ ]*\).*/\1/p' | head -n 1)
cd "$apt/cache/archives"
tmp=$out/tmp
rm -rf "$tmp" && mkdir -p "$tmp"
debs=$(download "$real")
[ -z "$binary" ] || debs="$debs $(download "$binary")"
for deb in $debs; do
	extract "$deb" "$tmp"
done
ls "$tmp"/boot/vmlinu* >/dev/null 2>&1 || { echo "$0: no kernel image in $debs" >&2; exit 1; }
names=${debs//.deb/}
echo "${names// /, }" >"$tmp/boot/package"
# shellcheck disable=SC2086 # the .deb names have no spaces
rm -f $debs
mv "$tmp/boot" "$out/boot" && rmdir "$tmp"
echo "$out/boot"
