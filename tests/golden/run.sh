#!/usr/bin/env bash
# Golden outputs: every command's outputs on fixed inputs (vDSO images
# and bench files under tests/golden/inputs, the planted libraries of
# tests/impl), with what depends on the machine, the kernel, the time or
# chance masked by tests/golden/mask.sed. Each file under
# tests/golden/expected holds one or more runs: the command, its stdout,
# its stderr, its exit status and the files it wrote.
#
# Usage: tests/golden/run.sh [--update] [NAME...]
#   checks each golden file (or the NAMEd ones): one "ok - golden NAME" or
#   "not ok - golden NAME" line each, the latter with the unified diff of
#   expected against actual; --update rewrites the expected files instead.
# Needs $VK (default $O/vdsokit, O defaulting to build) and $O/tests/impl.
# Exit status: 0 every file matched (or was written), 1 otherwise.
set -u

GOLD=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$GOLD/../.." && pwd)
O=$(realpath -m "${O:-$TOP/build}")
VK=$(realpath -m "${VK:-$O/vdsokit}")
update=0
LC_COLLATE=C
shopt -s nullglob dotglob
if [ "${1:-}" = --update ]; then
	update=1
	shift
fi
only=" $* "
failed=0

if [ ! -x "$VK" ] || [ ! -d "$O/tests/impl" ]; then
	echo "run.sh: $VK or $O/tests/impl is not built (make check-build)" >&2
	exit 1
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/vdsokit-golden.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
# Every command runs in a directory of its process's, $work/cwd.N, where
# the inputs have short relative names (in/..., impl/...) that its outputs
# repeat the same everywhere.
mkdir "$work/bin"
for n in vdsotest vdsotest-all vdsotest-bench; do
	ln -s "$VK" "$work/bin/$n"
done

# Much of the time goes to waiting for children (abi's watchdogs, verify's
# budgets) and, on a loaded machine, for a CPU: the golden files are
# shared out among $jobs processes.
jobs=8
name='' out='' cwd='' index=0

# finish: compares (or writes) the current golden file; its verdict goes
# to $work/NAME.tap, printed in order at the end.
finish() {
	local want=$GOLD/expected/$name.txt
	[ -n "$name" ] || return 0
	sed -E -f "$GOLD/mask.sed" "$out" >"$out.masked"
	if [ $update = 1 ]; then
		cp "$out.masked" "$want"
		echo "ok - golden $name (written)"
	elif diff -u --label "expected/$name.txt" --label "actual" "$want" "$out.masked" >"$out.diff" 2>&1; then
		echo "ok - golden $name"
	else
		echo "not ok - golden $name"
		sed 's/^/#   /' "$out.diff"
	fi >"$work/$name.tap"
	name=''
}

# golden NAME: the runs that follow go to expected/NAME.txt, if NAME was
# asked for and falls to this process.
golden() {
	finish
	case $only in
	"  ") ;;
	*" $1 "*) ;;
	*) return 0 ;;
	esac
	[ "$part" = 0 ] && echo "$1" >>"$work/names"
	index=$((index + 1))
	[ $((index % jobs)) = "$part" ] || return 0
	name=$1 out=$work/$1.out cwd=$work/cwd.$part
	: >"$out"
}

# as PROG ARGS...: runs vdsokit under the name PROG (vdsokit, vdsotest,
# ...) in a cleared cwd and appends what it printed, its status and the
# files it wrote to the current golden file.
as() {
	local prog=$1 f status bin=$VK
	shift
	[ -n "$name" ] || return 0
	[ "$prog" = vdsokit ] || bin=$work/bin/$prog
	files "$cwd"
	[ ${#found[@]} = 0 ] || rm -rf "${found[@]}"
	echo "\$ $prog $*" >>"$out"
	(cd "$cwd" && exec "$bin" "$@" </dev/null >>"$out" 2>"$out.stderr")
	status=$?
	{
		[ -s "$out.stderr" ] && echo "[stderr]" && put "$out.stderr"
		echo "[exit $status]"
		files "$cwd"
		for f in "${found[@]}"; do
			echo "[file ${f#"$cwd/"}]"
			if grep -qI '' "$f"; then cat "$f"; else echo "(binary)"; fi
		done
		echo
	} >>"$out"
}

# put FILE: prints FILE with no process started (a loaded machine takes
# tens of ms to start one, and there are hundreds of runs).
put() {
	local text
	IFS= read -r -d '' text <"$1"
	printf '%s' "$text"
}

# files DIR: sets found to the files under DIR but in/ and impl/, sorted
# (glob order, which LC_COLLATE=C fixes).
files() {
	local f
	found=()
	for f in "$1"/*; do
		case ${f#"$1/"} in
		in | impl) ;;
		*) if [ -d "$f" ]; then files_in "$f"; else found+=("$f"); fi ;;
		esac
	done
}
files_in() {
	local f
	for f in "$1"/*; do
		if [ -d "$f" ]; then files_in "$f"; else found+=("$f"); fi
	done
}

# run ARGS...: as vdsokit ARGS.
run() { as vdsokit "$@"; }

for part in $(seq 0 $((jobs - 1))); do
	mkdir "$work/cwd.$part"
	ln -s "$GOLD/inputs" "$work/cwd.$part/in"
	ln -s "$O/tests/impl" "$work/cwd.$part/impl"
	# shellcheck source=tests/golden/cases.sh
	(. "$GOLD/cases.sh"; finish) &
done
wait
: >>"$work/names"
while read -r n; do
	if [ -s "$work/$n.tap" ]; then cat "$work/$n.tap"; else echo "not ok - golden $n (not run)"; fi
	grep -q '^not ok' "$work/$n.tap" 2>/dev/null && failed=1
done <"$work/names"
[ -s "$work/names" ] || { echo "run.sh: no golden file named$only" >&2; failed=1; }
exit $failed
