# inspect: each whole-image check catches the defect planted for it in an
# image built by tests/inspect/build.sh, and the clean image passes them
# all; the arm64 pair differs, B against A, by its one isb; the real
# kernels' images of tests/golden/inputs pass; this machine's vDSO is read
# in every format; and a build without LLVM says so.
. "$TOP/tests/lib.sh"

# A build without LLVM has no inspect (exit 4): it must say so.
"$VK" inspect --image "$TOP/tests/golden/inputs/linux-6.18-x86_64.so" >"$TMP/probe" 2>&1
if [ $? = 4 ]; then
	contains "a build without inspect says so" "$TMP/probe" 'built without inspect'
	skip "inspect's checks" "this vdsokit was built without inspect (no llvm-config-19)"
	exit 0
fi

PL=$TMP/plants
if bash "$TOP/tests/inspect/build.sh" "$PL" >"$TMP/build.out" 2>"$TMP/build.err"; then
	ok "tests/inspect/build.sh builds the planted images"
else
	not_ok "tests/inspect/build.sh builds the planted images" "$(tail -n 5 "$TMP/build.err")"
fi

# plant IMAGE STATUS CHECK...: inspect IMAGE exits STATUS, and each CHECK
# fails in it (none where STATUS is 0: then every check passes or SKIPs).
plant() {
	local img=$1 want=$2 c
	shift 2
	if grep -q "^SKIP $img:" "$TMP/build.out"; then
		skip "the $img image" "$(grep "^SKIP $img:" "$TMP/build.out" | cut -d: -f2-)"
		return
	fi
	expect_status "$want" "inspect exits $want on the $img image" "$VK" inspect --image "$PL/$img.so"
	for c; do
		contains "the $img image fails $c" "$TMP/out" "^  FAIL  $c: "
	done
	if [ "$want" = 0 ]; then
		if grep -q '^  FAIL' "$TMP/out"; then
			not_ok "the $img image fails no check" "$(grep '^  FAIL' "$TMP/out")"
		else
			ok "the $img image fails no check"
		fi
	fi
}

plant clean 0
plant ibt 0
contains "the ibt image's landing pads pass" "$TMP/out" '^  PASS  gnu-property-landing-pads: claims IBT'
plant retpoline 1 no-indirect-branches
contains "the retpoline is named" "$TMP/out" 'indirect .*lfence \(retpoline\)'
plant stack-check 1 no-stack-probes
contains "the probe is listed" "$TMP/out" 'probe +0x[0-9a-f]+ +orq \$0, \(%rsp\)'
plant no-unwind 1 fde-per-function eh-frame-hdr
plant no-eh-frame-hdr 1 eh-frame-hdr
plant fptrs 1 no-dynamic-relocations no-indirect-branches
contains "the call through the table is memory-indirect" "$TMP/out" 'indirect .*\(memory\)'
plant undefined 1 no-undefined-symbols no-dynamic-relocations
plant execstack 1 stack-not-executable
plant wx 1 no-writable-executable-segment
plant ibt-no-pad 1 gnu-property-landing-pads
plant i386-c-no-fde 0
contains "i386's C entries without an FDE are a note, naming why" "$TMP/out" \
	"^  PASS  fde-per-function: 1 FDEs; 2 functions without one .*i386's compat vDSO promises"
plant i386-no-vsyscall-fde 1 fde-per-function
contains "i386's __kernel_vsyscall without an FDE is named" "$TMP/out" 'without an FDE \(__kernel_vsyscall first\)'
plant arm64-two-isb 0
contains "arm64 without .eh_frame SKIPs, naming why" "$TMP/out" \
	'^  SKIP  fde-per-function: arm64.s vDSO discards .eh_frame by design'

