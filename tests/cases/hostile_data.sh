# Hostile data: every value a bench file, an image or an option can carry
# is validated and bounded, refused with exit 2 and a reason naming the
# file and field, and strings from files and images reach the terminal
# escaped. Each check here failed before vdsokit validated that input.
. "$TOP/tests/lib.sh"

case $O in /*) ;; *) O=$TOP/$O ;; esac
case $VK in /*) ;; */*) VK=$TOP/$VK ;; esac
cd "$TMP" || exit 1

# refused DESC PATTERN CMD...: CMD exits 2 within 60 s, saying PATTERN.
refused() {
	local desc=$1 pat=$2 st
	shift 2
	timeout 60 "$@" >"$TMP/out" 2>"$TMP/err"
	st=$?
	if [ $st = 2 ] && grep -Eq -- "$pat" "$TMP/err"; then
		ok "$desc: $(head -n 1 "$TMP/err")"
	else
		not_ok "$desc" "command: $*" "exit $st, expected 2$([ $st = 124 ] && echo ' (hung 60 s)')" \
			"stderr: $(head -c 300 "$TMP/err")"
	fi
}

# row API PROCS SAMPLE: a result of PROCS processes of 7 samples each.
row() {
	local api=$1 procs=$2 x=$3 one all
	one=$(printf "%s," "$x" "$x" "$x" "$x" "$x" "$x" "$x")
	one="[${one%,}]"
	all=$(yes "$one" | head -n "$procs" | paste -sd, -)
	printf '{"api": "%s", "path": "vdso", "samples_ns": %s, "process_samples_ns": [%s]}' \
		"$api" "$one" "$all"
}
# bench FILE ROW...: a bench file of these results.
bench() {
	local f=$1
	shift
	{
		printf '{"schema": "vdsokit-bench/1", "results": ['
		(IFS=,; printf '%s' "$*")
		printf ']}\n'
	} >"$f"
}

bench good.json "$(row time 8 25.5)"

# Samples and the fields they sit in.
bench neg.json "$(row time 8 -5)"
refused "compare: negative samples" '^vdsokit compare: neg\.json: results\[0\]\.samples_ns\[0\]: -5 is not a positive time$' \
	"$VK" compare good.json neg.json
bench zero.json "$(row time 8 0)"
refused "compare: zero samples" 'zero\.json: results\[0\]\.samples_ns\[0\]: 0 is not a positive time$' \
	"$VK" compare good.json zero.json
printf '{"schema": "vdsokit-bench/1", "results": [{"api": "time", "path": "vdso", "samples_ns": [3], "process_samples_ns": "x"}]}\n' >str.json
refused "compare: process_samples_ns a string" 'str\.json: results\[0\]\.process_samples_ns: "x" is not an array$' \
	"$VK" compare good.json str.json
printf '{"schema": "vdsokit-bench/1", "results": [{"api": "time", "path": "vdso", "samples_ns": [3], "process_samples_ns": []}]}\n' >empty.json
refused "compare: process_samples_ns empty" 'empty\.json: results\[0\]\.process_samples_ns: the array is empty$' \
	"$VK" compare good.json empty.json
bench huge.json "$(row time 8 1e308)"
refused "compare: 1e308 ns" 'huge\.json: results\[0\]\.samples_ns\[0\]: 1e\+308 ns is more than 1e\+09 ns' \
	"$VK" compare good.json huge.json
bench tiny.json "$(row time 8 1e-300)"
refused "compare: 1e-300 ns (a ratio of 300 digits)" 'tiny\.json: results\[0\]\.samples_ns\[0\]: 1e-300 ns is less than 0\.001 ns$' \
	"$VK" compare tiny.json good.json
sed 's/"results"/"reference": {"ns_per_step": -3}, "results"/' good.json >ref.json
refused "compare: a negative reference loop" 'ref\.json: reference\.ns_per_step: -3 is not a positive time$' \
	"$VK" compare good.json ref.json
# The bound that keeps the bootstrap and the Hodges-Lehmann shift, quadratic
# in a row's processes, within seconds: 1025 processes in a row.
bench many.json "$(row time 1025 25.5)"
refused "compare: more processes in a row than the bound" 'more than 1024' \
	"$VK" compare good.json many.json

# Strings from a file reach the terminal escaped, in every format.
bench esc.json "$(row 'evil\u001b[31mred\r\nok 1 forged' 8 25.5)"
for fmt in text markdown; do
	timeout 60 "$VK" compare --format $fmt esc.json esc.json >"$TMP/out" 2>"$TMP/err"
	if grep -q "$(printf '\033')" "$TMP/out" || grep -q "$(printf '\r')" "$TMP/out" || grep -q '^ok 1 forged' "$TMP/out"; then
		not_ok "compare --format $fmt: an API name's ESC, CR and LF are escaped" "$(grep -a evil "$TMP/out" | cat -v | head -c 300)"
	else
		contains "compare --format $fmt: an API name's ESC, CR and LF are escaped" "$TMP/out" 'evil\\x1b\[31mred\\x0d\\x0aok 1 forged'
	fi
