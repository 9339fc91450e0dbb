# Helpers for the test cases in tests/cases/*.sh, which tests/run.sh runs
# several at once, each in its own TMP. A case prints one TAP-style line
# per check:
#   ok - what        not ok - what        ok - what # SKIP why
# and tests/run.sh counts them. Set by run.sh: VK (the vdsokit binary),
# O (the build directory), TOP (the source tree), TMP (a scratch directory).
# Set by make check-quick: QUICK=1, the quick tier, where a case may run
# shorter or repeat itself less (each says what it leaves to make check,
# with a SKIP where a check does not run); make check leaves it unset.

# ran NAME: under tests/run.sh --run NAME, the case ends once the check
# it names has run, as nothing after it can change that check; in a
# subshell it goes on, and run.sh leaves its later checks out.
ran() {
	[ "${VK_RUN:-}" = "$1" ] && [ "$BASHPID" = "$$" ] && exit 0
	return 0
}

ok() { echo "ok - $*"; ran "$*"; }

# make_locked ARGS...: make, one at a time into each build directory (its
# O=) across the cases running at once: they share $O's variant and
# cross builds, and two makes would write one object together.
make_locked() {
	local a dir=$O
	for a; do case $a in O=*) dir=${a#O=} ;; esac; done
	mkdir -p "$dir" && flock "$dir/.make.lock" make "$@"
}

# Every line of a failure's diagnostics is "#   "-prefixed: a shown file's
# own "ok" lines would otherwise be counted as passes by run.sh.
not_ok() {
	local l name=$1
	echo "not ok - $1"
	shift
	for l in "$@"; do printf '%s\n' "$l" | sed 's/^/#   /'; done
	ran "$name"
}
skip() { echo "ok - $1 # SKIP $2"; ran "$1"; }

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

# contains DESC FILE PATTERN: passes when FILE has a line matching PATTERN
# (ERE). A failure shows the file's head and its tail: a long report's
# verdict is at its end, and its head alone reads like a report cut short.
contains() {
	local shown size
	size=$(stat -c %s "$2" 2>/dev/null || echo 0)
	if [ "$size" -le 800 ]; then
		shown=$(cat "$2" 2>&1)
	else
		shown="$(head -c 400 "$2")
[... $size bytes in all; the last 400:]
$(tail -c 400 "$2")"
	fi
	if grep -Eq -- "$3" "$2"; then ok "$1"; else not_ok "$1" "no line matches /$3/ in $2:" "$shown"; fi
}

# need TOOL...: true when every TOOL is on PATH.
need() {
	local t
	for t in "$@"; do command -v "$t" >/dev/null 2>&1 || return 1; done
}

# vdso_exports API: whether this process's vDSO exports API's function,
# as list-apis says; an older kernel's lacks some (i386's getcpu came in
# 6.3, x86_64's getrandom in 6.11), so a test of it is for that kernel.
vdso_exports() {
	"$VK" list-apis | awk -v api="$1" '$1 == api { f = $NF } END { exit f != "exported" }'
}

# kernel_before MAJOR MINOR: whether this kernel's release is older.
kernel_before() {
	local maj min
	IFS=. read -r maj min _ <<<"$(uname -r)"
	[ "$maj" -lt "$1" ] || { [ "$maj" = "$1" ] && [ "${min%%[!0-9]*}" -lt "$2" ]; }
}

# schema_python: the first python3 with the jsonschema module (Debian's,
# which .ci/run installs, or PATH's), or nothing.
schema_python() {
	local p
	for p in /usr/bin/python3 python3; do
		"$p" "$TOP/tests/tools/json_schema.py" 2>/dev/null
		if [ $? = 2 ]; then echo "$p"; return; fi
	done
}

# schema_valid DESC COMMAND FILE: FILE follows doc/json-schema/COMMAND.json;
# a SKIP where no python3 has jsonschema.
schema_valid() {
	local py
	py=$(schema_python)
	if [ -z "$py" ]; then skip "$1" "no python3 has the jsonschema module"; return; fi
	check "$1" "$py" "$TOP/tests/tools/json_schema.py" "$TOP/doc/json-schema" "$2" "$3"
}

