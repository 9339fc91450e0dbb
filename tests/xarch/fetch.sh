#!/usr/bin/env bash
# fetch.sh SUITE ARCH PACKAGE: print the directory holding /boot of the
# kernel package PACKAGE (a metapackage is resolved to the image it
# depends on) from Debian SUITE for ARCH, downloading it on first use.
#
# apt runs on a private configuration under the cache directory (its own
# sources list, state, cache and architecture), so the system's apt
# sources and foreign architectures stay as they are.
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
for tool in apt-get apt-cache dpkg-deb; do
	command -v $tool >/dev/null || { echo "$0: $tool is needed to fetch kernels" >&2; exit 1; }
done
[ -r "$keyring" ] || { echo "$0: $keyring missing (package debian-archive-keyring)" >&2; exit 1; }

apt=$cache/apt/$suite-$arch
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
# The flavour's metapackage depends on the versioned image package.
real=$pkg
dep=$(apt-cache -c "$apt/apt.conf" depends "$pkg" 2>>"$log" |
	sed -n 's/^ *Depends: \(linux-image-[0-9][^ ]*\).*/\1/p' | head -n 1)
[ -z "$dep" ] || real=$dep
cd "$apt/cache/archives"
if ! apt-get -c "$apt/apt.conf" -q download "$real" >>"$log" 2>&1; then
	echo "$0: apt-get download $real ($suite/$arch) failed (log: $log):" >&2
	tail -n 5 "$log" >&2
	exit 1
fi
deb=$(ls -t "$real"_*.deb | head -n 1)
# Only /boot: the modules are not needed, as /init loads none.
tmp=$out/tmp
rm -rf "$tmp" && mkdir -p "$tmp"
dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmp" --wildcards './boot/*'
ls "$tmp"/boot/vmlinu* >/dev/null 2>&1 || { echo "$0: no /boot/vmlinu* in $deb" >&2; exit 1; }
echo "${deb%.deb}" >"$tmp/boot/package"
rm -f "$deb"
mv "$tmp/boot" "$out/boot" && rmdir "$tmp"
echo "$out/boot"