# Each other arch's indirect branches: caught in the table of function
# pointers, none found in the clean image. (Their other checks follow the
# cross toolchain: ppc's -fPIC code has a GOT relocation, arm's
# unwind tables an undefined personality routine.)
for a in riscv64 ppc64le ppc s390x mipsel mips64el armhf; do
	if [ ! -f "$PL/$a-clean.so" ]; then
		skip "$a's indirect branches" "$(grep "^SKIP $a-clean:" "$TMP/build.out" | cut -d: -f2-)"
		continue
	fi
	"$VK" inspect --image "$PL/$a-clean.so" >"$TMP/out" 2>&1
	contains "$a: the clean image has no indirect branch" "$TMP/out" '^  PASS  no-indirect-branches: '
	contains "$a: its clock_gettime is decoded" "$TMP/out" '^__vdso_clock_gettime +[0-9]+ +[1-9]'
	"$VK" inspect --image "$PL/$a-fptrs.so" >"$TMP/out" 2>&1
	contains "$a: the call through a table of function pointers is caught" "$TMP/out" \
		'^  FAIL  no-indirect-branches: 1: __vdso_clock_gettime '
done

# B against A: only __kernel_clock_gettime differs, by one isb.
if [ -f "$PL/arm64-one-isb.so" ]; then
	expect_status 0 "inspect A/B of the arm64 pair exits 0" \
		"$VK" inspect --image "$PL/arm64-two-isb.so" --image "$PL/arm64-one-isb.so"
	contains "A/B: 1 of 2 functions differ" "$TMP/out" '\(1 of 2 functions differ\)'
	contains "A/B: clock_gettime is marked, two isb in A" "$TMP/out" \
		'^\* __kernel_clock_gettime +28>24 .* isb x2, mrs CNTVCT$'
	contains "A/B: one isb in B" "$TMP/out" '^ +> isb, mrs CNTVCT$'
	contains "A/B: clock_getres is unchanged" "$TMP/out" '^  __kernel_clock_getres '
fi

# The real kernels' images: no false finding. arm64's has no golden
# kernel image; x86_64, i386 and loongarch64 do.
for img in linux-6.18-x86_64 linux-7.2-i386 linux-6.12-loongarch64; do
	expect_status 0 "$img's vDSO passes inspect" "$VK" inspect --image "$TOP/tests/golden/inputs/$img.so"
done
contains "loongarch64's counter reads are found" "$TMP/out" 'rdtime\.d'

# Debian's kernels (tests/inspect/debian/README): each passes, with each
# arch's expectation named where it promised less; s390x's empty
# .eh_frame_hdr is a finding (doc/findings.md).
DEB=$TOP/tests/inspect/debian
for img in "$DEB"/*.so; do
	name=$(basename "$img" .so)
	want=0
	[ "$name" = 6.1-s390x ] && want=1
	expect_status $want "Debian $name's vDSO: inspect exits $want" "$VK" inspect --image "$img"
	cp "$TMP/out" "$TMP/deb-$name"
done
# The FDE reader agrees with binutils' on every image that has FDEs.
if need readelf; then
	differ=
	for img in "$DEB"/*.so "$TOP"/tests/golden/inputs/linux-*.so; do
		r=$(readelf -wf "$img" 2>/dev/null | grep -c ' FDE ')
		[ "$r" = 0 ] && continue
		i=$("$VK" inspect --image "$img" 2>/dev/null | sed -n 's/.*fde-per-function: \([0-9]*\) FDEs.*/\1/p')
		[ "$r" = "$i" ] || differ="$differ $(basename "$img"): readelf $r, inspect ${i:-none};"
	done
	check "inspect counts the FDEs readelf does${differ:+ (not:$differ)}" test -z "$differ"
else
	skip "inspect counts the FDEs readelf does" "readelf is not installed"