# variant DIR MAKE-ARGS...: builds vdsokit and its test programs into
# $O/DIR (incrementally, so cases can share a build), with the parent
# make's command-line variables (SANITIZE=1, O=...) kept out of it: DIR
# is v/NAME, or where the flags are make cross's or make dist's own,
# their cross/ARCH (cross_args) or musl, so that each is compiled once.
# The log is $TMP/variant-DIR.log (a / made a -); false if the build fails.
variant() {
	local dir=$1
	shift
	(unset MAKEFLAGS MFLAGS MAKELEVEL SANITIZE
	 make_locked -C "$TOP" -j"$(nproc 2>/dev/null || echo 2)" O="$O/$dir" "$@" check-build) \
		>"$TMP/variant-${dir//\//-}.log" 2>&1
}

# cross_args ARCH: the make arguments with which make cross builds ARCH
# (the Makefile's cross target: its compiler here, STATIC=1), one per
# word, for a variant that shares $O/cross/ARCH with it; dist.sh checks
# that they compile alike, as make cannot tell objects' flags apart.
cross_args() {
	local prefix
	prefix=$(arch_prefix "$1")
	echo ${prefix:+CROSS_COMPILE=$prefix} STATIC=1
}

# cross_variant ARCH: the variant in $O/cross/ARCH, built as make cross
# builds it, with the test programs.
cross_variant() {
	# shellcheck disable=SC2046 # one word per argument
	variant "cross/$1" $(cross_args "$1")
}

# make_cross ARCH: make cross ARCH=ARCH, under the lock of the directory
# it writes, $O/cross/ARCH, which variants share (as builds.sh's do).
make_cross() {
	mkdir -p "$O/cross/$1" &&
		(unset MAKEFLAGS MFLAGS MAKELEVEL SANITIZE
		 flock "$O/cross/$1/.make.lock" make -C "$TOP" -j"$(nproc 2>/dev/null || echo 2)" O="$O" cross ARCH="$1")
}

