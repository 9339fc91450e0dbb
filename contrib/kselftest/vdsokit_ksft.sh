#!/bin/sh
# Runs one vdsokit command as a kselftest test: the static vdsokit beside
# this script, with --format ktap and the test's own arguments (then any
# the runner passes: KSELFTEST_<TEST>_ARGS). Its KTAP goes to stdout,
# where run_kselftest.sh nests it under the test's result by prefixing
# "# " to each line; its stderr follows as KTAP diagnostics. The exit
# status is kselftest's: 0 pass, 1 fail, 4 skip (vdsokit's 4, nothing
# could run); vdsokit's 3 (its own error, not the kernel's) stays 3, which
# the runner shows as "not ok ... # exit=3", named in a last diagnostic;
# anything else, vdsokit's 2 (bad input), a binary that cannot run, death
# by a signal, is a failure (1) named in a last diagnostic. Never 2: that
# is kselftest's XFAIL, which the newest runner reports as "ok".
#
# Usage: vdsokit_ksft.sh COMMAND [ARG...]
dir=$(dirname "$0")
err=$(mktemp "${TMPDIR:-/tmp}/vdsokit-ksft.XXXXXX") || exit 1
"$dir/vdsokit" "$@" --format ktap 2>"$err"
status=$?
sed 's/^/# /' "$err"
rm -f "$err"
case $status in
0 | 1 | 4) exit $status ;;
3)
	echo "# vdsokit $1 exited 3: vdsokit's own error, not the kernel's (its ERROR results say which)"
	exit 3
	;;
2) why="a usage error or bad input" ;;
126 | 127) why="vdsokit could not be executed" ;;
*) why="an unexpected status"; [ "$status" -gt 128 ] && why="ended by signal $((status - 128))" ;;
esac
echo "# vdsokit $1 exited $status: $why"
exit 1
