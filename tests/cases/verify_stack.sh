# verify's stack rule: the figure on every path, --max-stack, and planted
# libraries whose clock_gettime uses 64 KiB, probes 300 KiB below its
# frame, probes 4152 bytes below it as Go's issue 20427 did (a write of
# the byte it read) or reads 16 KiB or 1 KiB below it (tests/impl/stack-*.c),
# beside the pass-through, which passes.
. "$TOP/tests/lib.sh"

IMPL=$O/tests/impl

# stack_lines FILE: each KTAP stack result with the diagnostic after it.
stack_lines() {
	grep -A1 -E '^(not )?ok [0-9]+ [^ ]+ [a-z]+ stack' "$1"
}

# On the host's paths: a figure in bytes for each, and a line of them in the text.
out=$TMP/host.ktap
"$VK" verify -d 0.05 --paths vdso,libc,syscall --format ktap clock-gettime-monotonic time getrandom \
	>"$out" 2>"$TMP/host.err"
n=$(stack_lines "$out" | grep -cE '^# [0-9]+ bytes$')
got=$(grep -cE '^(not )?ok [0-9]+ [^ ]+ (vdso|libc|syscall) stack' "$out")
if [ "$got" -gt 0 ] && [ "$n" = "$got" ] && ! grep -qE '^not ok [0-9]+ [^ ]+ [a-z]+ stack' "$out"; then
	ok "every path's stack result passes with its figure, 'N bytes' ($n)"
else
	not_ok "every path's stack result passes with its figure, 'N bytes'" "$(stack_lines "$out" | head -n 12)"
fi
"$VK" verify -d 0.05 --paths vdso,syscall time >"$TMP/host.txt" 2>&1
contains "the text has the figures in one line" "$TMP/host.txt" '^Stack: [0-9]+(-[0-9]+)? bytes on 1 function \(each: --verbose\)$'
"$VK" verify -d 0.05 --paths vdso --verbose time >"$TMP/verbose.txt" 2>&1
contains "--verbose lists each" "$TMP/verbose.txt" '^  time vdso stack: [0-9]+ bytes$'
"$VK" verify -d 0.05 --paths vdso --format json time 2>&1 | tr -d '\n' >"$TMP/host.json"
contains "JSON has the figure in the rule's detail" "$TMP/host.json" \
	'"check": *"stack", *"status": *"pass",[^}]*"detail": *"[0-9]+ bytes"'

# --max-stack 1: every call uses more, on any machine, so it fails each and names it.
out=$TMP/max1.ktap
expect_status 1 "--max-stack 1 fails" "$VK" verify -d 0.05 --paths vdso --max-stack 1 --format ktap time
cp "$TMP/out" "$out"
contains "--max-stack names the function and its figure" "$out" '^not ok [0-9]+ time vdso stack$'
contains "--max-stack's failure gives the figure and the limit" "$out" '^# [0-9]+ bytes, more than --max-stack 1 \('
expect_status 2 "--max-stack 0 is bad input" "$VK" verify --max-stack 0 time
expect_status 2 "--max-stack x is bad input" "$VK" verify --max-stack x time

why=
if is_static "$VK"; then
	why="vdsokit is statically linked: no dlopen(), so no --impl"
elif [ ! -f "$IMPL/stack-64k.so" ]; then
	why="$IMPL/stack-64k.so is not built (make check-build)"
fi

# impl LIB OUT [OPTION...]: the impl path alone, on one clock; its status.
impl() {
	local so=$IMPL/$1.so out=$2
	shift 2
	"$VK" verify --impl "$so" --paths impl -d 0.05 --format ktap "$@" clock-gettime-monotonic \
		>"$out" 2>"$out.err"
}

# figure FILE: the bytes the stack rule's diagnostic gives first.
figure() {
	stack_lines "$1" | sed -nE 's/^# [^0-9]*([0-9]+) bytes.*/\1/p' | head -n 1
}

for t in "stack-64k 1 --max-stack 16384" "stack-64k 0" "passthrough 0 --max-stack 16384" \
	 "stack-probe 1" "stack-go-probe 1 --max-stack 4096" "stack-read-16k 1 --max-stack 16384" \
	 "stack-read-1k 1 --max-stack 1024" "passthrough 0 --max-stack 4096"; do
	set -- $t
	lib=$1 want=$2
	shift 2
	desc="$lib${*:+ $*} exits $want"
	if [ -n "$why" ]; then
		skip "$desc" "$why"
		continue
	fi
	out=$TMP/$lib$#.ktap
	impl "$lib" "$out" "$@"
	status=$?
	bytes=$(figure "$out")
	case $lib:$want in
	stack-64k:1) good=$(stack_lines "$out" | grep -cE '^# [0-9]+ bytes, more than --max-stack 16384 ') ;;
	stack-64k:0) good=$(stack_lines "$out" | grep -cE '^# [0-9]+ bytes$') ;;
	passthrough:0) good=$(stack_lines "$out" | grep -cE '^# [0-9]+ bytes$') ;;
	stack-probe:1) good=$(stack_lines "$out" | grep -cE '^# touched the guard pages [0-9]+ bytes below the caller.s frame') ;;
	stack-go-probe:1) good=$(stack_lines "$out" | grep -cE '^# [0-9]+ bytes, more than --max-stack 4096 ') ;;
	stack-read-16k:1) good=$(stack_lines "$out" | grep -cE '^# [0-9]+ bytes, more than --max-stack 16384 ') ;;
	stack-read-1k:1) good=$(stack_lines "$out" | grep -cE '^# [0-9]+ bytes, more than --max-stack 1024 ') ;;
	esac
	case $lib in
	stack-64k) [ "${bytes:-0}" -ge 65536 ] || good=0 ;;
	stack-probe) [ "${bytes:-0}" -ge 307200 ] || good=0 ;;
	stack-go-probe) [ "${bytes:-0}" -ge 4152 ] || good=0 ;;
	stack-read-16k) [ "${bytes:-0}" -ge 16384 ] || good=0 ;;
	stack-read-1k) [ "${bytes:-0}" -ge 1024 ] || good=0 ;;
	passthrough) [ "${bytes:-99999}" -lt 4096 ] || good=0 ;;
	esac
	if [ "$status" = "$want" ] && [ "$good" = 1 ]; then
		ok "$desc, its stack ${bytes} bytes"
	else
		not_ok "$desc, its stack ${bytes:-?} bytes" "exit $status" "$(stack_lines "$out")" \
			"$(head -c 300 "$out.err")"
	fi
done