fi
# A live vDSO, as dump writes it, is its PT_LOAD alone: no section headers,
# so .eh_frame is found through .eh_frame_hdr, whose table names each FDE
# (x86's .eh_frame has no terminator before .text, so a walk to the
# segment's end read code as a record). Each image cut so finds what its
# sections did; s390x's empty header locates none (doc/findings.md, 3).
if need readelf; then
	differ=
	for img in "$DEB"/*.so "$TOP"/tests/golden/inputs/linux-*.so; do
		name=$(basename "$img" .so)
		load=$(readelf -lW "$img" 2>/dev/null | awk '$1 == "LOAD" { print $5; exit }')
		head -c $((load)) "$img" >"$TMP/live.so"
		a=$("$VK" inspect --image "$img" 2>&1 | grep 'fde-per-function')
		b=$("$VK" inspect --image "$TMP/live.so" 2>&1 | grep 'fde-per-function')
		if [ "$name" = 6.1-s390x ]; then
			grep -q 'FAIL  fde-per-function: 7 exported functions without an FDE .*PT_GNU_EH_FRAME locates none' <<<"$b" ||
				differ="$differ $name: $b;"
		elif [ "$a" != "$b" ]; then
			differ="$differ $name: $b;"
		fi
	done
	check "each image cut to its PT_LOAD finds the FDEs its sections did${differ:+ (not:$differ)}" test -z "$differ"
else
	skip "each image cut to its PT_LOAD finds the FDEs its sections did" "readelf is not installed"
fi
contains "Debian 6.1 s390x: the empty .eh_frame_hdr is found" "$TMP/deb-6.1-s390x" \
	'^  FAIL  eh-frame-hdr: PT_GNU_EH_FRAME is empty'
contains "Debian 6.1 arm64: no .eh_frame is a SKIP naming 87676cfca141" "$TMP/deb-6.1-arm64" \
	'^  SKIP  fde-per-function: .*87676cfca141'
contains "Debian 6.1 arm64: isb and the counter read are found" "$TMP/deb-6.1-arm64" \
	'^__kernel_clock_gettime .* isb x2, mrs CNTVCT x2$'
contains "Debian 6.1 i386 compat: FDEs for its assembly entries alone, a note" \
	"$TMP/deb-6.1-amd64-vdso32" '^  PASS  fde-per-function: 3 FDEs; 5 functions without one'
contains "Debian 6.1 mips: no unwind tables by its Makefile, a SKIP" "$TMP/deb-6.1-mipsel" \
	'^  SKIP  fde-per-function: mips.s vDSO is built with -fno-asynchronous-unwind-tables'
contains "Debian 6.12 riscv64: FDEs for its assembly entries, a note" "$TMP/deb-6.12-riscv64" \
	'^  PASS  fde-per-function: .*riscv64.s vDSO C is built with'
contains "Debian 6.12 riscv64: fence and rdtime are found" "$TMP/deb-6.12-riscv64" 'fence x[0-9]+, rdtime x2'
contains "Debian 6.12 x86_64: sgx's call of its handler is listed" "$TMP/deb-6.12-amd64" \
	'indirect +0x[0-9a-f]+ +callq \*%rax \(register\)'
contains "... and noted, by its ABI, not failed" "$TMP/deb-6.12-amd64" \
	"^  PASS  no-indirect-branches: .*by its ABI, __vdso_sgx_enter_enclave calls"
contains "Debian 6.12 x86_64: sgx's FDE after its endbr64 covers it" "$TMP/deb-6.12-amd64" \
	'^  PASS  fde-per-function: '

# This machine's vDSO, in each format: a finding (status 1) is the kernel's.
"$VK" inspect --format ktap >"$TMP/ktap" 2>"$TMP/err"
st=$?
if [ $st = 0 ] || [ $st = 1 ]; then ok "inspect reads this machine's vDSO (status $st)"; else
	not_ok "inspect reads this machine's vDSO" "exit $st: $(cat "$TMP/err")"; fi
contains "its KTAP has a plan of 9" "$TMP/ktap" '^1\.\.9$'
contains "its KTAP has the totals" "$TMP/ktap" '^# Totals: pass:[0-9]+ fail:[0-9]+'
"$VK" inspect --format json >"$TMP/json" 2>"$TMP/err"
if need python3 && python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert len(d["images"][0]["checks"]) == 9' "$TMP/json"; then
	ok "its JSON parses, with 9 checks"
else
	not_ok "its JSON parses, with 9 checks" "$(head -c 300 "$TMP/json")"
fi

# Bad input: a usage error, never a crash.
expect_status 2 "a third --image is a usage error" "$VK" inspect --image a --image b --image c
expect_status 2 "a missing image is status 2" "$VK" inspect --image "$TMP/none.so"
head -c 100 "$TOP/tests/golden/inputs/linux-6.18-x86_64.so" >"$TMP/cut.so"
expect_status 2 "a truncated image is status 2" "$VK" inspect --image "$TMP/cut.so"
