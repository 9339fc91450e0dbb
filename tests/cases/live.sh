# The reader on this machine's own vDSO, through the library and the CLI.
. "$TOP/tests/lib.sh"

"$O/tests/live"

expect_status 0 "info exits 0 on the live vDSO" "$VK" info
contains "info names the soname" "$TMP/out" '^  soname: +linux-(vdso|gate)\.so\.1$'
contains "info gives the kernel's version note" "$TMP/out" '^  Linux note: +[0-9]+\.[0-9]+\.[0-9]+$'
contains "info names the clocksource" "$TMP/out" '^clocksource: '
expect_status 0 "info --format json exits 0" "$VK" info --format json
if need python3; then
	check "info's JSON parses" python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["vdso"]["present"]' "$TMP/out"
else
	skip "info's JSON parses" "python3 is not installed"
fi
expect_status 0 "list-apis exits 0" "$VK" list-apis
contains "list-apis shows clock-gettime-monotonic exported" "$TMP/out" '^clock-gettime-monotonic .* exported$'

# dump writes the mapped image: readelf reads it, info finds the same
# symbols in it, and it fits inside the [vdso] mapping.
expect_status 0 "dump writes the image" "$VK" dump "$TMP/vdso.so"
if need readelf; then
	check "readelf reads the dump" readelf -W --dyn-syms "$TMP/vdso.so"
else
	skip "readelf reads the dump" "readelf is not installed"
fi
"$VK" info | sed -n '/^functions:/,$p' >"$TMP/live.txt"
"$VK" info --image "$TMP/vdso.so" | sed -n '/^functions:/,$p' >"$TMP/file.txt"
check "the dump has the same functions and symbols as the live image" cmp "$TMP/live.txt" "$TMP/file.txt"
range=$(grep -F '[vdso]' /proc/self/maps | cut -d' ' -f1)
[ -n "$range" ] && map=$((0x${range#*-} - 0x${range%-*}))
size=$(stat -c %s "$TMP/vdso.so")
if [ -n "$map" ] && [ "$size" -gt 0 ] && [ "$size" -le "$map" ]; then
	ok "the dump ($size bytes) fits in the [vdso] mapping ($map bytes)"
else
	not_ok "the dump ($size bytes) fits in the [vdso] mapping (${map:-none})"
fi
"$VK" dump - >"$TMP/stdout.so"
check "dump - writes the same bytes to stdout" cmp "$TMP/vdso.so" "$TMP/stdout.so"
expect_status 0 "all (the main job) exits 0" "$VK" all
