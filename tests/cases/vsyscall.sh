# The vsyscall path, x86_64's legacy page (core/call/vsyscall.h): info's
# mode against /proc/self/maps, and verify, fallback, bench and abi on it
# where this process has the page; where it has none (vsyscall=none, or
# the i386 build i386.sh runs this case on), a SKIP whose reason says why.
# That its rules can fail: tests/unit/vsyscall_path.c's planted entries.
. "$TOP/tests/lib.sh"

"$O/tests/vsyscall_path"

abi=$("$VK" info | sed -n 's/^build: *\([^,]*\),.*/\1/p')
"$VK" info --format json >"$TMP/info.json"
field() { sed -n "/\"vsyscall\": {/,/}/s/.*\"$1\": \"\\([^\"]*\\)\".*/\\1/p" "$TMP/info.json"; }
mode=$(field mode)
readable=$(field readable)
# A 64-bit process's maps show the kernel's mode; awk here is one.
perms=$(awk '/\[vsyscall\]/ { print $2 }' /proc/self/maps)
case $abi:$perms in
x86_64:--xp) want=xonly read=no ;;
x86_64:r-xp) want=emulate read=yes ;;
x86_64:) want=none read=unknown ;;
x86_64:*) want=unknown read=unknown ;;
*) want=none read=unknown ;;
esac
check "info: the page's mode is $want (this build $abi, [vsyscall] '$perms')" test "$mode" = "$want"
check "info: a read of the page: $read (as the kernel's test_vsyscall expects for $want)" \
	test "$readable" = "$read"
schema_valid "info's JSON with its vsyscall object follows doc/json-schema/info.json" info "$TMP/info.json"

fns="gettimeofday time getcpu"
"$VK" verify -d 0.1 --paths vsyscall --format ktap $fns clock-gettime-monotonic >"$TMP/v.ktap" 2>&1
status=$?
# The path's absence comes first: only x86_64's page exists, and lacks it.
case $abi in
x86_64) why='the vsyscall page has only gettimeofday, time and getcpu' ;;
i386) why='i386 has no vsyscall page: the kernel maps it for 64-bit processes only' ;;
*) why='no vsyscall page: only x86_64 has one' ;;
esac
contains "verify: clock_gettime is a SKIP: the page has none" "$TMP/v.ktap" \
	"^ok [0-9]+ clock-gettime-monotonic vsyscall all # SKIP $why\$"
if [ "$want" = xonly ] || [ "$want" = emulate ]; then
	check "verify --paths vsyscall exits 0 (got $status)" test "$status" = 0
	for f in $fns; do
		n=$(grep -Ec "^ok [0-9]+ $f vsyscall [a-z-]+\$" "$TMP/v.ktap")
		check "verify: $f on the vsyscall path passes its rules against the syscall ($n)" test "$n" -ge 3
	done
	check "verify: no check failed" sh -c "! grep -q '^not ok' '$TMP/v.ktap'"

	"$VK" verify -d 0.1 --paths vsyscall --format json $fns >"$TMP/v.json" 2>"$TMP/err"
	schema_valid "verify's JSON with the vsyscall path follows doc/json-schema/verify.json" verify "$TMP/v.json"

	expect_status 0 "fallback --paths vsyscall exits 0" "$VK" fallback --paths vsyscall --format ktap $fns
	for f in $fns; do
		contains "fallback: $f through the page is the kernel's emulation: seccomp sees $f" "$TMP/out" \
			"^# falls back to $f: the kernel emulates every call through the vsyscall page\$"
	done

	expect_status 0 "bench --paths vsyscall,syscall getcpu exits 0" \
		"$VK" bench -d 0.2 --paths vsyscall,syscall --format json getcpu
	cp "$TMP/out" "$TMP/b.json"
	schema_valid "bench's JSON with a vsyscall row follows doc/json-schema/bench.json" bench "$TMP/b.json"
	contains "bench: a getcpu row for the vsyscall path" "$TMP/b.json" '"path": "vsyscall"'
	expect_status 0 "compare reads the vsyscall row of a bench file" "$VK" compare "$TMP/b.json" "$TMP/b.json"
	contains "compare: the getcpu vsyscall row" "$TMP/out" '^getcpu +vsyscall +[0-9.]+ ns'

	expect_status 0 "abi --paths vsyscall time: as the syscall or as the ABI allows" \
		"$VK" abi --paths vsyscall time
else
	check "verify with no page exits 4, nothing could run (got $status)" test "$status" = 4
	case $abi in
	x86_64) why='no vsyscall page: the kernel runs with vsyscall=none \(no \[vsyscall\] in /proc/self/maps\)' ;;
	*) why="$abi has no vsyscall page" ;;
	esac
	for f in $fns; do
		contains "verify: $f on the vsyscall path is a SKIP that says why ($abi)" "$TMP/v.ktap" \
			"^ok [0-9]+ $f vsyscall all # SKIP $why"
	done
fi