# seed_images: $O/images, tests/images/build.sh's images for the cases
# that read them, built by the first of them to ask (under a lock: they
# run at once); false when the build failed.
seed_images() {
	[ -f "$O/images/manifest.txt" ] && return 0
	(
		flock 9
		[ -f "$O/images/manifest.txt" ] && exit 0
		rm -rf "$O/images.new"
		ELFPATCH=$O/tests/tools/elfpatch bash "$TOP/tests/images/build.sh" "$O/images.new" >/dev/null 2>&1
		status=$?
		rm -rf "$O/images" && mv "$O/images.new" "$O/images" && exit $status
	) 9>"$O/.images.lock"
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

# The architectures' table (core/base/arches.def) as make check-build
# wrote it: arch_cross[NAME], arch_qemu_user[NAME], arch_cc_pkgs[NAME]...
# (scripts/arches.c says which).
# shellcheck source=/dev/null # generated
. "$O/arches.sh" || { echo "Bail out! no $O/arches.sh: make check-build writes it"; exit 1; }

# static_dir: the variant directory of the static build with this
# machine's own compiler (STATIC=1): make cross's for this machine's arch
# (cross/x86_64 on x86_64), where make cross has one, else v/static.
static_dir() {
	local a
	for a in "${cross_arches[@]}"; do
		[ -n "$(arch_prefix "$a")" ] || { echo "cross/$a"; return; }
	done
	echo v/static
}

# need_cross NAME DESC: whether NAME's cross compiler is here; a SKIP for
# DESC naming its Debian packages where not.
need_cross() {
	need "${arch_cross[$1]}gcc" && return 0
	skip "$2" "${arch_cross[$1]}gcc is not installed (Debian packages ${arch_cc_pkgs[$1]})"
	return 1
}

# render HTML PREFIX: renders HTML in headless Chromium into PREFIX.png
# (a 1000x1400 screenshot) and PREFIX.dom (the DOM after rendering).
# Status 1, with $render_why set, when there is no chromium or no
# python3 (which reads the screenshot: tests/tools/png_colors.py), to
# SKIP; 2 when chromium made no screenshot, to fail.
render() {
	local b browser=
	for b in chromium chromium-browser google-chrome; do
		need "$b" && browser=$b && break
	done
	if [ -z "$browser" ]; then
		render_why="no chromium on PATH (Debian: apt-get install chromium)"
		return 1
	fi
	if ! need python3; then
		render_why="python3 is not installed (it reads the screenshot)"
		return 1
	fi
	HOME=$TMP timeout 120 "$browser" --headless --no-sandbox --disable-gpu \
		--user-data-dir="$TMP/profile" --window-size=1000,1400 --screenshot="$2.png" \
		"file://$1" >/dev/null 2>>"$TMP/browser.err"
	HOME=$TMP timeout 120 "$browser" --headless --no-sandbox --disable-gpu \
		--user-data-dir="$TMP/profile" --dump-dom "file://$1" >"$2.dom" 2>>"$TMP/browser.err"
	[ -s "$2.png" ] && return 0
	render_why="chromium made no screenshot: $(tail -n 2 "$TMP/browser.err")"
	return 2
}

# not_blank PNG: passes when the screenshot has more than two colours.
not_blank() {
	local colors
	colors=$(python3 "$TOP/tests/tools/png_colors.py" "$1" 2>&1)
	if [ "${colors:-0}" -gt 2 ] 2>/dev/null; then ok "the screenshot is not blank ($colors colours)"; else not_ok "the screenshot is not blank" "$colors"; fi
}

# marks FILE: how many chart marks (circle class="mark") FILE holds.
marks() {
	grep -o '<circle class="mark"' "$1" | wc -l
}

# tcg_vm LIMIT ARGS...: vdsokit vm on $kernel (guest_kernel's) under TCG,
# each boot LIMIT s at most; its time against that limit goes to the
# case's log (fd 3, as callers redirect the rest): the margins a loaded
# machine leaves.
exec 3>&1
tcg_vm() {
	local limit=$1 start=$SECONDS status
	shift
	"$VK" vm --kernel "$kernel" --accel tcg --timeout "$limit" "$@"
	status=$?
	echo "# vm boot: $((SECONDS - start)) s of its $limit s limit" >&3
	return $status
}

# guest_kernel WHAT: sets $kernel to Debian's x86_64 kernel (fetched as
# make check-xarch fetches it) and builds the static vdsokit vm packs;
# false, with WHAT skipped or failed and why, where that cannot be had.
guest_kernel() {
	local boot
	need "${arch_qemu[x86_64]}" ||
		{ skip "$1" "no ${arch_qemu[x86_64]} (package ${arch_qemu_pkg[x86_64]})"; return 1; }
	if ! boot=$("$TOP/tests/xarch/fetch.sh" bookworm amd64 linux-image-cloud-amd64 2>"$TMP/fetch.err"); then
		skip "$1" "Debian's x86_64 kernel could not be fetched: $(tail -n 1 "$TMP/fetch.err")"
		return 1
	fi
	kernel=$(ls "$boot"/vmlinuz-* | head -n 1)
	if ! make_cross x86_64 >"$TMP/cross.log" 2>&1; then
		not_ok "make cross ARCH=x86_64" "$(tail -n 5 "$TMP/cross.log")"
		return 1
	fi
}

# tested_line FILE: the "Tested:" line that a --verbose text report in
# FILE must end with, made of its passing ordered and threads notes.
tested_line() {
	awk '
	function range(lo, hi, n) {
		lo = sprintf("%.1f", lo); hi = sprintf("%.1f", hi)
		return (lo == hi ? lo : lo "-" hi) " us on " n " clock" (n == 1 ? "" : "s")
	}
	function note(kind, v) {
		if (!n[kind] || v < lo[kind]) lo[kind] = v
		if (!n[kind] || v > hi[kind]) hi[kind] = v
		n[kind]++
		if (!((kind, $1) in seen)) { seen[kind, $1]; apis[kind]++ }
	}
	/^  [^ ]+ [^ ]+ [^ ]*ordered: the tightest bracket was [0-9]+ ns: an error over that was tested$/ {
		match($0, /bracket was [0-9]+/); note("o", substr($0, RSTART + 12, RLENGTH - 12) / 1e3)
	}
	/^  [^ ]+ [^ ]+ [^ ]*threads: cross-CPU: the tightest hand-off was [0-9.]+ us .*a skew over that was tested$/ {
		match($0, /hand-off was [0-9.]+/); note("s", substr($0, RSTART + 13, RLENGTH - 13) + 0)
	}
	END {
		if (n["o"]) line = "ordering to within " range(lo["o"], hi["o"], apis["o"])
		if (n["s"]) line = line (n["o"] ? ", " : "") "cross-CPU skew to within " range(lo["s"], hi["s"], apis["s"])
		if (line) print "Tested: " line
	}' "$1"
}

# passing_bounds WHAT COMMAND ARGS...: vdsokit COMMAND's text report
# names what failed and was not tested, and no passing check's bound:
# those are one "Tested:" line, and each is listed with --verbose, where
# the line is their range. ARGS check a coarse clock, whose ordered check
# always passes (the syscall's readings around it are 0 ns apart).
passing_bounds() {
	local what=$1 cmd=$2 want
	shift 2
	"$VK" "$cmd" "$@" >"$TMP/bounds.txt" 2>"$TMP/bounds.err"
	"$VK" "$cmd" --verbose "$@" >"$TMP/bounds-v.txt" 2>"$TMP/bounds-v.err"
	check "$what: the text report lists no passing check's bound" \
		sh -c "! grep -E '(tightest bracket|tightest hand-off) .* over that was tested\$' '$TMP/bounds.txt'"
	contains "$what: the text report sums them up in one line" "$TMP/bounds.txt" \
		'^Tested: ordering to within [0-9.]+(-[0-9.]+)? us on [1-9][0-9]* clocks?(, cross-CPU skew to within [0-9.]+(-[0-9.]+)? us on [1-9][0-9]* clocks?)? \(each: --verbose\)$'
	contains "$what: --verbose lists each" "$TMP/bounds-v.txt" \
		'^  clock-gettime(64)?-monotonic-coarse vdso [a-z0-9^:-]*ordered: the tightest bracket was [0-9]+ ns: an error over that was tested$'
	want=$(tested_line "$TMP/bounds-v.txt")
	if [ -n "$want" ] && grep -qxF -- "$want" "$TMP/bounds-v.txt"; then
		ok "$what: --verbose's one line is the range of the bounds it lists"
	else
		not_ok "$what: --verbose's one line is the range of the bounds it lists" \
			"wanted: ${want:-a Tested: line}" "got: $(grep '^Tested:' "$TMP/bounds-v.txt")"
	fi
}

# preloaded STATUS DESC SO ARGS...: $VK ARGS under LD_PRELOAD=SO exits
# STATUS (its output in $TMP/out); false, after a SKIP that says why,
# where SO cannot reach $VK.
preloaded() {
	local status=$1 desc=$2 so=$3 why
	shift 3
	why=$(preload_why "$so")
	if [ -n "$why" ]; then
		skip "$desc" "$why"
		return 1
	fi
	expect_status "$status" "$desc" env LD_PRELOAD="$so" "$VK" "$@"
	return 0
}

# is_static FILE: an ELF executable without a program interpreter (a
# wrapper script is none).
is_static() {
	[ "$(head -c 4 "$1" 2>/dev/null)" = $'\177ELF' ] || return 1
	if need readelf; then
		! LC_ALL=C readelf -lW "$1" 2>/dev/null | grep -q ' INTERP '
	else
		LC_ALL=C ldd "$1" 2>&1 | grep -Eq 'not a dynamic|statically linked'
	fi
}

# preload_why SO: why LD_PRELOAD=SO cannot reach $VK (a sanitized build,
# SO not built, or a static $VK), or nothing when it can.
preload_why() {
	if [ "${SANITIZE:-}" = 1 ] || [ ! -f "$1" ]; then
		echo "no LD_PRELOAD library in this build ($1)"
	elif ! LC_ALL=C readelf -lW "$VK" 2>/dev/null | grep -q ' INTERP '; then
		echo "$VK is statically linked: LD_PRELOAD cannot reach it"
	fi
}
