#!/bin/sh
# Runs one vdsokit command as an LTP test: its report as the test's
# output, and its exit status in LTP's terms, which LTP's runner, kirk,
# reads from a test that prints no T-results (TPASS, ...) of its own:
#   vdsokit 0, every check passed       -> 0  TPASS
#   vdsokit 1, a check failed           -> 1  TFAIL
#   vdsokit 4, nothing could run (SKIP) -> 32 TCONF
#   anything else: 2 (a usage error or bad input), 3 (vdsokit's own
#   error: no fork, no memory, a syscall it needs refused), a binary that
#   cannot run, death by a signal       -> 2  TBROK
# The last line names vdsokit's own status. The vdsokit run is the one
# beside this script, else PATH's.
#
# Usage: vdsokit_ltp.sh COMMAND [ARG...]
vk=$(dirname "$0")/vdsokit
[ -x "$vk" ] || vk=vdsokit
"$vk" "$@"
status=$?
echo "vdsokit $1: exit status $status"
# kirk (4.1 and before) stops reading a test's output once the test has
# exited, and loses what is still in the pipe: often the report's end,
# with the failures' reasons and the line above. A pause with nothing
# left to write lets it read all before the exit.
sleep 1
case $status in
0 | 1) exit $status ;;
4) exit 32 ;;
*) exit 2 ;;
esac