done

# Strings from an image: a symbol name with ESC and LF, in info's text,
# and a byte that is not UTF-8 kept out of info's JSON.
if "$VK" dump vdso.so 2>/dev/null && grep -qa getcpu vdso.so; then
	LC_ALL=C sed 's/getcpu/\x1b[2Jx\n/' vdso.so >evil.so
	timeout 60 "$VK" info --image evil.so >"$TMP/out" 2>"$TMP/err"
	if grep -q "$(printf '\033')" "$TMP/out"; then
		not_ok "info: an image's symbol name with ESC and LF is escaped" "$(grep -a '2Jx' "$TMP/out" | cat -v | head -c 300)"
	else
		contains "info: an image's symbol name with ESC and LF is escaped" "$TMP/out" '\\x1b\[2Jx\\x0a'
	fi
	LC_ALL=C sed 's/getcpu/getcp\xff/' vdso.so >notutf8.so
	if need python3; then
		timeout 60 "$VK" info --format json --image notutf8.so >"$TMP/out" 2>"$TMP/err"
		if python3 -c 'import json, sys; json.load(open(sys.argv[1], encoding="utf-8"))' "$TMP/out" 2>"$TMP/py"; then
			ok "info --format json: a symbol byte that is not UTF-8 still makes valid JSON"
		else
			not_ok "info --format json: a symbol byte that is not UTF-8 still makes valid JSON" "$(tail -n 1 "$TMP/py")"
		fi
	else
		skip "info --format json: a symbol byte that is not UTF-8 still makes valid JSON" "python3 is not installed"
	fi
else
	skip "info: an image's strings are escaped" "no vDSO in this process, or it has no getcpu"
fi

# verify takes at most 64 clocks of a function: the 65th is refused, not dropped.
ids=()
for i in $(seq 0 64); do ids+=("clock-gettime-id:$i"); done
refused "verify: a 65th clock id is refused" "'clock-gettime-id:64': more than 64 clocks of one function" \
	"$VK" verify -d 0.01 "${ids[@]}"

# list-apis --image of an i386 vDSO shows i386's syscall numbers.
img=$O/images/i386-gnu.so
[ ! -x "$O/tests/tools/elfpatch" ] || seed_images
if [ -f "$img" ]; then
	timeout 60 "$VK" list-apis --image "$img" >"$TMP/out" 2>"$TMP/err"
	if grep -q 'clock_gettime(228)' "$TMP/out"; then
		not_ok "list-apis --image i386: i386's syscall numbers" "$(grep -m1 clock-gettime-monotonic "$TMP/out")"
	else
		contains "list-apis --image i386: i386's syscall numbers" "$TMP/out" \
			'^clock-gettime-monotonic .* clock_gettime\(265\) '
	fi
else
	skip "list-apis --image i386: i386's syscall numbers" "no i386 image: tests/images/build.sh found no i386 compiler"
fi

# Option values: one strict parser. Each of these was taken (1e300 hung).
refused "verify --max-fails 99999999999999999999999" "'99999999999999999999999' is not a whole number" \
	"$VK" verify --max-fails 99999999999999999999999 time
refused "verify --max-fails ' -1'" "' -1' is not a whole number" "$VK" verify --max-fails ' -1' time
refused "verify -d ' 1'" "' 1' is not a positive number of seconds" "$VK" verify -d ' 1' time
refused "verify -d 0x1p-3" "'0x1p-3' is not a positive number of seconds" "$VK" verify -d 0x1p-3 time
refused "verify -d 1e300" "'1e300' is not a positive number of seconds \(at most 604800\)" \
	"$VK" verify -d 1e300 time
refused "bench --processes ' 3'" "' 3' is not a whole number" "$VK" bench --processes ' 3' time
refused "compare --threshold ' 5'" "' 5' is not a number" "$VK" compare --threshold ' 5' good.json good.json
refused "timens --monotonic ' 5'" "' 5' is not seconds" "$VK" timens --monotonic ' 5'
refused "verify clock-gettime-id:' 5'" "unknown API 'clock-gettime-id: 5'" "$VK" verify clock-gettime-id:' 5'
refused "verify clock-gettime-id:0x10" "unknown API 'clock-gettime-id:0x10'" "$VK" verify clock-gettime-id:0x10
