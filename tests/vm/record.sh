#!/usr/bin/env bash
# record.sh NAME COMMAND...: boot Debian's x86_64 kernel under TCG with
# `vdsokit vm -- COMMAND...` and record qemu's console, byte for byte, in
# tests/vm/consoles/NAME.console. tests/cases/vm.sh replays these through
# a fake qemu to test vm's reading of a console that loses frames, drops
# kernel messages or ends its writes inside lines, with no guest booted.
# Record again when the framing changes (VK_VM_FRAMING, core/vm/vm.h):
#   tests/vm/record.sh info info
#   tests/vm/record.sh info-info info -- info
#   tests/vm/record.sh stress-info stress -d 4 --faults clocksource --format ktap -- info
# Needs qemu-system-x86_64 and a built tree (make, make cross ARCH=x86_64).
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 NAME COMMAND..." >&2; exit 2; }
TOP=$(cd "$(dirname "$0")/../.." && pwd)
O=$(realpath -m "${O:-$TOP/build}")
name=$1
shift
out=$TOP/tests/vm/consoles/$name.console
boot=$("$TOP/tests/xarch/fetch.sh" bookworm amd64 linux-image-cloud-amd64)
qemu=$(command -v qemu-system-x86_64)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '#!/bin/sh\n"%s" "$@" 2>&1 | tee "%s"\n' "$qemu" "$out.new" >"$tmp/qemu-system-x86_64"
chmod +x "$tmp/qemu-system-x86_64"
PATH=$tmp:$PATH XDG_CACHE_HOME=$tmp "$O/vdsokit" vm --accel tcg --timeout 600 \
	--kernel "$(ls "$boot"/vmlinuz-* | head -n 1)" -- "$@" >/dev/null
mv "$out.new" "$out"
echo "$out: $(wc -c <"$out") bytes"
