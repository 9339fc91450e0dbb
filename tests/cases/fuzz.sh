# The ELF reader under libFuzzer, ASan and UBSan for FUZZ_SECONDS (60),
# from a corpus of the live vDSO and the images in $O/images, if built.
# The corpus in $O/fuzz/corpus grows from run to run; a crash is saved in
# $O/fuzz/crashes and replays with: $O/fuzz/fuzz_elf FILE
. "$TOP/tests/lib.sh"

# run.sh runs cases from $TMP: a relative O (make's O=build/san) or VK
# names a path under the source tree.
case $O in /*) ;; *) O=$TOP/$O ;; esac
case $VK in /*) ;; */*) VK=$TOP/$VK ;; esac

secs=${FUZZ_SECONDS:-60}
dir=$O/fuzz
# shellcheck disable=SC2054 # -fsanitize=a,b is one word
flags=(-g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
	-std=gnu11 -D_GNU_SOURCE)

if ! [ "$secs" -gt 0 ] 2>/dev/null; then
	skip "fuzz the ELF reader" "FUZZ_SECONDS=$secs is not a positive number of seconds"
	exit 0
fi
if ! need clang; then
	skip "fuzz the ELF reader" "clang is not installed"
	exit 0
fi
# libFuzzer's runtime is a package of its own (Debian: libclang-rt-14-dev).
cat >"$TMP/probe.c" <<'EOF'
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { return d && n > 1 ? 0 : 0; }
EOF
if ! clang "${flags[@]}" "$TMP/probe.c" -o "$TMP/probe" 2>"$TMP/probe.err"; then
	skip "fuzz the ELF reader" "clang cannot link a libFuzzer target (Debian: libclang-rt-14-dev): $(grep -m1 -i error "$TMP/probe.err")"
	exit 0
fi

# The core is built without -Icore, where <elf.h> would be core/elf.h; only
# the target, which includes "elf.h", needs it.
mkdir -p "$dir/obj" "$dir/corpus" "$dir/crashes" || exit 1
rm -f "$dir"/obj/*.o "$dir/libcore.a"
built=1
for src in "$TOP"/core/*.c; do
	obj=$dir/obj/$(basename "$src" .c).o
	clang "${flags[@]}" -c "$src" -o "$obj" 2>>"$TMP/build.err" || built=0
done
if [ $built = 1 ]; then
	ar rcs "$dir/libcore.a" "$dir"/obj/*.o &&
		clang "${flags[@]}" -I"$TOP/core" "$TOP/tests/fuzz/fuzz_elf.c" "$dir/libcore.a" \
			-ldl -lm -o "$dir/fuzz_elf" 2>>"$TMP/build.err" || built=0
fi
if [ $built = 0 ]; then
	not_ok "build the fuzz target with clang -fsanitize=fuzzer,address,undefined" \
		"$(grep -m3 -E 'error|undefined' "$TMP/build.err")"
	exit 0
fi
ok "build the fuzz target with clang -fsanitize=fuzzer,address,undefined"

# Seeds: the live vDSO, if this process has one, and the cross-built
# images (built here if images.sh has not run yet: it sorts after this).
if ! ls "$O"/images/*.so >/dev/null 2>&1 && [ -x "$O/tests/tools/elfpatch" ]; then
	O=$O "$TOP/tests/images/build.sh" "$O/images" >/dev/null 2>&1
fi
nseeds=0
if "$VK" dump "$dir/corpus/live-vdso.so" 2>/dev/null; then
	nseeds=$((nseeds + 1))
fi
for img in "$O"/images/*.so; do
	[ -f "$img" ] || continue
	cp "$img" "$dir/corpus/image-$(basename "$img")" && nseeds=$((nseeds + 1))
done
if [ "$(find "$dir/corpus" -type f | wc -l)" -eq 0 ]; then
	not_ok "seed the corpus" "no live vDSO to dump and no images in $O/images"
	exit 0
fi
ncorpus=$(find "$dir/corpus" -type f | wc -l)

# -timeout: a single input that takes 10 s is a hang. -rss_limit_mb
# bounds memory; libFuzzer exits non-zero on a crash, a leak or a timeout.
start=$(date +%s)
"$dir/fuzz_elf" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
	-print_final_stats=1 -artifact_prefix="$dir/crashes/" "$dir/corpus" \
	>"$dir/fuzz.log" 2>&1
status=$?
elapsed=$(($(date +%s) - start))
runs=$(sed -n 's/^stat::number_of_executed_units: *\([0-9]*\).*/\1/p' "$dir/fuzz.log" | tail -n1)
[ -n "$runs" ] || runs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$dir/fuzz.log" | tail -n1)
artifact=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$dir/fuzz.log" | tail -n1)
if [ "$status" = 0 ] && [ -n "$runs" ]; then
	ok "fuzz_elf: $runs executions in ${elapsed}s from $ncorpus corpus files ($nseeds seeds), no crash, hang or broken promise"
elif [ "$status" = 0 ]; then
	not_ok "fuzz_elf ran for ${elapsed}s" "no execution count in $dir/fuzz.log:" "$(tail -n 5 "$dir/fuzz.log")"
else
	not_ok "fuzz_elf: no crash, hang or broken promise in ${elapsed}s (${runs:-?} executions)" \
		"exit $status; $(grep -m1 -E 'ERROR: |SUMMARY: |broken promise|runtime error' "$dir/fuzz.log")" \
		"input: ${artifact:-none saved}; replay: $dir/fuzz_elf ${artifact:-FILE}" \
		"log: $dir/fuzz.log"
fi
