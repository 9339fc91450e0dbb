# Every case that broke is named: a planted getrandom that gives bytes
# for GRND_RANDOM|GRND_INSECURE with and without GRND_NONBLOCK (flags 0x6
# and 0x7, tests/impl/bug-getrandom-random-insecure.c) breaks the flags
# rule twice, and text, KTAP, JSON, vdsotest's reasons and the
# reproducers name both.
. "$TOP/tests/lib.sh"
D=$TMP/verify_cases
mkdir -p "$D" || exit 1

LIB=$O/tests/impl/bug-getrandom-random-insecure.so
desc="flags 0x6 and 0x7 named in text, KTAP, JSON, vdsotest and the reproducers"
if is_static "$VK"; then
	skip "$desc" "vdsokit is statically linked: no dlopen(), so no --impl"
	exit 0
elif [ ! -f "$LIB" ]; then
	skip "$desc" "$LIB is not built (make check-build)"
	exit 0
fi

# verify_lib FORMAT OUT [OPTION...]: the planted library's getrandom; its status.
verify_lib() {
	local fmt=$1 out=$2
	shift 2
	"$VK" verify --impl "$LIB" --paths impl -d 0.05 --format "$fmt" "$@" getrandom \
		>"$out" 2>"$out.err"
}

both='flags 0x6, flags 0x7'
verify_lib text "$D/out.txt" --output "$D/out"
status=$?
[ $status = 1 ] && ok "the planted library fails verify" ||
	not_ok "the planted library fails verify" "exit $status" "$(head -c 300 "$D/out.txt.err")"
contains "text names both after the first's values" "$D/out.txt" \
	"^  getrandom impl flags: flags 0x6: impl returned 16, the syscall -22 \(broken 2 times in [0-9]+ calls: $both\)$"

verify_lib ktap "$D/out.ktap"
contains "KTAP names both in the failure's diagnostic" "$D/out.ktap" \
	"^# flags 0x6: impl returned 16, the syscall -22 \(broken 2 times in [0-9]+ calls: $both\)$"

verify_lib json "$D/out.json"
tr -d '\n' <"$D/out.json" >"$D/flat.json"
contains "JSON names both in the result's cases" "$D/flat.json" \
	'"check": *"flags",[^}]*"cases": *\[ *"flags 0x6", *"flags 0x7" *\], *"more_cases": *0'
schema_valid "its JSON follows verify.json" verify "$D/out.json"

verify_lib vdsotest "$D/out.vdsotest"
contains "vdsotest's reason on stderr names both" "$D/out.vdsotest.err" \
	"^getrandom verify flags \(impl\): flags 0x6: impl returned 16, the syscall -22 \(each case that broke: $both\)$"

# The reproducer calls both; its report shows each.
c=$(ls "$D"/out/repro/getrandom-*.c 2>/dev/null | head -n 1)
contains "the reproducer calls both flags" "${c:-$D/out/repro/none.c}" \
	'^static const unsigned flags\[\] = \{ 0x6u, 0x7u \};$'
txt=${c%.c}.txt
n=$(grep -cE '^What the --impl library does: getrandom\(buf, 16, (GRND_NONBLOCK\|)?GRND_RANDOM\|GRND_INSECURE\) returns 16' \
	"$txt" 2>/dev/null)
[ "$n" = 2 ] && ok "the reproducer's report shows both calls" ||
	not_ok "the reproducer's report shows both calls" "$(head -n 12 "$txt" 2>&1)"
