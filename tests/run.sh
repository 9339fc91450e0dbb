#!/usr/bin/env bash
# The test suite's runner: runs each case under tests/cases (or the ones
# named), shows its output and how long it took (CI has a time limit to
# keep), and ends with the line CI reads:
#   N passed, N failed, N skipped
# Exit status: 0 when nothing failed, 1 otherwise.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
export TOP
# Cases run from a scratch directory: a relative O or VK would name a
# path under it instead of under the tree.
O=$(realpath -m "${O:-$TOP/build}")
VK=$(realpath -m "${VK:-$O/vdsokit}")
export O VK
export TMP
TMP=$(mktemp -d "${TMPDIR:-/tmp}/vdsokit-test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

passed=0 failed=0 skipped=0
cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=("$TOP"/tests/cases/*.sh)
for c in "${cases[@]}"; do
	c=$(realpath "$c")
	name=$(basename "$c" .sh)
	echo "# $name"
	out="$TMP/$name.log"
	start=$SECONDS
	(cd "$TMP" && bash "$c") >"$out" 2>&1
	status=$?
	cat "$out"
	echo "# $name took $((SECONDS - start)) s"
	p=$(grep -cE '^ok ' "$out" | tr -d ' ')
	s=$(grep -cE '^ok .*# SKIP' "$out" | tr -d ' ')
	f=$(grep -cE '^not ok ' "$out" | tr -d ' ')
	if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "not ok - $name exited with status $status"
		f=1
	fi
	passed=$((passed + p - s)) skipped=$((skipped + s)) failed=$((failed + f))
done
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
