# Helpers for the test cases in tests/cases/*.sh, which tests/run.sh runs
# one by one. A case prints one TAP-style line per check:
#   ok - what        not ok - what        ok - what # SKIP why
# and tests/run.sh counts them. Set by run.sh: VK (the vdsokit binary),
# O (the build directory), TOP (the source tree), TMP (a scratch directory).

ok() { echo "ok - $*"; }
not_ok() { echo "not ok - $1"; shift; for l in "$@"; do echo "#   $l"; done; }
skip() { echo "ok - $1 # SKIP $2"; }

# check DESC CMD...: passes when CMD exits 0.
check() {
	local desc=$1 out
	shift
	if out=$("$@" 2>&1); then ok "$desc"; else not_ok "$desc" "command: $*" "exit $?: $(echo "$out" | tail -n 3)"; fi
}

# expect_status N DESC CMD...: passes when CMD exits with status N, which
# also proves that it did not die from a signal (status >= 128).
expect_status() {
	local want=$1 desc=$2 got
	shift 2
	"$@" >"$TMP/out" 2>"$TMP/err"
	got=$?
	if [ "$got" = "$want" ]; then ok "$desc"; else not_ok "$desc" "command: $*" "exit $got, expected $want" "stderr: $(head -c 300 "$TMP/err")"; fi
}

# contains DESC FILE PATTERN: passes when FILE has a line matching PATTERN (ERE).
contains() {
	if grep -Eq -- "$3" "$2"; then ok "$1"; else not_ok "$1" "no line matches /$3/ in $2:" "$(head -c 400 "$2")"; fi
}

# need TOOL...: true when every TOOL is on PATH.
need() {
	local t
	for t in "$@"; do command -v "$t" >/dev/null 2>&1 || return 1; done
}

# variant NAME MAKE-ARGS...: builds vdsokit and its test programs into
# $O/v/NAME (incrementally, so cases can share a build), with the parent
# make's command-line variables (SANITIZE=1, O=...) kept out of it. The
# log is $TMP/variant-NAME.log; false if the build fails.
variant() {
	local name=$1
	shift
	(unset MAKEFLAGS MFLAGS MAKELEVEL SANITIZE
	 make -C "$TOP" -j"$(nproc 2>/dev/null || echo 2)" O="$O/v/$name" "$@" check-build) \
		>"$TMP/variant-$name.log" 2>&1
}

# runs_here BIN: false when this kernel refuses to execute BIN's format
# (execve fails with ENOEXEC, which the shell reports as status 126), as
# an i386 binary is refused where IA-32 emulation is off. A capability of
# the machine, not a finding: the tests that need it SKIP saying so.
runs_here() {
	"$1" --version >/dev/null 2>&1
	[ $? != 126 ]
}
NO_I386="this kernel does not execute i386 binaries (IA-32 emulation is off)"
