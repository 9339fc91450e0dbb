# The ELF reader and compare's bench-file reader under libFuzzer, ASan and
# UBSan for FUZZ_SECONDS (60) each: fuzz_elf from a corpus of the live
# vDSO and the images in $O/images, if built; fuzz_bench from bench's own
# JSON. The corpora in $O/fuzz/corpus and $O/fuzz/bench-corpus grow from
# run to run; a crash is saved in $O/fuzz/crashes and replays with:
# $O/fuzz/fuzz_elf FILE (or fuzz_bench)
. "$TOP/tests/lib.sh"

# run.sh runs cases from $TMP: a relative O (make's O=build/san) or VK
# names a path under the source tree.
case $O in /*) ;; *) O=$TOP/$O ;; esac
case $VK in /*) ;; */*) VK=$TOP/$VK ;; esac

secs=${FUZZ_SECONDS:-60}
dir=$O/fuzz
# shellcheck disable=SC2054 # -fsanitize=a,b is one word
flags=(-g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
	-std=gnu11 -D_GNU_SOURCE -iquote "$TOP")

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

# Both link core alone: the bench-file reader is core/benchfile's. Not
# core/inspect, which needs LLVM's headers and neither target calls.
mkdir -p "$dir/obj" "$dir/corpus" "$dir/bench-corpus" "$dir/crashes" || exit 1
rm -f "$dir"/obj/*.o "$dir/libcore.a"
built=1
for src in "$TOP"/core/*/*.c; do
	case $src in "$TOP"/core/inspect/*) continue ;; esac
	obj=$dir/obj/$(basename "$(dirname "$src")")-$(basename "$src" .c).o
	clang "${flags[@]}" -c "$src" -o "$obj" 2>>"$TMP/build.err" || built=0
done
if [ $built = 1 ]; then
	ar rcs "$dir/libcore.a" "$dir"/obj/*.o &&
		clang "${flags[@]}" "$TOP/tests/fuzz/fuzz_elf.c" "$dir/libcore.a" \
			-ldl -lm -o "$dir/fuzz_elf" 2>>"$TMP/build.err" &&
		clang "${flags[@]}" "$TOP/tests/fuzz/fuzz_bench.c" "$dir/libcore.a" \
			-ldl -lm -o "$dir/fuzz_bench" 2>>"$TMP/build.err" || built=0
fi
if [ $built = 0 ]; then
	not_ok "build the fuzz targets with clang -fsanitize=fuzzer,address,undefined" \
		"$(grep -m3 -E 'error|undefined' "$TMP/build.err")"
	exit 0
fi
ok "build the fuzz targets with clang -fsanitize=fuzzer,address,undefined"

# Seeds: the live vDSO, if this process has one, and the cross-built
# images.
[ ! -x "$O/tests/tools/elfpatch" ] || seed_images
"$VK" dump "$dir/corpus/live-vdso.so" 2>/dev/null
for img in "$O"/images/*.so; do
	[ -f "$img" ] || continue
	cp "$img" "$dir/corpus/image-$(basename "$img")"
done
if [ "$(find "$dir/corpus" -type f | wc -l)" -eq 0 ]; then
	not_ok "seed the corpus" "no live vDSO to dump and no images in $O/images"
	exit 0
fi

# bench's JSON, plain and --cold (whose samples may be 0 or less), as
# the reader's seeds.
"$VK" bench -d 0.01 --processes 3 -n 4 --format json time getcpu \
	>"$dir/bench-corpus/seed-bench.json" 2>/dev/null
"$VK" bench -d 0.01 --processes 2 -n 4 --cold --format json time \
	>"$dir/bench-corpus/seed-cold.json" 2>/dev/null
if ! grep -q '"samples_ns"' "$dir/bench-corpus/seed-bench.json"; then
	not_ok "seed the bench corpus" "vdsokit bench wrote no samples: $(head -c 200 "$dir/bench-corpus/seed-bench.json")"
	exit 0
fi

# fuzz NAME CORPUS: run $dir/NAME for $secs from CORPUS, then say how it went.
# -timeout: a single input that takes 10 s is a hang. -rss_limit_mb
# bounds memory; libFuzzer exits non-zero on a crash, a leak or a timeout.
# -close_fd_mask=2 keeps the readers' messages out of the log; libFuzzer
# and the sanitizers still report there.
fuzz() {
	local name=$1 corpus=$2 start status elapsed runs artifact ncorpus
	local log=$dir/$name.log

	ncorpus=$(find "$corpus" -type f | wc -l)
	start=$(date +%s)
	"$dir/$name" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -close_fd_mask=2 \
		-print_final_stats=1 -artifact_prefix="$dir/crashes/" "$corpus" >"$log" 2>&1
	status=$?
	elapsed=$(($(date +%s) - start))
	runs=$(sed -n 's/^stat::number_of_executed_units: *\([0-9]*\).*/\1/p' "$log" | tail -n1)
	[ -n "$runs" ] || runs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$log" | tail -n1)
	artifact=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -n1)
	if [ "$status" = 0 ] && [ -n "$runs" ]; then
		ok "$name: $runs executions in ${elapsed}s from $ncorpus corpus files, no crash, hang or broken promise"
	elif [ "$status" = 0 ]; then
		not_ok "$name ran for ${elapsed}s" "no execution count in $log:" "$(tail -n 5 "$log")"
	else
		not_ok "$name: no crash, hang or broken promise in ${elapsed}s (${runs:-?} executions)" \
			"exit $status; $(grep -m1 -E 'ERROR: |SUMMARY: |broken promise|runtime error' "$log")" \
			"input: ${artifact:-none saved}; replay: $dir/$name ${artifact:-FILE}" \
			"log: $log"
	fi
}
fuzz fuzz_elf "$dir/corpus"
fuzz fuzz_bench "$dir/bench-corpus"
