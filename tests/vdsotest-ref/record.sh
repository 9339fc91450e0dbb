#!/bin/bash
# Records what the real vdsotest prints, into this folder: for a future
# maintainer, with vdsotest built from its source (see README).
# Usage: tests/vdsotest-ref/record.sh BINDIR
#   BINDIR holds vdsotest and vdsotest-all (as 'make install' puts them).
# Each case NAME gets NAME.out, NAME.err and NAME.status; vdsotest-all -g -v
# gets all.lines, its set of lines with every number masked as N.
set -u
[ $# = 1 ] && [ -x "$1/vdsotest" ] || { echo "Usage: $0 BINDIR" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
# On PATH, so that argv[0], which the messages carry, is the bare name.
export PATH="$(cd "$1" && pwd):$PATH" LC_ALL=C

record() {
	local name=$1
	shift
	vdsotest "$@" >"$here/$name.out" 2>"$here/$name.err"
	echo $? >"$here/$name.status"
}

record list-apis list-apis
record list-test-types list-test-types
record help --help
record usage --usage
record no-arguments
record bad-option --bogus
record unknown-api nope abi
record unknown-test-type clock-gettime-monotonic frob
for api in $(vdsotest list-apis); do
	record "abi-$api" "$api" abi -g -v
done
vdsotest-all -g -v 2>&1 | sed -E 's/[0-9]+/N/g' | sort -u >"$here/all.lines"
